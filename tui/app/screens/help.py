"""Every key and mouse gesture of the table, in one dialog."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ..colours import app_colours

KEYS: list[tuple[str, str]] = [
    ("s", "draw the top card of the stock"),
    ("t", "take the top discard (where deeper cards may be taken: choose how deep, "
          "the top card first)"),
    ("← →  Home End", "move the cursor along your hand"),
    ("space", "select / unselect the card under the cursor"),
    ("⇧← ⇧→  or  , .", "move the card (or the selected cards) to arrange your hand"),
    ("a", "arrange: by suit, by rank, or best melds first (underlined ┈┈)"),
    ("g", "group the selected cards as a meld (g on a grouped card ungroups it)"),
    ("m", "meld: lay down the grouped melds (your contract)"),
    ("l", "lay off the selected cards onto a meld that takes them (asks which, if several)"),
    ("w", "swap the card under the cursor for a joker in a run"),
    ("d", "discard the selected card (or the card under the cursor)"),
    ("o", "go out: meld your whole hand (all but the discard)"),
    ("b / n", "buy the offered discard / pass"),
    ("h", "hint: what the strongest computer player would do"),
    ("u", "undo your last turn (only against computer players)"),
    ("c", "score sheet and full log"),
    ("Esc", "clear the selection (again: clear the grouped melds)"),
    ("q", "back to the main menu (the game is kept)"),
    ("Ctrl+P", "command palette: every move and screen by name"),
]

MOUSE: list[tuple[str, str]] = [
    ("click a card", "select it"),
    ("click the stock", "draw from it"),
    ("click the discard pile", "take the card (or, after drawing, discard the selected one)"),
    ("click a meld", "lay the selected cards off onto it, or swap for its joker"),
    ("click a key in the bar", "same as pressing it"),
]


def _table(rows: list[tuple[str, str]], key_colour: str) -> Table:
    table = Table(show_header=False, show_edge=False, pad_edge=False, box=None)
    table.add_column(style=f"bold {key_colour}", no_wrap=True)
    table.add_column()
    for key, what in rows:
        table.add_row(key, what)
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,enter,f1", "close", "Close")]

    def __init__(self) -> None:
        super().__init__(classes="picker")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("Keys at the table", classes="dialog-title")
            with VerticalScroll():
                key_colour = app_colours(self.app).highlight
                yield Static(_table(KEYS, key_colour))
                yield Label("Mouse", classes="dialog-title")
                yield Static(_table(MOUSE, key_colour))
            yield Label("Esc close", classes="dialog-help")

    def action_close(self) -> None:
        self.dismiss()
