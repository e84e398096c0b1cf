"""Reading one ruleset's file again for a screen that shows or plays it (the new-game
screen, the create-table dialog, the rules screen): the rules, or why they no longer load.

A player's file may have changed since the rulesets were listed, so it is read again when
chosen.  Screens call this from a worker thread: it reads files (the ruleset and what it
extends), never on a loop that draws."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

if TYPE_CHECKING:
    from pathlib import Path

    from tui.app.colours import Colours
    from tui.engine.rules import Ruleset
    from tui.engine.ruleset.loader import RulesetInfo


def read_rules(info: RulesetInfo, user_dir: Path | None,
               confine: bool = False) -> tuple[Ruleset | None, str]:
    """(the rules, "") or (None, why they do not load)."""
    from tui.engine.ruleset import RulesetError, load_ruleset

    try:
        return load_ruleset(info.path, user_dir, confine), ""
    except RulesetError as exc:
        return None, str(exc)


def no_longer_loads(name: str, why: str, colours: Colours) -> Text:
    """What a screen shows in place of rules chosen from a list that no longer load (as
    plain text, in the theme's colour for what went wrong)."""
    return Text(f"{name} no longer loads:\n{why}", Style(color=colours.bad))


def player_counts(rules: Ruleset, current: object, most: int | None = None,
                  ) -> tuple[list[int], int]:
    """The numbers of players a screen offers for these rules (up to `most`), and the one
    to show: the current choice where the rules allow it, else 3 or the nearest allowed."""
    low, high = rules.players_min, min(rules.players_max, most or rules.players_max)
    if isinstance(current, int) and low <= current <= high:
        return list(range(low, high + 1)), current
    return list(range(low, high + 1)), min(max(low, 3), high)
