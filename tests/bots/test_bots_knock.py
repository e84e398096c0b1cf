"""When a bot knocks (Gin): at once early in the deal, but later only with a count the
other hand is unlikely to undercut; gin always; and where there is no undercut to fear,
whenever the rules allow."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_rig import cards, fast_bot, rig

from tui.bots.knock import knock_allowance
from tui.engine.actions import Discard, DrawStock
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset_text

RECIPE = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "gin.yaml"
KNOCKER = "3C 4C 5C 7H 7D 7S 9S 10S JS 4D"  # with any card drawn: knock keeping 4D
GIN_SOON = "3C 4C 5C 7H 7D 7S 9S 10S JS 2C"  # KH drawn: gin
OTHER = "6C QS 8S 8D 8C 4H 5H 6H AD KD"
PASSED = "2H 3H 9H 10H 2D 3D 9D 10D 2S 3S 5S"  # drawn and thrown straight back


def gin(text: str = "") -> Game:
    rules = load_ruleset_text(f"extends: {RECIPE.name}\n{text}",
                              file=str(RECIPE.parent / "house.yaml"), base_dir=RECIPE.parent)
    return Game(rules, ["P0", "P1"], 4)


def after_turns(g: Game, hand: str, turns: int) -> None:
    """Both players draw and throw back the card drawn for `turns` turns each; then seat 0
    draws KH and is to play."""
    drawn = PASSED.split()[: 2 * turns]
    rig(g, [hand, OTHER], discard="QH", stock_top=" ".join([*drawn, "KH"]), turn=0)
    for _ in range(2 * turns):
        seat = g.actor
        g.apply(DrawStock(seat))
        g.apply(Discard(seat, g.round.hands[seat][-1]))
    g.apply(DrawStock(0))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_bot_knocks_at_once_early_in_the_deal(level: str) -> None:
    g = gin()
    after_turns(g, KNOCKER, 0)
    assert fast_bot(level).choose(g.view(0)).kind == "go_out"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_late_in_the_deal_a_bot_waits_for_a_lower_count(level: str) -> None:
    g = gin()
    after_turns(g, KNOCKER, 5)
    view = g.view(0)
    assert knock_allowance(view) < 4
    action = fast_bot(level).choose(view)
    assert action.kind == "discard"
    assert action == Discard(0, cards(g, 0, "KH")[0])  # and keeps the hand for the knock


def test_gin_is_never_held_back() -> None:
    g = gin()
    after_turns(g, GIN_SOON, 5)
    assert fast_bot("medium").choose(g.view(0)).kind == "go_out"


def test_with_no_undercut_a_bot_knocks_whenever_it_may() -> None:
    g = gin("scoring: {score_best_arrangement: true, out_player_collects: true, "
            "undercut_bonus: null}\n")
    after_turns(g, KNOCKER, 5)
    assert knock_allowance(g.view(0)) == 10
    assert fast_bot("medium").choose(g.view(0)).kind == "go_out"
