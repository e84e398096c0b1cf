"""The command palette's entries (Ctrl+P): the table's moves and the app's screens, each
with its key, so a player who forgets a key can type what they want instead."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.screen import Screen

if TYPE_CHECKING:
    from .screens.table_view import TableView

# (title, key, the table screen's action)
TABLE_COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("Draw from the stock", "s", "draw_stock"),
    ("Take from the discard pile", "t", "take_discard"),
    ("Select the card under the cursor", "space", "select"),
    ("Group the selected cards as a meld", "g", "group"),
    ("Meld: lay down the grouped melds", "m", "meld"),
    ("Lay off onto a meld on the table", "l", "lay_off"),
    ("Swap a card for a joker on the table", "w", "swap"),
    ("Discard the selected card", "d", "discard"),
    ("Go out", "o", "go_out"),
    ("Buy the offered discard", "b", "buy"),
    ("Pass on the offered discard", "n", "pass_buy"),
    ("Arrange the hand (suit, rank, melds)", "a", "arrange"),
    ("Hint: what the strongest computer player would do", "h", "hint"),
    ("Undo your last move", "u", "undo"),
    ("Score sheet and full log", "c", "scores"),
    ("Keys at the table (help)", "?", "help"),
    ("Deal summary / standings", "Enter", "continue"),
    ("Back to the main menu (the game is kept)", "q", "leave"),
)

# (title, help, the menu's choice)
SCREENS: tuple[tuple[str, str, str], ...] = (
    ("New game", "choose the rules and the opponents", "new"),
    ("Continue the game in progress", "back to the table", "continue"),
    ("Rules", "read the rules of a game, or write your own", "rules"),
    ("Game records", "finished games, statistics and replays", "records"),
    ("Settings", "name, cards, colours, theme, bot speed", "settings"),
)


# Moves offered only when the key bar offers them now (the ruleset has them and the
# moment allows them): no "Buy" in a game without buying, no "Draw" in the middle of a turn.
MOVES = frozenset({"draw_stock", "take_discard", "select", "group", "meld", "lay_off", "swap",
                   "discard", "go_out", "buy", "pass_buy", "undo", "continue"})


def table_commands(screen: TableView) -> Iterable[SystemCommand]:
    """The table's commands that make sense now: what the screen would refuse is left
    out, and a move only when it can be played now."""
    playable = screen.moves_now()
    for title, key, action in TABLE_COMMANDS:
        if screen.check_action(action, ()) is False:
            continue
        if action in MOVES and action not in playable:
            continue
        yield SystemCommand(title, f"key: {key}", _runs(screen, action))


def screen_commands(choose: Callable[[str], None],
                    can_continue: bool = True) -> Iterable[SystemCommand]:
    """The app's screens (Continue only with a game to continue)."""
    for title, help_text, choice in SCREENS:
        if choice == "continue" and not can_continue:
            continue
        yield SystemCommand(title, help_text, lambda choice=choice: choose(choice))


def _runs(screen: Screen[Any], action: str) -> Callable[[], None]:
    def run() -> None:
        screen.call_later(screen.run_action, action)

    return run
