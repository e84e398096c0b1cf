"""How `hard` discards in contract games, where the hand is judged by the contract count.

Before its contract is down a hand is judged by how many cards the contract still lacks
(`evaluate.contract_need`), how many unseen cards would bring it closer (live copies count,
dead ones do not), and what it holds in points; the weights shift towards shedding points
when an opponent with the contract down is close to going out (`deal_risk`).  After the
contract, the card thrown is the one that can go nowhere, heaviest first, keeping a card a
live card would soon let onto the table.  Either way a card the next player is collecting
(goes with what they took from the pile, or fits the table once their contract is down) is
not handed to them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from tui.engine.actions import Action
from tui.engine.cards import ACE, HIGH_ACE, Card
from tui.engine.meld import MELD_KINDS, Meld
from tui.engine.meld_params import colour
from tui.engine.meld_rules import meld_params, run_positions_of
from tui.engine.view import SeatView

from .evaluate import ContractNeed, Evaluator, without_card
from .lookahead import next_player
from .medium import connections, discard_action
from .memory import Knowledge, read_knowledge
from .tactics import Decision, discards_after_taking, seat_rounds

# contract games: weights of the discard score (points-like units)
CONTRACT_STEP = 12.0  # one card further from the contract
CONTRACT_RISK = 8.0  # ... worth this much less when the deal may end at once
OUTS_WEIGHT = 20.0  # the share of unseen cards that would bring the contract closer
CONTRACT_FEED = 6.0  # handing the next player a card they collect
DOWN_FEED = 6.0  # ... once our own contract is down
VALUE_CALM = 0.3  # shedding a card's points, when no one is near going out
VALUE_RISK = 0.7  # ... and how much more when someone is
WILD_KEEP = 40.0  # wilds are worth keeping
HOPE_WEIGHT = 20.0  # the share of unseen cards that would let a stuck card be laid off
CARD_SHED = 5.0  # one card fewer in hand, once the contract is down, beyond its points
RISK_BY_CARDS = {0: 1.0, 1: 0.9, 2: 0.6, 3: 0.4, 4: 0.25}


class ContractJudge:
    """A hand's worth before its contract is down, for one decision: lower is better.

    `score(hand)` counts the cards the contract lacks (each worth `CONTRACT_STEP`, less
    when the deal may end soon), takes off the share of unseen cards that would bring it
    closer (live copies only), and adds the points held (weighing more when the deal may
    end soon); wilds are kept.  A hand that holds its contract needs no card at all, so it
    takes off the whole share: counted as none, a card short with many live outs scored
    better than the contract made, and hard drew from the stock past the discard that made
    it (most often where runs mix suits and many cards are live: Phase 10)."""

    def __init__(self, view: SeatView, ev: Evaluator) -> None:
        self.ev = ev
        know = read_knowledge(view)
        self.unseen = know.unseen
        self.total = know.unseen_total or 1
        self.risk = deal_risk(view)
        self.step = CONTRACT_STEP - CONTRACT_RISK * self.risk
        self.weight = VALUE_CALM + VALUE_RISK * self.risk
        self.live_wilds = sum(n for (rank, _), n in self.unseen.items()
                              if rank in ev.params.wild_ranks) if ev.params.max_wilds else 0
        self.wants = _collecting(view, know, ev)

    def outs(self, hand: Sequence[Card]) -> tuple[ContractNeed, int]:
        need = self.ev.contract_need(hand)
        outs = sum(self.unseen.get(face, 0) for face in need.wanted)
        if need.missing:
            outs += self.live_wilds
        return need, outs

    def score(self, hand: Sequence[Card]) -> float:
        ev = self.ev
        need, outs = self.outs(hand)
        held = 0.0
        for card in hand:
            held += self.weight * ev.value(card) - (WILD_KEEP if ev.helping_wild(card) else 0)
        share = outs / self.total if need.missing else 1.0
        return need.missing * self.step - OUTS_WEIGHT * share + held

    def best_discard(self, hand: Sequence[Card], allowed: Sequence[Card]
                     ) -> tuple[float, Card]:
        """The discard leaving the best score (charging cards the next player collects)."""
        best: tuple[Any, ...] | None = None
        for card in allowed:
            value = self.score(without_card(hand, card)) + \
                (CONTRACT_FEED if self.wants(card) else 0.0)
            key = (value, connections(card, hand, self.ev), card.sort_key())
            if best is None or key < best[0]:
                best = (key, card)
        assert best is not None
        return best[0][0], best[1]


def draw_before_contract(view: SeatView, ev: Evaluator, top: Action | None, stock: Action
                         ) -> Decision:
    """Take the top discard when the best hand it leaves beats what a stock card is
    expected to bring (the chance it advances the contract, by the live cards)."""
    card = view.top_discard
    if top is None or card is None:
        return Decision(stock, "nothing to take")
    if stock.kind != "draw_stock":
        return Decision(top, "the stock is empty")
    judge = ContractJudge(view, ev)
    hand = list(view.hand)
    with_card = hand + [card]
    take_value, _ = judge.best_discard(with_card, discards_after_taking(view, with_card, card))
    _, outs = judge.outs(hand)
    blind = judge.score(hand) - judge.step * outs / judge.total
    if take_value < blind:
        after = ev.contract_need(with_card).missing
        return Decision(top, f"{card} is worth more than a stock card ({after} card"
                        f"{'s' if after != 1 else ''} from the contract)")
    return Decision(stock, f"{card} is worth less than a stock card "
                    f"({outs} live card{'s' if outs != 1 else ''} would help)")


def draw_after_contract(view: SeatView, ev: Evaluator, top: Action | None, stock: Action
                        ) -> Decision:
    """Contract down: take the top discard when it can be laid off, or when keeping it in
    place of the worst card left in hand saves more points than a stock card would be
    expected to (a stock card that fits the table saves a whole card)."""
    card = view.top_discard
    if top is None or card is None:
        return Decision(stock, "nothing to take")
    if stock.kind != "draw_stock":
        return Decision(top, "the stock is empty")
    if not ev.stuck([card], view.table, seat_rounds(view)):
        return Decision(top, f"{card} can be laid off")
    hand = list(view.hand)
    stuck = ev.stuck(hand, view.table, seat_rounds(view))
    if not stuck:
        return Decision(stock, "every card in hand fits the table")
    worst = max(ev.value(c) for c in stuck)
    take_gain = worst - ev.value(card)
    if take_gain <= 0:
        return Decision(stock, f"{card} scores as much as anything in hand")
    know = read_knowledge(view)
    total = know.unseen_total or 1
    expected = 0.0
    for (rank, suit), n in know.unseen.items():
        drawn = Card(rank, suit)
        if ev.helping_wild(drawn) or not ev.stuck([drawn], view.table, seat_rounds(view)):
            expected += n * (worst + CARD_SHED)
        else:
            expected += n * max(0, worst - ev.value(drawn))
    expected /= total
    if take_gain > expected:
        return Decision(top, f"{card} in place of a {worst}-point card saves {take_gain}, "
                        f"a stock card {expected:.1f} on average")
    return Decision(stock, f"a stock card is worth {expected:.1f} on average, "
                    f"{card} only {take_gain}")


def discard_before_contract(view: SeatView, ev: Evaluator, allowed: list[Card]) -> Decision:
    """Before the contract is down: keep what the contract needs, prefer partial
    contracts whose missing cards are still live, do not hand the next player what they
    are collecting, and shed high cards sooner when someone may go out soon."""
    judge = ContractJudge(view, ev)
    hand = list(view.hand)
    _, card = judge.best_discard(hand, allowed)
    need, outs = judge.outs(without_card(hand, card))
    fed = judge.wants(card)
    risk = judge.risk

    def why() -> str:
        text = (f"{need.missing} card{'s' if need.missing != 1 else ''} from the "
                f"contract, {outs} live card{'s' if outs != 1 else ''} to help")
        if risk >= 0.5:
            text += "; someone may go out soon, so high cards go first"
        if fed:
            text += "; the next player may be collecting it"
        return text

    return Decision(discard_action(view, card), why)


def discard_after_contract(view: SeatView, ev: Evaluator, allowed: list[Card]) -> Decision:
    """Contract down: throw the card that can go nowhere and scores most, unless a live
    card would soon let it be laid off, or the next player is collecting it."""
    hand = list(view.hand)
    know = read_knowledge(view)
    total = know.unseen_total or 1
    stuck = {c.uid for c in ev.stuck(hand, view.table, seat_rounds(view))}
    pool = [c for c in allowed if c.uid in stuck] or allowed
    wants = _collecting(view, know, ev)
    scored = []
    for card in pool:
        hope = _bridge_outs(card, view.table, know.unseen, ev) / total
        fed = 1.0 if wants(card) else 0.0
        score = (-ev.value(card) + HOPE_WEIGHT * hope + DOWN_FEED * fed
                 + (WILD_KEEP if ev.helping_wild(card) else 0))
        scored.append((score, card.sort_key(), card))
    scored.sort(key=lambda item: item[:2])
    card = scored[0][2]
    return Decision(discard_action(view, card),
                    f"{card} fits no meld on the table and scores {ev.value(card)}")


def deal_risk(view: SeatView) -> float:
    """How likely the deal is to end before long: an opponent with the contract down and
    few cards left may go out on the next turn."""
    risk = 0.0
    for info in view.players:
        if info.seat == view.seat or not info.contract_down:
            continue
        risk = max(risk, RISK_BY_CARDS.get(info.hand_count, 0.1))
    return risk


def _collecting(view: SeatView, know: Knowledge, ev: Evaluator) -> Callable[[Card], bool]:
    """A test: would the next player want this card?  A player still short of the contract
    wants cards that go with what it took from the pile; one with the contract down wants
    cards that fit the table."""
    nxt = next_player(view)
    if nxt is None:
        return lambda card: False
    info = view.players[nxt]
    if info.contract_down:
        return lambda card: not ev.stuck([card], view.table, seat_rounds(view))
    taken = [Card(rank, suit) for (rank, suit), n in know.held.get(nxt, Counter()).items()
             for _ in range(n)]
    if view.rules.per_player and info.phase:
        return _collecting_for_phase(view, info.phase, taken, ev)
    reach = max(ev.params.run_min - 1, 1)

    def wants(card: Card) -> bool:
        if ev.is_wild(card):
            return ev.helping_wild(card)
        return any(t.rank == card.rank or (t.suit == card.suit and
                                           0 < abs(t.rank - card.rank) <= reach)
                   for t in taken if not ev.is_wild(t))

    return wants


def _collecting_for_phase(view: SeatView, phase: int, taken: list[Card], ev: Evaluator
                          ) -> Callable[[Card], bool]:
    """Under `progression: per_player` the next player collects for their own phase, not
    this seat's: cards of a rank they took where it asks for sets, near in rank (of the
    suit, where runs are of one suit) where it asks for runs, of the colour where it asks
    for a group of one colour."""
    rules = view.rules
    options = rules.round(phase).contract.options()
    sets, runs, colours = (any(o.count(kind) for o in options)
                           for kind in MELD_KINDS)
    p = meld_params(rules, phase, "contract")
    reach = max(p.run_min - 1, 1)
    kept = [t for t in taken if not ev.is_wild(t)]

    def wants(card: Card) -> bool:
        if ev.is_wild(card):
            return True  # a wild helps every phase
        return any(sets and t.rank == card.rank
                   or runs and (t.suit == card.suit or not p.same_suit)
                   and 0 < abs(t.rank - card.rank) <= reach
                   or colours and colour(t.suit) == colour(card.suit)
                   for t in kept)

    return wants


def _bridge_outs(card: Card, table: Sequence[Meld], unseen: Counter[Any], ev: Evaluator) -> int:
    """Unseen cards that would open a place on the table for `card` (the card between it
    and the end of a run of its suit)."""
    if ev.is_wild(card):
        return 0
    out = 0
    for meld in table:
        if meld.kind != "run" or meld.suit != card.suit:
            continue
        for pos in run_positions_of(card.rank, ev.params):
            if pos == meld.high + 2:
                gap = meld.high + 1
            elif pos == meld.low - 2:
                gap = meld.low - 1
            else:
                continue
            out += unseen.get((ACE if gap == HIGH_ACE else gap, card.suit), 0)
    return out
