"""`hard`: plays the imperfect-information game, within a time budget per decision.

What it knows comes from `memory.read_knowledge`: the cards it has seen (its hand, the
table, every discard, every card another player took from the pile), and so the multiset of
*unseen* cards, which the stock and the other hands are made of.  It decides by looking
ahead over that uncertainty:

* **The value of a hand** is the penalty it is expected to leave after one more draw:
  the exact average, over every unseen card weighted by its copies, of the best penalty
  after drawing that card and throwing the worst one away (`Lookahead.expect`).  Cards that
  cannot meld with anything in hand are known to change nothing, so only the cards that
  interact are solved.
* **Discarding**: the few discards the exact solver rates best now are compared by that
  expected value, plus what the card would give the next player: the next player's hidden
  cards are sampled many times from the unseen ones (always with the cards that player is
  known to hold), and the average improvement the discard would give them is charged.
* **Drawing**: the top discard is taken when the hand it leaves is worth more than a stock
  card is on average (both compared two draws ahead); on a final turn, exactly one draw
  ahead.
* In contract games the same ideas use the contract count (`evaluate.contract_need`):
  unseen cards that would bring the contract closer are counted by their live copies, and
  cards the next player is known to want are not thrown to them.

Everything is seeded from the bot's own random generator, so the same view gives the same
decision.  Decisions with one legal move return at once.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence

from tui.engine.actions import TakeDiscard
from tui.engine.cards import Card
from tui.engine.view import SeatView

from .evaluate import Evaluator, _without
from .medium import MediumBot, _discard_action, connections, keeps_text
from .memory import Knowledge, read_knowledge, sample_hand
from .outs import Outs
from .tactics import (
    Decision,
    discard_choices,
    may_lay_off_now,
    options,
    play_mode,
    stock_or_first,
)

DEFAULT_BUDGET = 0.4  # seconds per decision
EXACT_FROM = 0.1  # budgets from this many seconds up also solve uncertain draws exactly
FEED_WEIGHT = 0.6  # a point given to the next player, against a point kept by us
FEED_SAMPLES = 16  # hands sampled for the next player
FEED_SAMPLES_FAST = 8
# contract games: weights of the discard score (points-like units)
CONTRACT_STEP = 12.0  # one card further from the contract
CONTRACT_RISK = 8.0  # ... worth this much less when the deal may end at once
OUTS_WEIGHT = 20.0  # the share of unseen cards that would bring the contract closer
CONTRACT_FEED = 6.0  # handing the next player a card they collect
VALUE_CALM = 0.3  # shedding a card's points, when no one is near going out
VALUE_RISK = 0.7  # ... and how much more when someone is
WILD_KEEP = 40.0  # wilds are worth keeping
HOPE_WEIGHT = 20.0  # the share of unseen cards that would let a stuck card be laid off
RISK_BY_CARDS = {0: 1.0, 1: 0.9, 2: 0.6, 3: 0.4, 4: 0.25}
MARGIN = 12  # discards whose penalty is this much worse than the best are not considered
CANDIDATES = 5


class Lookahead:
    """One-draw look-ahead over the unseen cards, for one decision.

    `expect(hand)` is the penalty the hand is expected to leave after one more draw: the
    average, over every unseen card weighted by its unseen copies, of the least penalty
    after drawing it and throwing the worst card away.  What a card gains is read off the
    hand's best arrangement (`outs.Outs`); with `exact`, the cards that reading may
    underrate (wilds, cards that could pull a wild out of a meld) are solved exactly."""

    def __init__(self, ev: Evaluator, unseen: Counter) -> None:
        self.ev = ev
        self.faces = [(Card(rank, suit), n) for (rank, suit), n in sorted(unseen.items())]
        self.total = sum(n for _, n in self.faces) or 1
        self._memo: dict[tuple, float] = {}

    def expect(self, hand: Sequence[Card], exact: bool = False) -> float:
        key = (exact, *sorted(c.face for c in hand))
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        ev = self.ev
        outs = Outs(ev, hand)
        now = outs.penalty
        if now == 0:
            self._memo[key] = 0.0
            return 0.0
        gained = 0.0
        cards = list(hand)
        for card, n in self.faces:
            if exact and outs.uncertain(card):
                gain = now - min(now, ev.after_best_discard(cards + [card]))
            else:
                gain = outs.gain(card)
            gained += n * gain
        value = now - gained / self.total
        self._memo[key] = value
        return value


class HardBot(MediumBot):
    level = "hard"

    def __init__(self, seed: int = 0, budget: float = DEFAULT_BUDGET) -> None:
        super().__init__(seed)
        self.budget = budget
        self._deadline = 0.0
        self._seed = 0

    def decide(self, view: SeatView) -> Decision:
        self._deadline = time.perf_counter() + self.budget
        self._seed = self.rng.randrange(1 << 30)
        return super().decide(view)

    def _time_left(self) -> bool:
        return time.perf_counter() < self._deadline

    @property
    def _thorough(self) -> bool:
        """Whether the budget pays for exact solving where the quick reading may err."""
        return self.budget >= EXACT_FROM

    # ------------------------------------------------------------------ draw

    def draw(self, view: SeatView, ev: Evaluator) -> Decision:
        if play_mode(view) != "declare":
            return super().draw(view, ev)
        stock = stock_or_first(view)
        top = next((a for a in options(view, "take_discard")
                    if isinstance(a, TakeDiscard) and a.depth == 0), None)
        card = view.top_discard
        if top is None or card is None:
            return Decision(stock, "nothing to take")
        if stock.kind != "draw_stock":
            return Decision(top, "the stock is empty")
        hand = list(view.hand)
        with_card = hand + [card]
        if ev.after_best_discard(with_card) == 0:
            return Decision(top, f"{card} lets me go out")
        know = read_knowledge(view)
        look = Lookahead(ev, know.unseen)
        exact = self._thorough
        stock_now = look.expect(hand, exact)  # a stock card, then the best discard
        if view.final_turns:
            after = ev.after_best_discard(with_card)
            if after < stock_now:
                return Decision(top, f"{card} leaves {after}, a stock card "
                                f"{stock_now:.1f} on average")
            return Decision(stock, f"a stock card leaves {stock_now:.1f} on average, "
                            f"{card} {after}")
        keep = [c for c in with_card if c.uid != card.uid] \
            if view.rules.draw.no_immediate_rediscard else None
        take_value = None
        for _, out in ev.discards(with_card, keep)[:2]:
            value = look.expect(_without(with_card, out), exact and self._time_left())
            take_value = value if take_value is None else min(take_value, value)
        now = ev.penalty(hand)
        stock_value = 2 * stock_now - now  # a stock card now, and the gain of one more
        if take_value is not None and take_value < stock_value:
            return Decision(top, f"{card} is worth more than a stock card "
                            f"(expected penalty {take_value:.1f} against {stock_value:.1f})")
        return Decision(stock, f"{card} is worth less than a stock card "
                        f"(expected penalty {stock_value:.1f})")

    # ------------------------------------------------------------------ discard

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        mode = play_mode(view)
        if mode == "contract":
            allowed = discard_choices(view)
            if allowed:
                if may_lay_off_now(view):
                    return self._discard_down_hard(view, ev, allowed)
                return self._discard_contract_hard(view, ev, allowed)
        if mode != "declare":
            return super().discard(view, ev)
        allowed = discard_choices(view)
        if not allowed:
            return Decision(view.legal[0], "the only kind of move left")
        hand = list(view.hand)
        know = read_knowledge(view)
        ranked = ev.discards_near(hand, allowed, MARGIN)[:CANDIDATES]
        feeder = _Feeder(view, ev, know, self._seed,
                         FEED_SAMPLES if self._thorough else FEED_SAMPLES_FAST)
        if view.final_turns:
            # nothing more to draw: what stays scores; only the next player can still gain
            final = [(pen + FEED_WEIGHT * feeder.gain(card), pen, card) for pen, card in ranked]
            final.sort(key=lambda item: (item[0], item[1], item[2].sort_key()))
            _, pen, card = final[0]
            return Decision(_discard_action(view, card),
                            lambda: keeps_text(ev, _without(hand, card), pen, "penalty"))
        look = Lookahead(ev, know.unseen)
        scored = []
        for _pen, card in ranked:
            value = look.expect(_without(hand, card))
            scored.append([value + FEED_WEIGHT * feeder.gain(card), value, card])
        scored.sort(key=lambda item: item[0])
        if self._thorough:
            for item in scored[:3]:
                if not self._time_left():
                    break
                fed = item[0] - item[1]
                item[1] = look.expect(_without(hand, item[2]), exact=True)
                item[0] = item[1] + fed
        scored.sort(key=lambda item: (item[0], connections(item[2], hand, ev),
                                      -ev.value(item[2]), item[2].sort_key()))
        total, value, card = scored[0]
        fed = (total - value) / FEED_WEIGHT if FEED_WEIGHT else 0.0
        rest = _without(hand, card)

        def why() -> str:
            text = keeps_text(ev, rest, value, "lowest expected penalty")
            if fed > 0.5:
                text += f"; the next player would gain {fed:.1f} from it"
            return text

        return Decision(_discard_action(view, card), why)

    # ------------------------------------------------------------------ contract games

    def _discard_contract_hard(self, view: SeatView, ev: Evaluator, allowed: list[Card]
                               ) -> Decision:
        """Before the contract is down: keep what the contract needs, prefer partial
        contracts whose missing cards are still live, do not hand the next player what they
        are collecting, and shed high cards sooner when someone may go out soon."""
        hand = list(view.hand)
        know = read_knowledge(view)
        unseen = know.unseen
        total = sum(unseen.values()) or 1
        risk = deal_risk(view)
        wants = _collecting(view, know, ev)
        live_wilds = sum(n for (rank, _), n in unseen.items() if rank in ev.params.wild_ranks)
        scored = []
        for card in allowed:
            rest = _without(hand, card)
            need = ev.contract_need(rest)
            outs = sum(unseen.get(face, 0) for face in need.wanted)
            if need.missing:
                outs += live_wilds
            fed = 1.0 if wants(card) else 0.0
            score = (need.missing * (CONTRACT_STEP - CONTRACT_RISK * risk)
                     - OUTS_WEIGHT * outs / total
                     + CONTRACT_FEED * fed
                     - ev.value(card) * (VALUE_CALM + VALUE_RISK * risk)
                     + (WILD_KEEP if ev.is_wild(card) else 0))
            scored.append((score, connections(card, hand, ev), card.sort_key(), card, need,
                           outs, fed))
        scored.sort(key=lambda item: item[:3])
        _, _, _, card, need, outs, fed = scored[0]

        def why() -> str:
            text = (f"{need.missing} card{'s' if need.missing != 1 else ''} from the "
                    f"contract, {outs} live card{'s' if outs != 1 else ''} to help")
            if risk >= 0.5:
                text += "; someone may go out soon, so high cards go first"
            if fed:
                text += "; the next player may be collecting it"
            return text

        return Decision(_discard_action(view, card), why)

    def _discard_down_hard(self, view: SeatView, ev: Evaluator, allowed: list[Card]
                           ) -> Decision:
        """Contract down: throw the card that can go nowhere and scores most, unless a live
        card would soon let it be laid off, or the next player is collecting it."""
        hand = list(view.hand)
        know = read_knowledge(view)
        total = sum(know.unseen.values()) or 1
        stuck = {c.uid for c in ev.stuck(hand, view.table)}
        pool = [c for c in allowed if c.uid in stuck] or allowed
        wants = _collecting(view, know, ev)
        scored = []
        for card in pool:
            hope = _bridge_outs(card, view.table, know.unseen, ev) / total
            fed = 1.0 if wants(card) else 0.0
            score = (-ev.value(card) + HOPE_WEIGHT * hope + CONTRACT_FEED * fed
                     + (WILD_KEEP if ev.is_wild(card) else 0))
            scored.append((score, card.sort_key(), card))
        scored.sort(key=lambda item: item[:2])
        card = scored[0][2]
        return Decision(_discard_action(view, card),
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


def _collecting(view: SeatView, know: Knowledge, ev: Evaluator):
    """A test: would the next player want this card?  A player still short of the contract
    wants cards that go with what it took from the pile; one with the contract down wants
    cards that fit the table."""
    nxt = _next_player(view)
    if nxt is None:
        return lambda card: False
    info = view.players[nxt]
    if info.contract_down:
        return lambda card: not ev.stuck([card], view.table)
    taken = [Card(rank, suit) for (rank, suit), n in know.held.get(nxt, Counter()).items()
             for _ in range(n)]
    reach = max(ev.params.run_min - 1, 1)

    def wants(card: Card) -> bool:
        if ev.is_wild(card):
            return True
        return any(t.rank == card.rank or (t.suit == card.suit and
                                           0 < abs(t.rank - card.rank) <= reach)
                   for t in taken if not ev.is_wild(t))

    return wants


def _bridge_outs(card: Card, table: Sequence, unseen: Counter, ev: Evaluator) -> int:
    """Unseen cards that would open a place on the table for `card` (the card between it
    and the end of a run of its suit)."""
    if ev.is_wild(card):
        return 0
    out = 0
    for meld in table:
        if meld.kind != "run" or meld.suit != card.suit:
            continue
        for pos in ((1, 14) if card.rank == 1 else (card.rank,)):
            if pos == meld.high + 2:
                gap = meld.high + 1
            elif pos == meld.low - 2:
                gap = meld.low - 1
            else:
                continue
            out += unseen.get((1 if gap == 14 else gap, card.suit), 0)
    return out


class _Feeder:
    """What a discard would give the next player, averaged over hands sampled for them
    from the unseen cards (always holding the cards they are known to have)."""

    def __init__(self, view: SeatView, ev: Evaluator, know: Knowledge, seed: int,
                 samples: int) -> None:
        self.ev = ev
        self.outs: list[Outs] = []
        self.stock_gain: list[float] = []
        self._memo: dict[tuple[int, str], float] = {}
        nxt = _next_player(view)
        if nxt is None or view.rules.draw.discard == "none":
            return
        rng = random.Random(seed)
        reach = max(ev.params.run_min - 1, 1)
        faces = [(Card(rank, suit), n) for (rank, suit), n in sorted(know.unseen.items())]
        total = sum(n for _, n in faces) or 1
        for _ in range(samples):
            outs = Outs(ev, sample_hand(know, nxt, rng, reach))
            self.outs.append(outs)
            # what a stock card would give them instead, on average
            self.stock_gain.append(sum(n * outs.gain(c) for c, n in faces) / total)

    def gain(self, card: Card) -> float:
        """How much more the next player gains by taking `card` than by drawing blind."""
        if not self.outs:
            return 0.0
        hit = self._memo.get(card.face)
        if hit is None:
            extra = [max(0.0, o.gain(card) - blind)
                     for o, blind in zip(self.outs, self.stock_gain, strict=True)]
            hit = self._memo[card.face] = sum(extra) / len(extra)
        return hit


def _next_player(view: SeatView) -> int | None:
    """The seat that plays after this one (None if nobody does this deal)."""
    players = len(view.players)
    if players < 2:
        return None
    seat = (view.seat + 1) % players
    if view.final_turns and view.players[seat].went_out:
        return None
    return seat
