"""Liverpool's house rules: buying ("May I?") and the runs of four (docs/rules.md §3)."""

from __future__ import annotations

import pytest
from table_rig import card, new_game, rig

from tui.engine.actions import Buy, Discard, DrawStock, IllegalAction, PassBuy, TakeDiscard
from tui.engine.game import Game

LP = "liverpool"


def liverpool() -> Game:
    game = new_game(LP, 4)
    rig(game, ["7C 7D 7H 9C 9D 9S 2C 4D 6H KS", "2D 3D 5S 8C 10H JC QD AC 4S 6S",
               "3C 5C 8D 10D JH QH AH 4H 6D 8S", "2S 3S 5D 8H 10S JS QC AD 4C 6C"],
        discard="KD", stock_top="QS 2H 3H 5H 7S", turn=0)
    return game


def test_passing_over_the_discard_offers_it_to_the_nearest_player_first() -> None:
    game = liverpool()
    game.apply(DrawStock(0))
    view = game.view(1)
    assert view.phase == "buy" and view.turn == 1
    assert view.buy_offer is not None and view.buy_offer.face == (13, "D")
    assert {a.kind for a in view.legal} == {"buy", "pass_buy"}
    # The player in turn cannot play until the offer is settled.
    with pytest.raises(IllegalAction):
        game.apply(Discard(0, card(game, 0, "KS")))
    game.apply(PassBuy(1))
    assert game.actor == 2
    game.apply(Buy(2))
    hand = {c.face for c in game.round.hands[2]}
    assert (13, "D") in hand and (2, "H") in hand  # the discard and one penalty card
    assert len(game.round.hands[2]) == 12
    assert game.round.discard == []
    # Back to the player in turn.
    assert game.actor == 0 and game.phase == "play"
    game.check_conservation()


def test_nobody_buys_when_everyone_passes() -> None:
    game = liverpool()
    game.apply(DrawStock(0))
    for seat in (1, 2, 3):
        game.apply(PassBuy(seat))
    assert game.actor == 0
    assert game.round.discard[-1].face == (13, "D")


def test_taking_the_discard_in_turn_opens_no_buying() -> None:
    game = liverpool()
    game.apply(TakeDiscard(0))
    assert game.phase == "play" and game.actor == 0


def test_at_most_three_buys_per_deal() -> None:
    game = liverpool()
    game.round.buys[1] = 3
    game.apply(DrawStock(0))
    assert game.actor == 2  # seat 1 used its three buys and is not asked


def test_the_discard_is_never_offered_back_to_whoever_discarded_it() -> None:
    game = liverpool()
    game.apply(DrawStock(0))
    for seat in (1, 2, 3):
        game.apply(PassBuy(seat))
    game.apply(Discard(0, card(game, 0, "KS")))
    game.apply(DrawStock(1))  # seat 1 passes over seat 0's king
    asked = []
    while game.phase == "buy":
        asked.append(game.actor)
        game.apply(PassBuy(game.actor))
    assert asked == [2, 3]
    assert game.actor == 1 and game.phase == "play"


def test_runs_need_four_cards() -> None:
    rules = new_game(LP, 3).rules
    assert rules.melds.run.min == 4
    assert rules.contract.runs_same_suit == "separate"


def test_jokers_are_players_minus_one() -> None:
    for players in range(3, 9):
        game = new_game(LP, players)
        assert sum(c.is_joker for c in game.shoe) == players - 1
        assert len(game.shoe) - (players - 1) == 104
