"""Small dialogs that ask the player to choose one thing: a meld, how deep to take."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option


class PickScreen(ModalScreen[int | None]):
    """A titled list of choices; dismisses with the chosen value or None (Escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: Sequence[tuple[int, Text | str, bool]]) -> None:
        """`choices`: (value, label, enabled)."""
        super().__init__(classes="picker")
        self.title_text = title
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield OptionList(
                *(Option(label, id=str(value), disabled=not enabled)
                  for value, label, enabled in self.choices)
            )
            yield Label("↑↓ choose · Enter confirm · Esc cancel", classes="dialog-help")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        for index, (_, _, enabled) in enumerate(self.choices):
            if enabled:
                options.highlighted = index
                break

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)
