"""A deep draw in a round with no contract (Rummy 500): the card taken from deep in the
pile may go into a new meld with the hand, not only onto a meld on the table; it is offered
only when some meld holds it, and the turn then offers that meld.  `melds_with` is checked
against every subset of small pools."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_rig import cards, rig

from tui.engine.actions import Discard, IllegalAction, LayDown, TakeDiscard
from tui.engine.cards import Card, build_shoe
from tui.engine.deal.meld_with import melds_with
from tui.engine.game import Game
from tui.engine.meld_rules import MeldError, make_meld
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text

RECIPE = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "rummy_500.yaml"
HAND = "KS KH 9C 4D 2H 8S 6C 3C JD 5S 10H 7D AC"
OTHER = "2S 3S 4S 5C 6D 7H 8C 9D 10C JC QD 3H 4C"


def r500() -> Game:
    return Game(load_ruleset(RECIPE), ["P0", "P1"], 2)


def test_a_deep_card_that_melds_with_the_hand_may_be_taken_and_must_be_melded() -> None:
    g = r500()
    rig(g, [HAND, OTHER], discard="KD 2D 5H", turn=0)
    assert TakeDiscard(0, 2) in g.legal_actions(0)
    assert TakeDiscard(0, 1) not in g.legal_actions(0)  # 2D melds with nothing
    g.apply(TakeDiscard(0, 2))
    with pytest.raises(IllegalAction, match="must be melded"):
        g.apply(Discard(0, cards(g, 0, "9C")[0]))
    [lay] = [a for a in g.legal_actions(0) if isinstance(a, LayDown)]
    assert {str(c) for c in lay.melds[0].cards} == {"KS", "KH", "KD"}
    g.apply(lay)
    assert Discard(0, cards(g, 0, "9C")[0]) in g.legal_actions(0)


def test_a_deep_card_that_melds_with_nothing_is_refused() -> None:
    g = r500()
    rig(g, [HAND, OTHER], discard="QC 2D 5H", turn=0)
    assert [a for a in g.legal_actions(0) if isinstance(a, TakeDiscard)] == [TakeDiscard(0, 0)]
    before = repr(g.view(0))
    with pytest.raises(IllegalAction):
        g.apply(TakeDiscard(0, 2))
    assert repr(g.view(0)) == before


WILD_RULES = load_ruleset_text(
    "extends: three_thirteen\nname: w\nplayers: {min: 2, max: 4}\nrounds: [{cards: 7, wild: [2]}]\n"
    "decks: [{players: 2, decks: 1, jokers: 2}]\nranks: {ace: both}\n"
    "melds: {wilds_may_outnumber_naturals: false}\nscoring: {values: {JK: 20}}\n",
    file="w.yaml")
# the low and high ends, 2s and jokers: small pools that often hold a meld (or nearly)
SHOE = [c for c in build_shoe(1, 2) if c.rank <= 4 or c.rank >= 12]


def _brute(card: Card, pool: list[Card]) -> bool:
    rest = [c for c in pool if c.uid != card.uid]
    for size in range(2, len(pool) + 1):
        for chosen in combinations(rest, size - 1):
            for kind in ("set", "run"):
                try:
                    make_meld([card, *chosen], WILD_RULES, 1, kind=kind)
                except MeldError:
                    continue
                return True
    return False


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, len(SHOE) - 1), min_size=3, max_size=8, unique=True),
       st.integers(0, 6))
def test_melds_with_finds_a_meld_exactly_when_there_is_one(picks: list[int], which: int) -> None:
    pool = [SHOE[i] for i in picks]
    card = pool[which % len(pool)]
    found = list(melds_with(card, pool, WILD_RULES, 1))
    assert all(any(c.uid == card.uid for c in m.cards) for m in found)
    assert all({c.uid for c in m.cards} <= {c.uid for c in pool} for m in found)
    assert bool(found) == _brute(card, pool)
