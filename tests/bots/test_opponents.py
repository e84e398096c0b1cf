"""The opponent model reads an opponent's last turn: a hand is likely in proportion to how
well it explains the discard the opponent made and the top discard it passed over."""

from __future__ import annotations

import random

import pytest
from table_rig import card, goto_deal, new_game, rig

from tui.bots import opponents
from tui.bots.memory import read_knowledge
from tui.bots.opponents import OpponentModel
from tui.bots.tactics import evaluator_for
from tui.engine.actions import Discard, DrawStock, TakeDiscard
from tui.engine.cards import Card, parse_card
from tui.engine.game import Game

# deal 6 of Three Thirteen: 8 cards, eights wild.  The opponent (seat 1) holds KS among
# cards that go with nothing, passes the top discard QC, draws JH and throws KS away:
# what it kept is "2C 3C 4C 5D 6D 7D 9H JH".
KEPT = "2C 3C 4C 5D 6D 7D 9H JH"


def opponent_turn() -> Game:
    game = new_game("three_thirteen", 2, seed=3)
    goto_deal(game, 6)
    rig(game, ["AS 2S 4H 6H 10C JC QS KC", "KS 2C 3C 4C 5D 6D 7D 9H"], discard="QC",
        stock_top="JH", turn=1)
    game.apply(DrawStock(seat=1))
    game.apply(Discard(seat=1, card=card(game, 1, "KS")))
    assert sorted(c.face for c in game.round.hands[1]) == \
        sorted(parse_card(t).face for t in KEPT.split())
    return game


def model_of(game: Game) -> OpponentModel:
    view = game.view(0)
    ev = evaluator_for(view)
    return OpponentModel(view, read_knowledge(view), ev.params.wild_ranks,
                         ev.params.run_min - 1, ev)


def order_holding(model: OpponentModel, hand: str) -> list[Card]:
    """An order of the unseen cards that deals `hand` to the opponent."""
    pool = list(model.pool)
    head = []
    for token in hand.split():
        face = parse_card(token).face
        head.append(pool.pop(next(i for i, c in enumerate(pool) if c.face == face)))
    return head + pool


def test_the_log_says_which_top_discard_a_seat_last_passed_over() -> None:
    game = opponent_turn()
    know = read_knowledge(game.view(0))
    assert know.last_passed[1].face == parse_card("QC").face
    assert [c.face for c in know.discarded[1]] == [parse_card("KS").face]
    game.apply(TakeDiscard(seat=0))  # seat 0 takes KS: a take, not a pass
    game.apply(Discard(seat=0, card=card(game, 0, "AS")))
    assert 0 not in read_knowledge(game.view(1)).last_passed


def test_a_hand_that_explains_the_last_turn_is_the_likeliest() -> None:
    model = model_of(opponent_turn())
    fit = model.last_turn_fit
    kept = fit(order_holding(model, KEPT))  # the truth: KS went with nothing
    assert kept > 0.5
    # holding two kings, throwing the third away cost a set
    assert fit(order_holding(model, "2C 3C 4C 5D 6D 9H KH KD")) < kept / 100
    # with QH QD in hand the passed QC made a set: it would have been taken
    assert fit(order_holding(model, "2C 3C 4C 5D 6D 7D QH QD")) < kept / 100


def test_a_hand_that_could_have_gone_out_and_did_not_is_nearly_ruled_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opponents, "TAU_DISCARD", 1e9)  # only the going-out check counts
    model = model_of(opponent_turn())
    out = order_holding(model, "2C 3C 4C 5C 6C KH KD 9H")  # with KS: out, throwing 9H
    assert model.last_turn_fit(out) <= opponents.COULD_GO_OUT * \
        model.last_turn_fit(order_holding(model, KEPT)) * 1.01


def test_imagined_deals_lean_to_hands_that_explain_the_last_turn() -> None:
    model = model_of(opponent_turn())
    rng = random.Random(5)
    seats = model.seats

    def fit_of(world_hand: list[Card]) -> float:
        return model.last_turn_fit(order_holding(model, " ".join(map(str, world_hand))))

    imagined = [fit_of(model.imagine(rng).hands[1]) for _ in range(150)]
    blind = []
    for _ in range(150):
        order = list(model.pool)
        rng.shuffle(order)
        blind.append(model.last_turn_fit(order))
    assert seats == [1]
    assert sum(imagined) / len(imagined) > 2 * sum(blind) / len(blind)


def test_developed_hands_keep_the_known_cards_and_look_played_not_dealt() -> None:
    """After six draws the opponent has kept what melds: hands played forward alone for
    the draws it had are closer to melded than hands dealt blind, and a card it took
    from the pile stays in every one of them."""
    game = new_game("three_thirteen", 2, seed=3)
    goto_deal(game, 6)
    for _ in range(12):  # six turns each, bots' way: stock draws, heaviest card out
        seat = game.actor
        game.apply(DrawStock(seat=seat))
        ev = evaluator_for(game.view(seat))
        _, card_out = ev.discards(list(game.round.hands[seat]))[0]
        game.apply(Discard(seat=seat, card=card_out))
    game.apply(DrawStock(seat=0))
    game.apply(Discard(seat=0, card=game.round.hands[0][0]))
    taken = game.round.discard[-1]
    game.apply(TakeDiscard(seat=1))
    game.apply(Discard(seat=1, card=next(c for c in game.round.hands[1] if c is not taken)))
    model = model_of(game)
    ev = model.ev
    assert ev is not None and model.draws[1] == 7
    rng = random.Random(2)
    developed = [model._split(model.developed_order(rng))[0][1] for _ in range(60)]
    blind = []
    for _ in range(60):
        order = list(model.pool)
        rng.shuffle(order)
        blind.append(model._split(order)[0][1])
    known = model.known[1]
    assert [c.face for c in known] == [taken.face]
    assert all(len(h) == model.hidden[1] for h in developed)

    def mean_penalty(hands: list[list[Card]]) -> float:
        return sum(ev.penalty(known + h) for h in hands) / len(hands)

    assert mean_penalty(developed) < 0.6 * mean_penalty(blind)
    pool = {id(c) for c in model.pool}
    assert all(id(c) in pool for h in developed for c in h)  # only unseen cards, no copies
    assert all(len({id(c) for c in h}) == len(h) for h in developed)


def test_developed_deals_are_the_same_for_the_same_seed() -> None:
    model = model_of(opponent_turn())
    first = [c.face for c in model.developed_order(random.Random(9))]
    again = [c.face for c in model_of(opponent_turn()).developed_order(random.Random(9))]
    assert first == again and sorted(first) == sorted(c.face for c in model.pool)


def test_the_population_stops_growing_when_the_budget_says_so() -> None:
    """Developing and weighing the population costs real time (long hands, three
    opponents: up to 2 s a decision was measured); it asks its budget before every hand,
    and always keeps at least one."""
    asked: list[float] = []

    def fits(cost: float) -> bool:
        asked.append(cost)
        return len(asked) < 10  # nine more hands after the first

    game = opponent_turn()
    view = game.view(0)
    ev = evaluator_for(view)
    know = read_knowledge(view)
    capped = OpponentModel(view, know, ev.params.wild_ranks, ev.params.run_min - 1, ev, fits)
    capped.imagine(random.Random(1))
    assert capped._population is not None and len(capped._population) == 10
    assert len(asked) == 10  # asked before every hand but the first, and then no more
    never = OpponentModel(view, know, ev.params.wild_ranks, ev.params.run_min - 1, ev,
                          lambda cost: False)
    assert never.imagine(random.Random(1)).hands[1]
    assert never._population is not None and len(never._population) == 1
    full = model_of(game)
    full.imagine(random.Random(1))
    assert full._population is not None and len(full._population) == opponents.POPULATION
