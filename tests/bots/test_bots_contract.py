"""Bots in contract games: lay-downs, lay-offs, deals gone out all at once, buying, and not
handing the next player a card they can lay off."""

from __future__ import annotations

import pytest
from table_rig import card, cards, fast_bot, goto_deal, new_game, rig

from tui.bots import make_bot
from tui.engine.actions import Buy, Discard, DrawStock, LayDown, LayOff, MeldSpec, PassBuy
from tui.engine.game import Game

CR = "contract_rummy"
LEVELS = ["easy", "medium", "hard"]



def next_player_down() -> Game:
    """Deal 1 (two sets), four players.  Seat 1 lays down fives and sixes; seats 2 and 3
    draw and discard; seat 0 has drawn and must discard from 7H 7D 7C 9S 9H 4C 4D 6C 2D 3S
    2H.  The contract wants neither 6C nor the fours nor 2D 3S 2H; 6C is the highest of them,
    but seat 1, next to play, could lay it off on its sixes."""
    game = new_game(CR, 4)
    rig(game, ["7H 7D 7C 9S 9H 4C 4D 6C 2D 3S", "5H 5D 5C 6S 6H 6D KC QC JC 2S",
               "AC 8D 10H JD QH KS 3H 4H 8C 10C", "AD AH 3D 4S 8H 9D JH QS KH 10D"],
        discard="QD", stock_top="10S 9C 8S 2H", turn=1)
    game.apply(DrawStock(1))
    game.apply(LayDown(1, (MeldSpec(cards(game, 1, "5H 5D 5C")),
                           MeldSpec(cards(game, 1, "6S 6H 6D")))))
    game.apply(Discard(1, card(game, 1, "KC")))
    for seat in (2, 3):
        game.apply(DrawStock(seat))
        game.apply(Discard(seat, game.round.hands[seat][0]))
    game.apply(DrawStock(0))
    return game


def test_medium_throws_the_highest_card_the_contract_does_not_need() -> None:
    game = next_player_down()
    choice = make_bot("medium").choose(game.view(0))
    assert isinstance(choice, Discard) and str(choice.card) == "6C"


def test_hard_does_not_hand_the_next_player_a_card_to_lay_off() -> None:
    game = next_player_down()
    choice = make_bot("hard", 2).choose(game.view(0))
    assert isinstance(choice, Discard)
    assert str(choice.card) != "6C"
    assert choice.card.rank != 7  # the set of sevens stays
    line = make_bot("hard", 2).explain(game.view(0))
    assert line.startswith(f"discard {choice.card}: 1 card from the contract")


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_lays_down_then_lays_off(level: str) -> None:
    game = new_game(CR, 4)
    rig(game, ["5H 5D 5C 6S 6H 6D 5S KC QC 2S", "7H 7D 7C 9S 9H 4C 4D 6C 2D 3S",
               "AC 8D 10H JD QH KS 3H 4H 8C 10C", "AD AH 3D 4S 8H 9D JH QS KH 10D"],
        discard="QD", stock_top="10S", turn=0)
    game.apply(DrawStock(0))
    bot = fast_bot(level)
    down = bot.choose(game.view(0))
    assert isinstance(down, LayDown)
    game.apply(down)
    others = [make_bot("medium", seat) for seat in range(4)]
    while game.actor != 0 or game.phase != "draw":  # its discard, then the others' turns
        seat = game.actor
        game.apply((bot if seat == 0 else others[seat]).choose(game.view(seat)))
    # the next card drawn fits a meld on the table (sets here take one card a suit)
    [sevens] = [m for m in game.round.table if m.kind == "set" and m.rank == 7]
    assert "S" not in {c.suit for c in sevens.cards}
    stock = game.round.stock
    stock.append(stock.pop(next(i for i, c in enumerate(stock) if str(c) == "7S")))
    game.apply(DrawStock(0))
    off = bot.choose(game.view(0))
    assert isinstance(off, LayOff) and str(off.cards[0]) == "7S"


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_goes_out_all_at_once_in_deal_seven(level: str) -> None:
    game = new_game(CR, 3)
    goto_deal(game, 7)
    rig(game, ["2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H", "7C 8C 9C 10C JC QC 7D 8D 9D 10D JD QD",
               "7H 8H 9H 10H JH QH 7S 8S 9S 10S JS QS"], discard="KS", stock_top="5H",
        turn=0)
    game.apply(DrawStock(0))
    choice = fast_bot(level).choose(game.view(0))
    assert isinstance(choice, LayDown)
    game.apply(choice)
    assert game.phase == "game_over" and game.results[-1].went_out == 0


def liverpool_offer(top: str) -> Game:
    game = new_game("liverpool", 4)
    rig(game, ["2C 5D 8H JS QC 3D 6H 9S KC 4D", "7H 7D 9C 9D AS 2H 4S 6S 8C 10H",
               "AC 8D 10S JD QH KS 3H 4H 8S 10C", "AD AH 3S 4C 8H 9H JH QS KH 10D"],
        discard=top, stock_top="2S 3C", turn=0)
    game.apply(DrawStock(0))  # seat 0 passes the discard over: seat 1 may buy it
    return game


def test_medium_buys_a_card_its_contract_needs() -> None:
    game = liverpool_offer("7C")
    assert game.view(1).phase == "buy"
    assert make_bot("medium").choose(game.view(1)) == Buy(1)


def test_medium_lets_a_useless_card_go() -> None:
    game = liverpool_offer("KD")
    assert make_bot("medium").choose(game.view(1)) == PassBuy(1)
