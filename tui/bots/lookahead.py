"""What the unseen cards promise: the next draw for this seat, and the next player's gain
from this seat's discard.

Both read hands through `outs.Outs` (what a drawn card does to a hand's best arrangement),
over the unseen cards of `memory.Knowledge`, so neither ever looks at a hidden card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from tui.engine.cards import Card
from tui.engine.view import SeatView

from .evaluate import Evaluator
from .memory import Knowledge, sample_hand
from .outs import Outs


class Lookahead:
    """One-draw look-ahead over the unseen cards, for one decision.

    `expect(hand)` is the penalty the hand is expected to leave after one more draw: the
    average, over every unseen card weighted by its unseen copies, of the least penalty
    after drawing it and throwing the worst card away.  What a card gains is read off the
    hand's best arrangement (`outs.Outs`); with `exact`, the cards that reading may
    underrate (wilds, cards that could pull a wild out of a meld) are solved exactly."""

    def __init__(self, ev: Evaluator, unseen: Counter[Any]) -> None:
        self.ev = ev
        self.faces, self.total = unseen_faces(unseen)
        self._memo: dict[tuple[Any, ...], float] = {}

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


def unseen_faces(unseen: Counter[Any]) -> tuple[list[tuple[Card, int]], int]:
    """One card per unseen face with its copies, and how many copies in all (at least 1,
    to average over)."""
    faces = [(Card(rank, suit), n) for (rank, suit), n in sorted(unseen.items())]
    return faces, sum(n for _, n in faces) or 1


class Feeder:
    """What a discard would give the next player, averaged over hands sampled for them
    from the unseen cards (always holding the cards they are known to have): by
    `memory.sample_hand`, or by `guess(rng, seat)` if given (an opponent model)."""

    def __init__(self, view: SeatView, ev: Evaluator, know: Knowledge, seed: int,
                 samples: int,
                 guess: Callable[[random.Random, int], list[Card]] | None = None) -> None:
        self.ev = ev
        self.outs: list[Outs] = []
        self.stock_gain: list[float] = []
        self._memo: dict[tuple[int, str], float] = {}
        nxt = next_player(view)
        if nxt is None or view.rules.draw.discard == "none":
            return
        rng = random.Random(seed)
        reach = max(ev.params.run_min - 1, 1)
        faces, total = unseen_faces(know.unseen)
        for _ in range(samples):
            hand = guess(rng, nxt) if guess is not None else sample_hand(know, nxt, rng, reach)
            outs = Outs(ev, hand)
            self.outs.append(outs)
            # what a stock card would give them instead, on average
            self.stock_gain.append(sum(n * outs.gain(c) for c, n in faces) / total)

    def out_chance(self, card: Card) -> float:
        """The share of the next player's sampled hands that `card` would let go out."""
        if not self.outs:
            return 0.0
        return sum(1 for o in self.outs if 0 < o.penalty <= o.gain(card)) / len(self.outs)

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


def next_player(view: SeatView) -> int | None:
    """The seat that plays after this one (None if nobody does this deal)."""
    players = len(view.players)
    if players < 2:
        return None
    seat = (view.seat + 1) % players
    if view.final_turns and view.players[seat].went_out:
        return None
    return seat
