"""What the bots measure: exact discards, outs, contract counting and card memory."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from table_rig import new_game, rig

from tui.bots.contract_count import count_contract
from tui.bots.evaluate import Evaluator, without_card
from tui.bots.lookahead import Lookahead
from tui.bots.memory import read_knowledge, sample_hand, shoe_for
from tui.bots.outs import Outs
from tui.engine.actions import Discard, DrawStock, TakeDiscard
from tui.engine.cards import Card, build_shoe, parse_cards
from tui.engine.meld_params import meld_params
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.solver.api import best_arrangement, find_contract

TT = load_ruleset("three_thirteen")
TTJ = load_ruleset("three_thirteen_jokers")
CR = load_ruleset("contract_rummy")


def _hand(seed: int, rules, size: int) -> list[Card]:
    spec = rules.deck_for(4)
    return random.Random(seed).sample(build_shoe(spec.decks, spec.jokers), size)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), round_no=st.integers(1, 11),
       rules=st.sampled_from([TT, TTJ]))
def test_discards_finds_the_exact_least_penalty(seed: int, round_no: int, rules) -> None:
    ev = Evaluator(rules, round_no)
    hand = _hand(seed, rules, rules.round(round_no).cards + 1)
    brute = min(best_arrangement(without_card(hand, c), rules, round_no).penalty for c in hand)
    ranked = ev.discards(hand)
    assert ranked[0][0] == brute
    # the quick reading is a bound from above, at most one card's value off
    assert ranked[0][0] <= ev.after_best_discard(hand) <= ranked[0][0] + max(
        ev.value(c) for c in hand)
    for after, card in ranked:
        assert after == best_arrangement(without_card(hand, card), rules, round_no).penalty


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), round_no=st.integers(1, 11))
@example(seed=35, round_no=3)  # a bug that happened: 4♠ 4♦ and 6♦ 6♠ 5♠ (5s wild), a second
# 4♠ drawn melds every card, but six cards of two three-card melds have none to spare
def test_outs_never_promise_more_than_the_solver_finds(seed: int, round_no: int) -> None:
    ev = Evaluator(TT, round_no)
    hand = _hand(seed, TT, TT.round(round_no).cards)
    outs = Outs(ev, hand)
    now = ev.penalty(hand)
    for card in _hand(seed + 1, TT, 12):
        exact = now - min(now, ev.discards(hand + [card])[0][0])
        assert 0 <= outs.gain(card) <= exact


def test_outs_are_close_to_the_solver_on_average() -> None:
    gaps = []
    for seed in range(25):
        round_no = 1 + seed % 11
        ev = Evaluator(TT, round_no)
        hand = _hand(seed, TT, TT.round(round_no).cards)
        outs = Outs(ev, hand)
        now = ev.penalty(hand)
        for card in _hand(seed + 100, TT, 10):
            exact = now - min(now, ev.discards(hand + [card])[0][0])
            gain = ev.after_best_discard(hand + [card]) if outs.uncertain(card) else None
            quick = now - min(now, gain) if gain is not None else outs.gain(card)
            gaps.append(exact - quick)
    assert sum(gaps) / len(gaps) < 0.5


def test_exact_lookahead_is_the_average_over_unseen_cards() -> None:
    ev = Evaluator(TT, 2)  # fours wild
    hand = parse_cards("7H 8H KS QD")
    unseen = Counter({(9, "H"): 2, (2, "C"): 1, (13, "D"): 1, (5, "S"): 4})
    look = Lookahead(ev, unseen)
    now = ev.penalty(hand)
    expected = 0.0
    for (rank, suit), n in unseen.items():
        drawn = hand + [Card(rank, suit)]
        expected += n * min(now, ev.after_best_discard(drawn))
    assert look.expect(hand, exact=True) == pytest.approx(expected / 8)
    assert look.expect(hand) == pytest.approx(expected / 8)  # no wilds, no rearranging


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), round_no=st.integers(1, 7))
def test_contract_count_is_zero_when_a_contract_can_be_laid(seed: int, round_no: int) -> None:
    ev = Evaluator(CR, round_no)
    hand = _hand(seed, CR, CR.round(round_no).cards + 4)
    need = ev.contract_need(hand)
    if find_contract(hand, CR, round_no) is not None:
        assert need.missing == 0
    assert len(need.used) <= len(hand)


def test_a_contract_whose_set_is_of_a_low_rank_counts_as_laid() -> None:
    """Found by the property above: the counting looked only at the likeliest sets (the
    most copies, then the highest ranks), whose cards the two runs needed, and said one
    card short of a lay-down the hand had: AH AS JK beside 10C-QC and 7H-9H."""
    hand = parse_cards("AH AS QC 10C 7H 9D JD AS 4H 7S KS 6C JK 8H JC 9H")
    assert find_contract(hand, CR, 6) is not None  # 1 set + 2 runs
    need = Evaluator(CR, 6).contract_need(hand)
    assert need.missing == 0
    assert set(need.used) >= {(10, "C"), (11, "C"), (12, "C"), (7, "H"), (8, "H"), (9, "H")}


def test_contract_count_and_wanted_cards() -> None:
    ev = Evaluator(CR, 2)  # 1 set + 1 run
    need = ev.contract_need(parse_cards("7H 7D 2C 3C 9S KH QD 10S 4H 5D"))
    assert need.missing == 2
    assert {(7, "C"), (7, "S"), (1, "C"), (4, "C")} <= need.wanted
    assert ev.contract_need(parse_cards("7H 7D 7C 2C 3C 4C 9S")).missing == 0
    assert ev.contract_need(parse_cards("7H 7D JK 2C 3C 9S")).missing == 1
    assert {c.face for c in ev.useless(parse_cards("7H 7D 7C 2C 3C 4C 9S KD"))} == \
        {(9, "S"), (13, "D")}


def test_contract_count_with_sets_of_one_colour() -> None:
    """Under `melds.set.one_colour` a set's group is keyed by rank and colour: the counting
    ordered those keys by negating them, a TypeError on every hand."""
    params = replace(meld_params(CR, 2, "contract"), set_colour=True, distinct_suits=False)
    hand = parse_cards("7H 7D 7H 7S 2C 3C 4C 9S")
    need = count_contract(tuple(c.face for c in hand), CR, CR.round(2).contract, params)
    assert need.missing == 0


def test_memory_follows_the_pile_and_cards_taken() -> None:
    game = new_game("three_thirteen", 3)
    rig(game, ["7H 7D KS", "2C 8D 9S", "QH QD 4C"], discard="5S", stock_top="AS 6C",
        turn=0)
    game.apply(DrawStock(0))
    game.apply(Discard(0, next(c for c in game.round.hands[0] if str(c) == "KS")))
    game.apply(TakeDiscard(1, 0))  # seat 1 takes KS
    game.apply(Discard(1, next(c for c in game.round.hands[1] if str(c) == "2C")))
    game.apply(DrawStock(2))
    view = game.view(2)
    know = read_knowledge(view)
    assert [str(c) for c in know.pile] == ["5S", "2C"]
    assert know.held[1] == Counter({(13, "S"): 1})
    assert know.hidden[1] == 2 and know.hidden[0] == 3
    assert [str(c) for c in know.passed[0]] == ["5S"]
    shoe = Counter(c.face for c in shoe_for(view))
    seen = Counter(c.face for c in view.hand) + Counter(c.face for c in know.pile) + \
        Counter({(13, "S"): 1})
    assert know.unseen == shoe - seen
    assert know.unseen_total == len(game.round.stock) + 3 + 2
    guess = sample_hand(know, 1, random.Random(1))
    assert len(guess) == 3 and Card(13, "S") in guess
    assert any(c.rank == 13 or (c.suit == "S" and abs(c.rank - 13) <= 2)
               for c in guess if c != Card(13, "S"))


def test_only_the_evaluators_of_the_latest_deals_are_kept() -> None:
    """A bug that was: every past deal's evaluator (thousands of solved hands each) was
    kept, so the heap grew over a game until one full garbage collection inside a bot's
    decision cost half a second of its budget."""
    from table_rig import goto_deal

    from tui.bots import tactics

    game = new_game("three_thirteen", 2, seed=3)
    made = []
    for deal in range(1, 9):
        goto_deal(game, deal)
        made.append(tactics.evaluator_for(game.view(0)))
    assert len(tactics._EVALUATORS) <= tactics.EVALUATORS_KEPT
    assert tactics.evaluator_for(game.view(0)) is made[-1]  # the deal in play: kept
    assert made[0] not in tactics._EVALUATORS.values()


def _numbered(text: str, first: int) -> list[Card]:
    return [Card(c.rank, c.suit, first + i) for i, c in enumerate(parse_cards(text))]


def test_a_remembered_arrangement_is_made_of_the_cards_asked_about() -> None:
    """The caches are by faces: a second hand with the same faces (other copies, as two
    decks have) gets its own cards back, each once, not the first hand's."""
    ev = Evaluator(CR, 1)
    faces = "7H 7C 7S 5H 6H 7H KD 2C"  # two 7H: one in the set, one in the run
    first, second = _numbered(faces, 100), _numbered(faces, 200)
    ev.layout(first)
    ev.arrange(first)
    for cards in (ev.layout(second).deadwood
                  + tuple(c for m in ev.layout(second).melds for c in m.cards),
                  ev.arrange(second)[1]):
        assert all(any(c is mine for mine in second) for c in cards)
        assert len({c.uid for c in cards}) == len(cards)
    whole = ev.layout(second)
    assert sorted(c.uid for m in whole.melds for c in m.cards) + sorted(
        c.uid for c in whole.deadwood) == sorted(c.uid for c in second)
    king = next(c for c in second if c.rank == 13)
    less = ev.layout_without(second, king)
    assert less.penalty == whole.penalty - 10 and king not in less.deadwood
    third = _numbered(faces, 300)  # ... KD is 306, 2C 307
    again = ev.layout_without(third, third[6])
    assert {c.uid for c in again.deadwood} == {third[7].uid}


def test_the_evaluator_caches_hold_nothing_a_full_collection_walks() -> None:
    """A bug that was: the caches held every solved hand's cards and melds, so a full
    garbage collection walked them all (0.2-0.3 s in a 4-player expert game, inside a
    bot's decision or the app's frame); numbers and faces the collector untracks."""
    import gc

    ev = Evaluator(TT, 9)
    rng = random.Random(5)
    for _ in range(150):
        hand = _hand(rng.randrange(10**6), TT, 12)
        ev.layout(hand)
        ev.discards(hand)
        if ev.layout(hand).deadwood:
            ev.layout_without(hand, ev.layout(hand).deadwood[0])
    for _ in range(6):  # a collection untracks a tuple once what it holds is untracked
        gc.collect()
    seen: set[int] = set()
    todo = [obj for cache in (ev._arranged, ev._layouts) for item in cache.items()
            for obj in item]
    tracked = 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or not gc.is_tracked(obj):
            continue
        seen.add(id(obj))
        tracked += 1
        todo.extend(gc.get_referents(obj))
    assert len(ev._arranged) > 500 and tracked == 0
