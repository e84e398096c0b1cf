"""Reading one ruleset's file again for a screen that shows or plays it (the new-game
screen, the create-table dialog, the rules screen): the rules, or why they no longer load.

A player's file may have changed since the rulesets were listed, so it is read again when
chosen.  Screens call this from a worker thread: it reads files (the ruleset and what it
extends), never on a loop that draws."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

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
