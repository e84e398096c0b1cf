"""`expert` in contract games: a deal nobody can go out of is played for points (low cards
kept, high ones thrown, no buying), going out is still taken when offered, no search is
run, and what it counts as unseen is exactly what the seat cannot see."""

from __future__ import annotations

from collections import Counter

from table_rig import card, fast_bot, goto_deal, new_game, rig

from tui.bots import make_bot
from tui.bots.contract_expert import all_at_once_plan
from tui.bots.expert import ExpertBot
from tui.bots.memory import read_knowledge
from tui.bots.tactics import evaluator_for
from tui.engine.actions import Buy, Discard, DrawStock, LayDown, PassBuy, TakeDiscard
from tui.engine.game import Game
from tui.engine.view import SeatView

CR = "contract_rummy"
# Deal 7 (three runs, gone out all at once), seat 0 to draw.  Its hand is one card from
# the contract (AH-KH-QH, 10S-9S-8S, 7C-6C) with 2D 9D 5H 3C that the runs do not use.
RUNS_HAND = "AH KH QH 10S 9S 8S 7C 6C 2D 9D 5H 3C"
OTHERS = ["2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H", "7H 8H 9H 10H JH QH 7S 8S 9S 10S JS QS",
          "AD 3S 4S 8H 9H JC QS KC 10D 5S 6S 7S"]


def expert(seed: int = 0) -> ExpertBot:
    bot = fast_bot("expert", seed)
    assert isinstance(bot, ExpertBot)
    return bot


def deal_seven(top: str, turn: int = 0) -> Game:
    game = new_game(CR, 4)
    goto_deal(game, 7)
    rig(game, [RUNS_HAND, *OTHERS], discard=f"KS {top}", stock_top="6D 2S", turn=turn)
    return game


def race(view: SeatView) -> bool:
    return all_at_once_plan(view, evaluator_for(view)) == "race"


def test_deal_seven_is_a_race_for_points_and_deal_one_is_not() -> None:
    game = deal_seven("2S")
    assert race(game.view(0))
    early = new_game(CR, 4)
    assert not race(early.view(early.actor))


def test_a_hand_about_to_go_out_all_at_once_plays_for_it_not_for_points() -> None:
    game = deal_seven("2S")  # seat 1 holds three runs: 2C-6C, 2D-5D, 2H-4H
    assert not race(game.view(1))
    game.apply(DrawStock(0))
    game.apply(Discard(0, card(game, 0, "AH")))
    game.apply(DrawStock(1))  # 2S, which no run of seat 1 takes
    view = game.view(1)
    assert not race(view)
    assert expert(1).choose(view) == Discard(1, card(game, 1, "2S"))  # not 6C, the highest


def test_in_a_race_for_points_expert_throws_its_highest_card_not_what_the_runs_spare() -> None:
    game = deal_seven("2S")
    game.apply(DrawStock(0))
    hard = make_bot("hard", 1).choose(game.view(0))
    choice = expert(1).choose(game.view(0))
    assert isinstance(hard, Discard) and isinstance(choice, Discard)
    assert str(choice.card) == "AH"  # 15 points, though it is in a run
    assert str(hard.card) != "AH"  # hard keeps the run together


def test_in_a_race_for_points_expert_takes_a_low_discard() -> None:
    game = deal_seven("2S")
    assert expert(1).choose(game.view(0)) == TakeDiscard(0, 0)


def test_in_a_race_for_points_a_card_the_runs_want_is_not_worth_taking_if_it_is_high() -> None:
    game = deal_seven("JH")  # JH extends AH-KH-QH, but scores 10
    assert make_bot("hard", 1).choose(game.view(0)) == TakeDiscard(0, 0)
    assert expert(1).choose(game.view(0)) == DrawStock(0)


def test_in_a_race_for_points_expert_does_not_buy() -> None:
    game = new_game("liverpool", 4)
    goto_deal(game, 7)
    rig(game, [RUNS_HAND, "2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H KD", OTHERS[1], OTHERS[2]],
        discard="KS 4H", stock_top="6D", turn=0)
    game.apply(DrawStock(0))  # seat 1 may buy 4H, which its hearts run wants
    view = game.view(1)
    assert view.phase == "buy"
    assert make_bot("hard", 1).choose(view) == Buy(1)
    assert expert(1).choose(view) == PassBuy(1)


def test_in_a_race_for_points_expert_still_goes_out_when_it_can() -> None:
    game = new_game(CR, 3)
    goto_deal(game, 7)
    rig(game, ["2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H", "7C 8C 9C 10C JC QC 7D 8D 9D 10D JD QD",
               "7H 8H 9H 10H JH QH 7S 8S 9S 10S JS QS"], discard="KS", stock_top="5H", turn=0)
    game.apply(DrawStock(0))
    choice = expert().choose(game.view(0))
    assert isinstance(choice, LayDown)
    game.apply(choice)
    assert game.results[-1].went_out == 0


def test_contract_games_are_judged_without_imagining_deals_and_count_unseen_cards_right(
        ) -> None:
    game = new_game(CR, 3, seed=4)
    goto_deal(game, 7)
    bots = [expert(0), fast_bot("hard", 1), expert(2)]
    decisions = 0
    taken = 0
    while game.phase not in ("round_over", "game_over"):
        seat = game.actor
        view = game.view(seat)
        bot = bots[seat]
        action = bot.choose(view)
        if isinstance(bot, ExpertBot):
            assert bot.last.deals == 0  # no search in a contract game
        know = read_knowledge(view)
        hidden = Counter(c.face for c in game.round.stock)
        for other, hand in enumerate(game.round.hands):
            if other != seat:
                hidden.update(c.face for c in hand)
        held: Counter = Counter()
        for faces in know.held.values():
            held += faces
        assert know.unseen + held == hidden
        taken += isinstance(action, TakeDiscard)
        game.apply(action)
        decisions += 1
    assert decisions > 50 and taken > 0  # a long deal, with cards known to be held


def test_a_hand_about_to_go_out_all_at_once_takes_only_a_discard_that_completes_it() -> None:
    game = deal_seven("2S")
    game.apply(DrawStock(0))
    game.apply(Discard(0, card(game, 0, "2D")))  # low, but no run of seat 1 takes it
    assert expert(1).choose(game.view(1)) == DrawStock(1)
    game = deal_seven("6D", turn=1)  # 6D extends 2D-5D: the whole hand then goes down
    assert expert(1).choose(game.view(1)) == TakeDiscard(1, 0)


# Deal 1 (two sets), seat 0 to draw, holding two pairs: 7H 7D and 9S 9H.
PAIRS_HAND = "7H 7D 9S 9H 4C 2D 3S 5H 6C 8D"
DEAL_ONE_OTHERS = ["5C 5D 6S 6H 8C 10C JC QC 2S 3H", "AC 8H 10H JD QS KC 3C 4H 8S 10D",
                   "AD AH 3D 4S 9D JS QH KH 10S 2C"]


def deal_one(pile: str) -> Game:
    game = new_game(CR, 4)
    rig(game, [PAIRS_HAND, *DEAL_ONE_OTHERS], discard=pile, stock_top="6D", turn=0)
    return game


def test_a_deep_draw_that_would_leave_a_hand_full_of_cards_is_not_taken() -> None:
    # 7C and 9C make the contract, but five high cards lie above them and no meld on the
    # table could ever take those: they would stay in hand to the end of the deal
    game = deal_one("7C 9C KS QD JH KD QC")
    view = game.view(0)
    assert make_bot("hard", 1).choose(view) == TakeDiscard(0, 6)
    assert expert(1).choose(view).kind == "draw_stock"


def test_a_deep_draw_that_lays_the_contract_down_cheaply_is_taken() -> None:
    game = deal_one("KS 7C 9C")
    view = game.view(0)
    assert expert(1).choose(view) == TakeDiscard(0, 1)


def test_a_deep_draw_of_many_low_cards_is_taken_when_the_contract_is_far_off() -> None:
    # three cards short of two sets: waiting risks being caught with all 61 points, and
    # the deep draw leaves eight low cards (33 points) once the sevens and nines are down
    game = new_game(CR, 4)
    rig(game, ["7H 7D 9S 4C 2D 3S 5H 6C 8D KH", *DEAL_ONE_OTHERS],
        discard="7C 9C 9D 2H 3C", stock_top="6D", turn=0)
    assert expert(1).choose(game.view(0)) == TakeDiscard(0, 4)
