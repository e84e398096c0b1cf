"""Knocking from the table (Gin): the going-out key reads "Knock" when the going out on
offer keeps cards outside melds, and grouped melds may leave several cards ungrouped,
the one under the cursor (else the dearest) being the discard."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_rig import cards, rig

from tui.app import intents
from tui.app.table_presenter import SeatContext, key_hints
from tui.engine.actions import DrawStock, GoOut, IllegalAction
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset

RECIPE = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "gin.yaml"
KNOCKER = "3C 4C 5C 7H 7D 7S 9S 10S JS 4D"
GIN = "3C 4C 5C 7H 7D 7S 9S 10S JS 2C"
OTHER = "6C QS 8S 8D 8C 4H 5H 6H AD KD"


def drawn(hand: str) -> Game:
    g = Game(load_ruleset(RECIPE), ["P0", "P1"], 9)
    rig(g, [hand, OTHER], discard="2S", stock_top="KH", turn=0)
    g.apply(DrawStock(0))
    return g


def go_out_key(g: Game) -> str:
    [hint] = [h for h in key_hints(g.view(0), SeatContext(seat=0)) if h.key == "o"]
    return hint.label


def test_the_key_reads_knock_when_cards_would_be_kept() -> None:
    assert go_out_key(drawn(KNOCKER)) == "Knock"
    assert go_out_key(drawn(GIN)) == "Go out"


def test_grouped_melds_knock_discarding_the_card_under_the_cursor() -> None:
    g = drawn(KNOCKER)
    hand = g.round.hands[0]
    groups = [cards(g, 0, "3C 4C 5C"), cards(g, 0, "7H 7D 7S"), cards(g, 0, "9S 10S JS")]
    four, king = cards(g, 0, "4D KH")
    action = intents.go_out(g.view(0), groups, hand, four, None)
    assert isinstance(action, GoOut) and action.discard == four  # keeps KH: 10, allowed
    dearest = intents.go_out(g.view(0), groups, hand, None, None)
    assert dearest.discard == king
    g.apply(dearest)
    assert g.results[-1].went_out == 0 and g.results[-1].deadwood[0] == (four,)


def test_a_knock_over_the_limit_is_refused_by_the_engine() -> None:
    g = drawn(KNOCKER)
    hand = g.round.hands[0]
    groups = [cards(g, 0, "3C 4C 5C"), cards(g, 0, "9S 10S JS")]  # 7s left: 21 + 4
    action = intents.go_out(g.view(0), groups, hand, None, None)
    before = repr(g.view(0))
    with pytest.raises(IllegalAction, match="at most 10 points"):
        g.apply(action)
    assert repr(g.view(0)) == before
