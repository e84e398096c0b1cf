"""What the other players probably hold, read from the public log, and deals imagined from it.

`memory.read_knowledge` settles what is certain: the *unseen* cards (in the stock or in
other hands) and, per opponent, the cards known to be in the hand (taken or bought from
the pile, not played since).  This module adds what is only likely, from how each opponent
played:

* a card it **took** from the pile went with something it held (a pair of its rank, or a
  card of its suit within a run's reach);
* a top discard it **passed over** went with nothing it held;
* a card it **discarded** was its least useful one, so it holds little that goes with it;
* once its contract is **down** (it laid melds), it holds nothing that fits a meld on the
  table, or it would have laid it off.

In declare games (nothing melded until going out) each opponent's *last turn* is also
replayed against the hand (`last_turn_fit`): what it holds now is what it kept after its
last discard, so that discard should have cost little (measured by the exact solver
against the best discard of the hand with it), the hand with it should not have been
able to go out (every level goes out when it can), and the top discard it passed over
just before should not have saved it much; its older discards are read the same way,
more loosely.  On hard-against-hard positions of 2-player Three Thirteen the true hand
is on average e^2 times likelier than a blind deal under these weights (e^0.3 under the
first four alone).  There `POPULATION` deals are weighed once a decision and the
imagined deals are drawn from them by weight, each with its stock shuffled afresh.

Those deals are not dealt blind but *developed* (`developed_order`): a hand an opponent
holds after six draws is one it has kept, close to melded, and a blind deal of the unseen
cards is not.  So each blind hand is played alone for as many draws as its seat has had,
keeping a drawn card that melds or weighs less than its heaviest loose card.  Asked which
of a seat's candidate discards lets the next player go out (`tests/bench/
feed_diagnostics.py reading`), developed hands tell them apart with an AUC of 0.80 (0.81
within one decision), the blind-dealt weighed ones of before 0.65.  Their weights are
flattened (`weight_power`): the development already says most of what the weights said,
and sharp weights leave a population of 120 to a handful of hands.

An *imagined deal* gives every opponent its known cards plus unseen cards for the rest of
its hand, and puts the other unseen cards in the stock in a random order.  Several deals
are drawn blind from the unseen cards and one is kept with probability in proportion to
how well its hands fit the evidence (sampling importance resampling), so the hands the
search plays against lean the way the opponents' play points.  Every imagined card comes
from the unseen multiset, so no card the seat has seen elsewhere is ever imagined.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tui.engine.cards import Card
from tui.engine.meld import Meld
from tui.engine.view import SeatView

from . import budget
from .evaluate import Evaluator
from .memory import Knowledge, turns_taken

Face = tuple[int, str]

TOOK_ALONE = 0.3  # likelihood factor: a card taken from the pile that goes with nothing held
PASSED_FITS = 0.45  # a passed-over discard that goes with something held
DISCARD_PAIR = 0.6  # a discarded card of which the hand holds another of the rank
FITS_TABLE = 0.35  # a card that could be laid off, held by a player whose contract is down
CANDIDATES = 6  # blind deals drawn for every imagined deal kept
POPULATION = 120  # declare games: hands weighed once a decision, imagined deals drawn from them
TAU_DISCARD = 1.5  # points: a last discard this much worse than the best one is e times rarer
TAU_PASS = 2.0  # points: a passed-over card that would have saved this much, e times rarer
TAU_OLDER = 3.0  # points: the same for the discards before the last one, read against the hand now
OLDER_DISCARDS = 4  # how many of those
COULD_GO_OUT = 0.03  # a hand that could have gone out with its last discard, and did not
FIRST_UID = 1 << 20  # uids of imagined cards (far from the shoe's)


@dataclass
class World:
    """One imagined deal: every seat's hand (this seat's is the real one) and the stock,
    top card last."""

    hands: list[list[Card]]
    stock: list[Card]


@dataclass(frozen=True)
class Evidence:
    """What one opponent's play this deal says about its hidden cards."""

    took: tuple[Card, ...]
    passed: tuple[Card, ...]
    discarded: tuple[Card, ...]
    down: bool


class OpponentModel:
    """Imagines deals for one decision, from one seat's knowledge."""

    develop = True  # declare games: deals developed by solitaire play, not dealt blind
    weight_power = 0.2  # the evidence's weights, flattened (1: as read; 0: ignored)
    population = POPULATION  # declare games: hands weighed a decision, at most

    def __init__(self, view: SeatView, know: Knowledge, wild_ranks: frozenset[int],
                 reach: int, ev: Evaluator | None = None,
                 fits: Callable[[float], bool] = lambda cost: True) -> None:
        self.view = view
        self.fits = fits  # whether work of this many CPU seconds fits the decision's budget
        self.ev = ev  # given (declare games): each hand is checked against the last turn
        self.know = know
        self.wild = wild_ranks
        self.reach = max(1, reach)
        self.pool = [Card(rank, suit, FIRST_UID + i) for i, (rank, suit) in
                     enumerate(f for f, n in sorted(know.unseen.items()) for _ in range(n))]
        self.seats = [s for s in range(len(view.players)) if s != view.seat]
        self.known = {s: [Card(r, su, FIRST_UID + len(self.pool) + 64 * s + i) for i, (r, su)
                          in enumerate(f for f, n in sorted(know.held.get(s, Counter()).items())
                                       for _ in range(n))]
                      for s in self.seats}
        self.hidden = {s: max(0, know.hidden.get(s, 0)) for s in self.seats}
        self.evidence = {s: Evidence(tuple(know.taken.get(s, ())),
                                     tuple(know.passed.get(s, ())),
                                     tuple(know.discarded.get(s, ())),
                                     view.players[s].contract_down)
                         for s in self.seats}
        self.table: Sequence[Meld] = view.table
        someone_out = any(p.went_out for p in view.players)
        self.last_turn = {s: (know.discarded[s][-1] if know.discarded.get(s) else None,
                              know.last_passed.get(s), not someone_out)
                          for s in self.seats}
        self.older = {s: [c for c in know.discarded.get(s, [])[-1 - OLDER_DISCARDS:-1]
                          if c.rank not in wild_ranks] for s in self.seats}
        self._population: list[tuple[float, list[Card]]] | None = None
        self.draws = turns_taken(view)

    def developed_order(self, rng: random.Random) -> list[Card]:
        """A blind deal of the unseen cards whose hands are then played alone for as many
        draws as each seat has had: every draw, from the cards not dealt, is kept in place
        of the heaviest card left out of the hand's melds if it melds or weighs less (the
        known cards stay).  Kept hands look like played hands, not like dealt ones."""
        ev = self.ev
        assert ev is not None
        order = self.pool[:]
        rng.shuffle(order)
        hidden, rest = self._split(order)
        for seat in self.seats:
            known = self.known[seat]
            hand = hidden[seat]
            for _ in range(min(self.draws.get(seat, 0), len(rest))):
                card = rest.pop(0)
                drawn = hand + [card]
                # by face: a known card's twin left out frees a drawn copy too
                dead = Counter(c.face for c in ev.layout(known + drawn).deadwood)
                free = [c for c in drawn if dead[c.face]]
                natural = [c for c in free if not ev.is_wild(c)] or free
                throw = (max(natural, key=lambda c: (ev.value(c), c.sort_key())) if natural
                         else card)
                hand = [c for c in drawn if c is not throw]
                rest.append(throw)
            hidden[seat] = hand
        return hidden_order(self.seats, hidden) + rest

    def imagine(self, rng: random.Random) -> World:
        """One deal that fits the public record, drawn in proportion to its likelihood."""
        if self.ev is not None:
            return self._from_population(rng)
        best: list[tuple[float, list[Card]]] = []
        for _ in range(CANDIDATES):
            order = self.pool[:]
            rng.shuffle(order)
            best.append((self.likelihood(order), order))
        total = sum(w for w, _ in best)
        pick = rng.random() * total
        chosen = best[-1][1]
        for weight, order in best:
            pick -= weight
            if pick <= 0:
                chosen = order
                break
        return self._deal(chosen)

    def _from_population(self, rng: random.Random) -> World:
        """Declare games: `population` deals (fewer if the budget says so) are developed
        and weighed once (the hands' fit to the whole record, the last turn replayed);
        every imagined deal picks one of them by weight and shuffles its stock afresh."""
        if self._population is None:
            self._population = []
            cost = 0.0
            for _ in range(self.population):  # at least one hand, then what the budget allows
                if self._population and not self.fits(cost):
                    break
                started = budget.clock()
                if self.develop:
                    order = self.developed_order(rng)
                else:
                    order = self.pool[:]
                    rng.shuffle(order)
                weight = self.likelihood(order) * self.last_turn_fit(order)
                self._population.append((weight ** self.weight_power, order))
                cost = budget.clock() - started
        total = sum(w for w, _ in self._population)
        pick = rng.random() * total
        chosen = self._population[-1][1]
        for weight, order in self._population:
            pick -= weight
            if pick <= 0:
                chosen = order
                break
        hidden, stock = self._split(chosen)
        stock = stock[:]
        rng.shuffle(stock)
        return self._deal(hidden_order(self.seats, hidden) + stock)

    def last_turn_fit(self, order: list[Card]) -> float:
        """How well each hand this order deals explains its seat's last turn: the hand is
        what the seat kept after its last discard, so that discard should have been about
        the least useful card (and the hand with it should not have gone out), and the top
        discard it passed over just before should not have helped it much."""
        ev = self.ev
        if ev is None:
            return 1.0
        hidden, _ = self._split(order)
        weight = 1.0
        for seat in self.seats:
            if not hidden[seat]:
                continue
            hand = self.known[seat] + hidden[seat]
            discard, passed, could_go_out = self.last_turn[seat]
            now = ev.penalty(hand)
            for card in self.older[seat]:
                weight *= math.exp(-(now - ev.after_best_discard(hand + [card])) / TAU_OLDER)
            if discard is not None:
                after = ev.after_best_discard(hand + [discard])
                if could_go_out and after == 0:
                    weight *= COULD_GO_OUT
                weight *= math.exp(-(now - after) / TAU_DISCARD)
            if passed is not None and passed.rank not in self.wild:
                weight *= math.exp(-(now - ev.after_best_discard(hand + [passed])) / TAU_PASS)
        return weight

    def _split(self, order: list[Card]) -> tuple[dict[int, list[Card]], list[Card]]:
        hands: dict[int, list[Card]] = {}
        at = 0
        for seat in self.seats:
            n = min(self.hidden[seat], len(order) - at)
            hands[seat] = order[at:at + n]
            at += n
        return hands, order[at:]

    def _deal(self, order: list[Card]) -> World:
        hidden, stock = self._split(order)
        hands: list[list[Card]] = [[] for _ in self.view.players]
        hands[self.view.seat] = list(self.view.hand)
        for seat in self.seats:
            hands[seat] = self.known[seat] + hidden[seat]
        return World(hands, stock)

    def likelihood(self, order: list[Card]) -> float:
        """How well the hands this order deals fit each opponent's play (a product of
        factors, 1 for a deal that contradicts nothing)."""
        hidden, _ = self._split(order)
        weight = 1.0
        for seat in self.seats:
            hand = self.known[seat] + hidden[seat]
            ev = self.evidence[seat]
            for card in ev.took:
                if not any(self._goes_with(c, card) for c in hand if c.face != card.face):
                    weight *= TOOK_ALONE
            for card in ev.passed[-4:]:
                if self._goes_with_any(card, hidden[seat]):
                    weight *= PASSED_FITS
            for card in ev.discarded[-4:]:
                if card.rank not in self.wild and any(c.rank == card.rank for c in hidden[seat]):
                    weight *= DISCARD_PAIR
            if ev.down and self.table:
                for card in hidden[seat]:
                    if self._fits_table(card):
                        weight *= FITS_TABLE
        return weight

    def _goes_with_any(self, card: Card, hand: Sequence[Card]) -> bool:
        if card.rank in self.wild or card.is_joker:
            return False  # a wild always goes with something; passing one says nothing
        return any(self._goes_with(c, card) for c in hand)

    def _goes_with(self, card: Card, other: Card) -> bool:
        if card.rank in self.wild or card.is_joker:
            return True
        if card.rank == other.rank:
            return True
        return card.suit == other.suit and 0 < abs(card.rank - other.rank) <= self.reach

    def _fits_table(self, card: Card) -> bool:
        if card.rank in self.wild or card.is_joker:
            return False
        for meld in self.table:
            if meld.kind == "set":
                if meld.rank == card.rank:
                    return True
            elif meld.suit == card.suit and (card.rank == meld.low - 1
                                             or card.rank == meld.high + 1):
                return True
        return False


def hidden_order(seats: Sequence[int], hidden: dict[int, list[Card]]) -> list[Card]:
    """The hidden cards of `seats` one after another (the order `_split` reads them)."""
    return [card for seat in seats for card in hidden[seat]]
