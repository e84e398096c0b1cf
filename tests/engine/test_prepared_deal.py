"""Prepared deals: the named cards where they are named, taken from the game's own shoe,
and a deal that cannot be dealt refused with the game unchanged."""

from __future__ import annotations

import pytest

from tui.engine.actions import DrawStock
from tui.engine.game import Game
from tui.engine.prepared import PreparedDeal, PreparedDealError, deal_prepared
from tui.engine.ruleset.loader import load_ruleset


def faces(cards) -> list[str]:  # noqa: ANN001
    return [str(c) for c in cards]


def test_the_named_cards_are_where_the_deal_says() -> None:
    game = Game(load_ruleset("three_thirteen"), ["Ann", "Bo"], 3)
    deal_prepared(game, PreparedDeal(("7H 7D 9S", "KC QC 2D"), discard="4S 5S",
                                     stock_top="7C 8H", turn=0))
    assert faces(game.round.hands[0]) == ["7H", "7D", "9S"]
    assert faces(game.round.hands[1]) == ["KC", "QC", "2D"]
    assert faces(game.round.discard) == ["4S", "5S"]
    assert game.actor == 0
    game.check_conservation()
    dealt = [e.text for e in game.log if e.kind == "deal"]
    assert len(dealt) == 1 and dealt[0].endswith("5S turned up."), dealt  # the old one left
    game.apply(DrawStock(0))
    game.apply(next(a for a in game.legal_actions(0) if a.kind == "discard"))
    game.apply(DrawStock(1))
    assert "7C" in faces(game.round.hands[0]) and "8H" in faces(game.round.hands[1])


def test_two_decks_give_two_of_a_face_and_no_third() -> None:
    game = Game(load_ruleset("contract_rummy"), ["A", "B", "C", "D"], 1)  # two decks
    size = game.round_rules.cards
    filler = ["2C 3C 4C 5C 6C 7C 8C 9C 10C JC", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
              "2H 3H 4H 5H 6H 7H 8H 9H 10H JH"]
    deal_prepared(game, PreparedDeal(("KS KS JK QH QH 2S 3S 4S 5S 6S", *filler)))
    assert faces(game.round.hands[0])[:2] == ["KS", "KS"] and len(game.round.hands[0]) == size
    before = faces(game.round.hands[0])
    with pytest.raises(PreparedDealError, match="no KS left"):
        deal_prepared(game, PreparedDeal(("KS KS KS QH QH 2S 3S 4S 5S 6S", *filler)))
    assert faces(game.round.hands[0]) == before


@pytest.mark.parametrize(("deal", "message"), [
    (PreparedDeal(("7H 7D 9S",)), "1 hands for 2 players"),
    (PreparedDeal(("7H 7D 9S", "XX")), "not a card"),
    (PreparedDeal(("7H 7D 9S", "7H 7D 9S")), "no 7H left"),
    (PreparedDeal(("7H 7D 9S", "KC QC 2D"), turn=5), "no seat 5"),
])
def test_a_deal_that_cannot_be_dealt_is_refused_and_changes_nothing(
        deal: PreparedDeal, message: str) -> None:
    game = Game(load_ruleset("three_thirteen"), ["Ann", "Bo"], 3)
    hands = [faces(h) for h in game.round.hands]
    with pytest.raises(PreparedDealError, match=message):
        deal_prepared(game, deal)
    assert [faces(h) for h in game.round.hands] == hands


def test_a_prepared_deal_may_start_a_later_deal_of_the_schedule() -> None:
    game = Game(load_ruleset("contract_rummy"), ["A", "B", "C"], 1)
    rest = ["2D 3D 4D 5D 6D 7D 8D 9D 10D JD", "2H 3H 4H 5H 6H 7H 9H 10H JH QH"]
    deal_prepared(game, PreparedDeal(("8S 8H 8C 4C 5C 6C KH 10C 9C 2S", *rest), deal=2))
    assert game.round.number == 2
    assert game.round_rules.contract is not None and game.round_rules.contract.runs == 1
    with pytest.raises(PreparedDealError, match="deal 1 is not one"):
        deal_prepared(game, PreparedDeal(("8S 8H 8C 4C 5C 6C KH 10C 9C 2S", *rest), deal=1))
    with pytest.raises(PreparedDealError, match="deal 8 is not one"):
        deal_prepared(game, PreparedDeal(("8S 8H 8C 4C 5C 6C KH 10C 9C 2S", *rest), deal=8))
    assert game.round.number == 2
