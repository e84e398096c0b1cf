"""Which cards would help a hand, and by how much, read off its best arrangement.

Solving a hand exactly for every card that might be drawn is too slow for a bot that must
also play thousands of games.  But once the best arrangement of a hand is known, what a new
card does to it is nearly always one of three things:

* it fits one of the melds (joins a set, extends a run, or takes a wild's place in one):
  then the worst card left over can go, so the hand gains that card's value;
* it makes a new meld with cards left over (a pair of its rank, two of its suit close to
  it, or any of those with a wild left over): those cards stop scoring, and the worst card
  still left over can go;
* it melds with nothing, but scores less than the worst card left over, which it replaces;
* it helps nothing, and is thrown straight back.

`Outs.gain` takes the best of these.  It misses only the rare draws that pay by making the
melds rearrange themselves; a test measures how close it stays to the exact solver.
"""

from __future__ import annotations

from collections.abc import Sequence

from tui.engine.cards import ACE, HIGH_ACE, Card
from tui.engine.meld import Meld
from tui.engine.meld_rules import MeldParams

from .evaluate import Evaluator


def _places(rank: int, p: MeldParams) -> tuple[int, ...]:
    if rank != ACE:
        return (rank,)
    return tuple(q for q, ok in ((1, p.ace_low or p.wrap), (HIGH_ACE, p.ace_high and not p.wrap))
                 if ok)


class Outs:
    """A hand's arrangement, ready to say what any drawn card would gain."""

    def __init__(self, ev: Evaluator, hand: Sequence[Card]) -> None:
        self.ev = ev
        self.p = ev.params
        layout = ev.layout(hand)
        self.penalty = layout.penalty
        self.melds: tuple[Meld, ...] = layout.melds
        dead = sorted(layout.deadwood, key=ev.value, reverse=True)
        self.dead = dead
        self.dead_wilds = [c for c in dead if ev.is_wild(c)]
        self.dead_nat = [c for c in dead if not ev.is_wild(c)]
        self.worst = ev.value(dead[0]) if dead else 0
        self.room = any(self._meld_room(m) for m in self.melds)
        self.wild_melds = [m for m in self.melds if any(ev.is_wild(c) for c in m.cards)]
        self._memo: dict[tuple[int, str], int] = {}

    def gain(self, card: Card) -> int:
        """Points the hand would shed by drawing `card` and then discarding its worst card
        (0: the card would be thrown back)."""
        hit = self._memo.get(card.face)
        if hit is not None:
            return hit
        # kept in place of the worst left-over card
        best = max(0, self.worst - self.ev.value(card)) if self.dead else 0
        if self.dead and self._fits_meld(card):
            best = self.worst
        formed = self._new_meld(card)
        if formed is not None:
            removed, used = formed
            left = list(self.dead)
            for c in used:
                left.remove(c)
            if left:
                best = max(best, removed + self.ev.value(left[0]))
            elif self._spare(len(used) + 1):
                best = max(best, removed)  # everything melds: only a spare card goes
            # (with no meld able to spare a card, the discard breaks one: not read here)
        best = min(best, self.penalty)
        self._memo[card.face] = best
        return best

    def uncertain(self, card: Card) -> bool:
        """Whether `gain` may underrate the card: it is wild, or it touches a meld holding
        a wild (the wild might move to a better place)."""
        ev = self.ev
        if ev.is_wild(card):
            return True
        for meld in self.wild_melds:
            if meld.kind == "set" and meld.rank == card.rank:
                return True
            if meld.kind == "run" and meld.suit == card.suit:
                return True
        if self.wild_melds:
            # a wild could leave its meld to join this card and a left-over one
            reach = max(self.p.run_min - 1, 1)
            for c in self.dead_nat:
                if c.rank == card.rank:
                    return True
                if c.suit == card.suit and any(
                        abs(x - y) <= reach for x in _places(c.rank, self.p)
                        for y in _places(card.rank, self.p)):
                    return True
        return False

    # -- fitting an existing meld

    def _meld_room(self, meld: Meld) -> bool:
        p = self.p
        size = len(meld.cards)
        if meld.kind == "set":
            return size < p.set_max
        return size < p.run_max and (meld.low > p.min_pos or meld.high < p.max_pos)

    def _fits_meld(self, card: Card) -> bool:
        ev = self.ev
        if ev.is_wild(card):
            return self.room
        p = self.p
        for meld in self.melds:
            size = len(meld.cards)
            if meld.kind == "set":
                if meld.rank != card.rank or size >= p.set_max:
                    continue
                if p.distinct_suits and any(f[1] == card.suit for f in meld.stands_for):
                    continue
                return True
            else:
                if meld.suit != card.suit or size >= p.run_max:
                    continue
                for q in _places(card.rank, p):
                    if q == meld.low - 1 or q == meld.high + 1:
                        return True
                    if meld.low <= q <= meld.high:
                        # a wild standing there can move to an end
                        i = [f[0] for f in meld.stands_for].index(q) \
                            if q in [f[0] for f in meld.stands_for] else -1
                        if i >= 0 and ev.is_wild(meld.cards[i]) and \
                                (meld.low > p.min_pos or meld.high < p.max_pos):
                            return True
        return False

    def _spare(self, new_meld: int) -> bool:
        """Whether a hand whose every card melds, with a new meld of `new_meld` cards, can
        discard a card and still meld every other: some meld must be longer than it needs."""
        p = self.p
        if new_meld > max(p.set_min, p.run_min):
            return True
        return any(len(m.cards) > (p.set_min if m.kind == "set" else p.run_min)
                   for m in self.melds)

    # -- a new meld with left-over cards

    def _new_meld(self, card: Card) -> tuple[int, list[Card]] | None:
        """(points no longer scoring, cards used) for the best new meld `card` makes with
        left-over cards, or None."""
        ev = self.ev
        p = self.p
        wilds = self.dead_wilds
        options: list[tuple[int, list[Card]]] = []
        if ev.is_wild(card):
            options += self._wild_melds()
        else:
            # a set of its rank
            same = [c for c in self.dead_nat if c.rank == card.rank]
            if p.distinct_suits:
                one_a_suit = {card.suit: card}
                for c in same:
                    one_a_suit.setdefault(c.suit, c)
                same = [c for c in one_a_suit.values() if c is not card]
            naturals = 1 + len(same)
            short = max(0, p.set_min - naturals)
            if short <= min(len(wilds), p.max_wilds) and (p.outnumber or short <= naturals):
                used = same[: max(0, p.set_max - 1)] + wilds[:short]
                options.append((sum(ev.value(c) for c in used), used))
            # a run through it
            if p.run_min <= p.run_max:
                options += self._runs_through(card)
        if not options:
            return None
        return max(options, key=lambda o: o[0])

    def _runs_through(self, card: Card) -> list[tuple[int, list[Card]]]:
        ev = self.ev
        p = self.p
        wilds = self.dead_wilds
        suited: dict[int, Card] = {}
        for c in self.dead_nat:
            if c.suit == card.suit:
                for q in _places(c.rank, p):
                    if q not in suited or ev.value(c) > ev.value(suited[q]):
                        suited[q] = c
        out = []
        length = p.run_min
        for q in _places(card.rank, p):
            for start in range(q - length + 1, q + 1):
                end = start + length - 1
                if start < p.min_pos or end > p.max_pos:
                    continue
                used = [suited[x] for x in range(start, end + 1) if x != q and x in suited]
                if len({id(c) for c in used}) < len(used):
                    continue
                gaps = length - 1 - len(used)
                naturals = 1 + len(used)
                if gaps > min(len(wilds), p.max_wilds) or (not p.outnumber and gaps > naturals):
                    continue
                if not used and gaps > 0 and len(wilds) < gaps:
                    continue
                chosen = used + wilds[:gaps]
                out.append((sum(ev.value(c) for c in chosen), chosen))
        return out

    def _wild_melds(self) -> list[tuple[int, list[Card]]]:
        """New melds a drawn wild makes with left-over cards: a pair, or two of a suit
        within a run's reach."""
        ev = self.ev
        p = self.p
        nat = self.dead_nat
        out: list[tuple[int, list[Card]]] = []
        if p.max_wilds < 1:  # (`melds.max_wilds: 0`: a wild melds nowhere)
            return out
        for i, a in enumerate(nat):
            for b in nat[i + 1:]:
                if a.rank == b.rank and p.set_min <= 3 and \
                        not (p.distinct_suits and a.suit == b.suit):
                    out.append((ev.value(a) + ev.value(b), [a, b]))
                elif a.suit == b.suit and p.run_min <= 3 and any(
                        0 < abs(x - y) <= 2 for x in _places(a.rank, p)
                        for y in _places(b.rank, p)):
                    out.append((ev.value(a) + ev.value(b), [a, b]))
        if self.dead_wilds and p.min_natural <= 1 and p.max_wilds >= 2:
            for a in nat:
                if p.set_min <= 3 or p.run_min <= 3:
                    out.append((ev.value(a) + ev.value(self.dead_wilds[0]),
                                [a, self.dead_wilds[0]]))
        return out
