"""Told when "Continue" finds a saved game it cannot load: why, in one line, and a choice.

The player either starts a new game (the damaged file is kept aside, renamed, for anyone
who wants to look at it) or goes back to the menu with the file left as it is.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from tui.terminal_text import printable


class DamagedSaveScreen(ModalScreen[bool]):
    """Dismissed with True for "start a new game", False for "back to the menu"."""

    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("escape,b", "back", "Back"),
    ]

    def __init__(self, reason: str) -> None:
        super().__init__(classes="picker")
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("The saved game cannot be continued", classes="dialog-title")
            yield Static(Text(printable(self.reason)), id="damaged-save-reason")
            with Horizontal(classes="buttons"):
                yield Button("New game", variant="primary", compact=True, id="new-game")
                yield Button("Back", compact=True, id="back")
            yield Label("n new game (the damaged file is kept aside) · Esc back",
                        classes="dialog-help")

    def on_mount(self) -> None:
        self.query_one("#new-game", Button).focus()

    @on(Button.Pressed, "#new-game")
    def action_new_game(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        self.dismiss(False)
