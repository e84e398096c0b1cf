"""What screens hand back with `dismiss()`: the screen that opened one decides what to do
with it, so screens never import the screens that opened them."""

from __future__ import annotations

from dataclasses import dataclass

from tui.engine.rules import Ruleset

QUICK_OPPONENT_LEVEL = "medium"


@dataclass(frozen=True)
class PlayRules:
    """"Play this" in the rules editor: start a game (or, over SSH, host a table) with these
    freshly saved house rules, named by their file's stem."""

    key: str
    rules: Ruleset

    def seats(self) -> int:
        """Three at the table where the rules allow it."""
        return max(self.rules.players_min, min(3, self.rules.players_max))


@dataclass(frozen=True)
class NewTable:
    """The create-table dialog's choice: the rules (as the dialog loaded them, so the table
    plays what the player was shown), the seats, and the bots for the seats nobody takes."""

    rules_key: str
    seats: int
    fill_level: str
    rules: Ruleset
