"""`hard` prices taking the top discard by the discard it leads to (issue 32).

Found by watching hard-vs-hard Three Thirteen (about once in three games): its draw rule
valued a take by the best penalty it left, without the "feeding the next player" charge
its discard rule adds, so it took a card only to throw that very card back.
"""

from __future__ import annotations

import pytest
from table_rig import card, goto_deal, new_game, rig

from tui.bots import make_bot
from tui.engine.actions import Discard, DrawStock, TakeDiscard
from tui.engine.game import Game


def the_position() -> Game:
    """2 players, deal 3 (5 cards, fives wild).  P1 took 4C from the pile, so AC and 2C
    would feed them; P0 drew 5H, threw 7C, and P1 has just thrown 9C."""
    game = new_game("three_thirteen", 2)
    goto_deal(game, 3)
    rig(game, ["AC 2C 6C 7C 8C", "9D 9H KS QS JD"], discard="4C", stock_top="5H 9C", turn=1)
    game.apply(TakeDiscard(1, 0))
    game.apply(Discard(1, card(game, 1, "KS")))
    game.apply(DrawStock(0))
    game.apply(Discard(0, card(game, 0, "7C")))
    game.apply(DrawStock(1))
    game.apply(Discard(1, card(game, 1, "9C")))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_hard_does_not_take_a_discard_it_would_throw_straight_back(seed: int) -> None:
    """Holding AC 2C 6C 8C 5H with 9C on the pile, hard took 9C (worth 0.9 "if I then
    throw 2C") and threw 9C back, 2C being the card the next player wants."""
    game = the_position()
    hard = make_bot("hard", seed)
    draw = hard.choose(game.view(0))
    if isinstance(draw, TakeDiscard):
        game.apply(draw)
        thrown = hard.choose(game.view(0))
        assert not (isinstance(thrown, Discard) and str(thrown.card) == "9C"), \
            "took 9C from the pile and threw it straight back"


def test_hard_says_why_it_leaves_a_card_it_would_throw_back() -> None:
    game = the_position()
    line = make_bot("hard", 0).explain(game.view(0))
    assert line == "draw from the stock: 9C would be thrown straight back"
