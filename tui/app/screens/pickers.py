"""Small dialogs that ask the player to choose one thing: a meld, how deep to take.

A picker lists only what may be chosen (the caller passes the legal targets): no greyed
rows that ↓ would skip, and nothing happens until Enter."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from ..host import still_shown

DIALOG_FRAME = 8  # rows of a picker besides its list: border, padding, title, keys
LIST_MOST = 16  # rows the list takes at most


class PickScreen(ModalScreen[int | None]):
    """A titled list of choices; dismisses with the chosen value or None (Escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: Sequence[tuple[int, Text | str]]) -> None:
        """`choices`: (value, label), every one of them a legal choice."""
        super().__init__(classes="picker")
        self.title_text = title
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield OptionList(*(Option(label, id=str(value)) for value, label in self.choices))
            yield Label("up/down choose, Enter confirm, Esc cancel", classes="dialog-help")

    def on_mount(self) -> None:
        if still_shown(self):  # (not closed before it was mounted)
            self.query_one(OptionList).highlighted = 0
            self._fit(self.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        """The list scrolls within what the window leaves it, so the title and the keys
        below it always show (a deep pile once pushed them out of an 80×24 window)."""
        room = int(height * 0.9) - DIALOG_FRAME
        for options in self.query(OptionList):  # (none once the picker is closed)
            options.styles.max_height = max(2, min(LIST_MOST, room))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question before something that cannot be taken back (abandoning a game):
    `y` or Enter on "yes" confirms; `n`, Esc or Enter on "no" keep things as they are."""

    BINDINGS = [Binding("escape,n", "answer(False)", "No"),
                Binding("y", "answer(True)", "Yes")]

    def __init__(self, question: str, detail: str, yes: str, no: str) -> None:
        super().__init__(classes="picker")
        self.question = question
        self.detail = detail
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            yield Static(self.detail)  # wraps, where a Label would be cut off
            yield OptionList(Option(f"n  {self.no}", id="no"), Option(f"y  {self.yes}", id="yes"))
            yield Label("y yes, n or Esc no", classes="dialog-help")

    def on_mount(self) -> None:
        if still_shown(self):  # (not closed before it was mounted)
            self.query_one(OptionList).highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
