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
