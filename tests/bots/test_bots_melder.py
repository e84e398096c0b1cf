"""Bots under melder scoring (Rummy 500): a draw is worth the points it can be melded for,
so a bot digs into the pile for a card that melds, and leaves a pile that adds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_rig import fast_bot, rig

from tui.bots.evaluate import Evaluator
from tui.bots.melder import hand_worth
from tui.engine.actions import TakeDiscard
from tui.engine.cards import parse_card
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset

RECIPE = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "rummy_500.yaml"
HAND = "KS KH 9C 4D 2H 8S 6C 3C JD 5S 10H 7D AC"
OTHER = "2S 3S 4S 5C 6D 7H 8C 9D 10C JC QD 3H 4C"


def r500() -> Game:
    return Game(load_ruleset(RECIPE), ["P0", "P1"], 2)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_bot_takes_deep_in_the_pile_for_a_card_that_melds(level: str) -> None:
    g = r500()
    rig(g, [HAND, OTHER], discard="KD 2D 5H", turn=0)  # KD, 2 below the top: K-K-K
    action = fast_bot(level).choose(g.view(0))
    assert action == TakeDiscard(0, 2)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_bot_leaves_a_pile_that_adds_nothing(level: str) -> None:
    g = r500()
    rig(g, [HAND, OTHER], discard="QC 2D 5H", turn=0)
    assert fast_bot(level).choose(g.view(0)).kind == "draw_stock"


def test_a_hands_worth_is_its_melds_less_the_rest() -> None:
    ev = Evaluator(load_ruleset(RECIPE), 1)
    hand = [parse_card(t, uid=i) for i, t in enumerate("KS KH KD 9C 2H".split())]
    assert hand_worth(ev, hand) == 30 - 11


def test_in_basic_rummy_a_cheap_card_that_goes_with_the_hand_is_taken() -> None:
    """Where only the hand scores, a start on a meld is worth a cheap discard; under
    melder scoring only points the card melds for count."""
    basic = load_ruleset(RECIPE.parent / "going_rummy.yaml")
    hand = "KS QH 9C 4D 2H 8S 6C JD 10H 7D"
    for rules, wanted in ((basic, "take_discard"), (load_ruleset(RECIPE), "draw_stock")):
        g = Game(rules, ["P0", "P1"], 2)
        rig(g, [hand + (" AC 5S 3C" if rules is not basic else ""),
                OTHER if rules is not basic else "2S 3S 4S 5C 6D 7H 8C 9D 10C JC"],
            discard="QC 3D", turn=0)  # 3D goes with 4D, and melds nothing yet
        assert fast_bot("medium").choose(g.view(0)).kind == wanted, rules.name
