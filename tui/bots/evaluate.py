"""How good a hand is, for the bots: exact penalties, best discards, contract progress.

Three measures, one per way a ruleset plays:

* *declare* games (nothing is melded during play, the hand is arranged when someone goes
  out): the hand's exact least penalty, from the engine's solver (`best_arrangement`);
* *contract* games before the contract is down: how many cards the hand still lacks to
  make the contract (`contract_need`), then the penalty of the cards that help nothing;
* melding games once the player may lay off (or meld freely): the penalty of the cards that
  can go nowhere on the table.

Solver answers are cached per ruleset, round and multiset of faces, because bots ask about
the same few hands over and over (every candidate discard, every card that might be drawn).
The caches hold only numbers and faces, never cards or melds: the garbage collector
untracks such tuples, so its full collections do not walk every hand a deal has solved
(with cards and melds cached, one full collection took 0.2-0.3 s in a 4-player expert
game, inside whichever decision or frame it landed; `tests/bench/bench_bots.py --gc`).
A hit is rebuilt from the cards asked about.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import TypeVar

from tui.engine.cards import ACE, HIGH_ACE, Card
from tui.engine.contract_options import option_rulesets
from tui.engine.meld import Face, Meld, MeldKind
from tui.engine.meld_params import colour
from tui.engine.meld_rules import MeldError, MeldParams, card_penalty, extend_meld, meld_params
from tui.engine.rules import Ruleset
from tui.engine.solver import Arrangement, best_arrangement, context_for, find_contract, solve

from .contract_count import ContractNeed, HandKey, count_contract

Picks = tuple[int, ...]  # places in a hand's key (its faces in order): which cards
MeldShape = tuple[MeldKind, Picks, tuple[Face, ...]]  # a meld, its cards as picks
KeptLayout = tuple[tuple[MeldShape, ...], Picks, int]  # melds, deadwood, penalty
T = TypeVar("T")
# Hands remembered per measure and round: enough for every hand a deal's decisions revisit,
# small enough (some tens of MB in all) for a server that plays for weeks.
CACHE_LIMIT = 20_000


def _put(cache: dict[HandKey, T], key: HandKey, value: T) -> T:
    """Remember `value`, starting the cache afresh when it is full."""
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def hand_key(cards: Iterable[Card]) -> HandKey:
    return tuple(sorted(c.face for c in cards))


def _picks(key: HandKey, cards: Iterable[Card], taken: set[int] | None = None) -> Picks:
    """Where the cards (some of the hand's) sit in the hand's key, in their order, each
    place once (a face the hand holds twice has two places); `taken`: places already
    given to other cards of the same hand (its melds' and its deadwood's)."""
    taken = set() if taken is None else taken
    out = []
    for card in cards:
        i = bisect_left(key, card.face)
        while i in taken:
            i += 1
        taken.add(i)
        out.append(i)
    return tuple(out)


def _in_key_order(cards: Sequence[Card]) -> list[Card]:
    """The hand's cards in the order of its key: `picks` index this list."""
    return sorted(cards, key=attrgetter("face"))


class Evaluator:
    """Cached hand measures for one ruleset and one round of its schedule."""

    def __init__(self, rules: Ruleset, round_no: int) -> None:
        self.rules = rules
        self.round_no = round_no
        self.params = meld_params(rules, round_no)
        # contract melds may be smaller than other melds (sizes given per contract meld)
        self.contract_params = meld_params(rules, round_no, "contract")
        self.contract = rules.round(round_no).contract
        # a contract of several patterns (`contract.any_of`): one evaluator per pattern
        self._patterns = [Evaluator(option, round_no)
                          for option in option_rulesets(rules, round_no)] \
            if self.contract.alternatives else []
        self._arranged: dict[HandKey, tuple[int, Picks]] = {}  # penalty, deadwood
        self._layouts: dict[HandKey, KeptLayout] = {}
        self._need: dict[HandKey, ContractNeed] = {}
        self._values: dict[tuple[int, str], int] = {}

    # ---------------------------------------------------------------- card values

    def value(self, card: Card) -> int:
        """Penalty points the card scores if it is left in hand."""
        hit = self._values.get(card.face)
        if hit is None:
            hit = self._values[card.face] = card_penalty(card, self.rules, self.round_no)
        return hit

    def is_wild(self, card: Card) -> bool:
        return card.rank in self.params.wild_ranks

    def helping_wild(self, card: Card) -> bool:
        """A wild that can stand in somewhere this round: not where no meld may hold one
        (`melds.max_wilds: 0`, as in Carioca's last deal), where it is only points."""
        return self.params.max_wilds > 0 and card.rank in self.params.wild_ranks

    # ---------------------------------------------------------------- exact penalties

    def arrange(self, cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
        """Least penalty of the hand (exact) and the cards left out of melds."""
        key = hand_key(cards)
        hit = self._arranged.get(key)
        if hit is None:
            plan = solve(list(cards), context_for(self.rules, self.round_no, "penalty"))
            assert plan is not None
            self._remember(key, plan.cost, plan.deadwood)
            return plan.cost, tuple(plan.deadwood)
        ordered = _in_key_order(cards)
        return hit[0], tuple(ordered[i] for i in hit[1])

    def _remember(self, key: HandKey, penalty: int, deadwood: Iterable[Card]) -> None:
        _put(self._arranged, key, (penalty, _picks(key, deadwood)))

    def layout(self, cards: Sequence[Card]) -> Arrangement:
        """The best arrangement itself (melds and deadwood), cached."""
        key = hand_key(cards)
        hit = self._layouts.get(key)
        if hit is not None:
            return self._rebuilt(cards, hit)
        found = best_arrangement(list(cards), self.rules, self.round_no)
        self._keep_layout(key, found)
        return found

    def _keep_layout(self, key: HandKey, layout: Arrangement) -> None:
        taken: set[int] = set()
        shapes = tuple((m.kind, _picks(key, m.cards, taken), m.stands_for)
                       for m in layout.melds)
        dead = _picks(key, layout.deadwood, taken)
        _put(self._layouts, key, (shapes, dead, layout.penalty))
        if key not in self._arranged:
            self._remember(key, layout.penalty, layout.deadwood)

    @staticmethod
    def _rebuilt(cards: Sequence[Card], kept: KeptLayout) -> Arrangement:
        ordered = _in_key_order(cards)
        shapes, dead, penalty = kept
        melds = tuple(Meld(kind, tuple(ordered[i] for i in picks), faces)
                      for kind, picks, faces in shapes)
        return Arrangement(melds, tuple(ordered[i] for i in dead), penalty)

    def layout_without(self, cards: Sequence[Card], card: Card) -> Arrangement:
        """The best arrangement of `cards` less `card`, a card the best arrangement of
        `cards` leaves out of its melds: the same melds stay best (the penalty is exactly
        that card's value less), so no solve is needed; remembered like `layout`."""
        whole = self.layout(cards)
        rest = list(whole.deadwood)
        rest.remove(card)
        kept = without_card(cards, card)
        key = hand_key(kept)
        hit = self._layouts.get(key)
        if hit is not None:
            return self._rebuilt(kept, hit)
        found = Arrangement(whole.melds, tuple(rest), whole.penalty - self.value(card))
        self._keep_layout(key, found)
        return found

    def penalty_within(self, cards: Sequence[Card], bound: int) -> int | None:
        """The hand's least penalty if it is at most `bound`, else None (faster: the search
        gives up on anything that cannot come in under the bound)."""
        key = hand_key(cards)
        hit = self._arranged.get(key)
        if hit is not None:
            return hit[0] if hit[0] <= bound else None
        plan = solve(list(cards), context_for(self.rules, self.round_no, "penalty"), bound=bound)
        if plan is None:
            return None
        self._remember(key, plan.cost, plan.deadwood)
        return plan.cost

    def penalty(self, cards: Sequence[Card]) -> int:
        return self.arrange(cards)[0]

    def _drop_dead(self, cards: Sequence[Card], pen: int, dead: tuple[Card, ...],
                   card: Card) -> int:
        """Penalty without a card left out of the best arrangement: exactly its value less
        (the same melds stay best); remembered, since that hand is often asked about next."""
        after = pen - self.value(card)
        key = hand_key(without_card(cards, card))
        if key not in self._arranged:
            rest = list(dead)
            rest.remove(card)
            self._remember(key, after, rest)
        return after

    def discards(self, cards: Sequence[Card], allowed: Iterable[Card] | None = None
                 ) -> list[tuple[int, Card]]:
        """Every distinct allowed discard with the exact least penalty of what stays,
        best first.  Discards that provably cannot tie the best are left out (the penalty
        without a card is at least the whole hand's penalty less that card's value)."""
        pen, dead = self.arrange(cards)
        pool = _distinct(allowed if allowed is not None else cards)
        dead_faces = Counter(c.face for c in dead)
        found: list[tuple[int, Card]] = []
        best = None
        # a card left out of the best arrangement goes for exactly its value
        for card in sorted((c for c in pool if dead_faces[c.face]), key=self.value,
                           reverse=True):
            after = self._drop_dead(cards, pen, dead, card)
            found.append((after, card))
            best = after if best is None else min(best, after)
        for card in sorted((c for c in pool if not dead_faces[c.face]), key=self.value,
                           reverse=True):
            if best is not None and pen - self.value(card) > best:
                continue
            rest = without_card(cards, card)
            within = self.penalty(rest) if best is None else self.penalty_within(rest, best)
            if within is None:
                continue
            found.append((within, card))
            best = within if best is None else min(best, within)
        found.sort(key=lambda item: (item[0], -self.value(item[1])))
        return found

    def discards_near(self, cards: Sequence[Card], allowed: Iterable[Card] | None,
                      margin: int) -> list[tuple[int, Card]]:
        """Every distinct allowed discard leaving at most `margin` points more than the
        best one, with its exact penalty, best first."""
        pen, dead = self.arrange(cards)
        pool = _distinct(allowed if allowed is not None else cards)
        dead_faces = Counter(c.face for c in dead)
        found = [(self._drop_dead(cards, pen, dead, c), c) for c in pool if dead_faces[c.face]]
        best = min((after for after, _ in found), default=None)
        rest_pool = sorted((c for c in pool if not dead_faces[c.face]), key=self.value,
                           reverse=True)
        if best is None and rest_pool:
            first = rest_pool.pop(0)
            best = self.penalty(without_card(cards, first))
            found.append((best, first))
        for card in rest_pool:
            assert best is not None
            if pen - self.value(card) > best + margin:
                continue
            after = self.penalty_within(without_card(cards, card), best + margin)
            if after is not None:
                found.append((after, card))
                best = min(best, after)
        if best is None:
            return []
        found = [item for item in found if item[0] <= best + margin]
        found.sort(key=lambda item: (item[0], -self.value(item[1])))
        return found

    def after_best_discard(self, cards: Sequence[Card]) -> int:
        """Least penalty after throwing the best card away (a close, cheap bound: the
        highest card left out of the best arrangement goes; exact when any card is left
        out, which is nearly always)."""
        pen, dead = self.arrange(cards)
        if dead:
            return pen - max(self.value(c) for c in dead)
        return min(after for after, _ in self.discards(cards))

    # ---------------------------------------------------------------- contracts

    def contract_need(self, cards: Sequence[Card]) -> ContractNeed:
        """Cards the hand still lacks for the round's contract: 0 exactly when it can be
        laid down.  Counting the groups a hand has is quick but may miss a lay-down (it
        looks at a few of the likeliest sets, and those can all need cards the runs use),
        so when it counts a card short the engine's search has the last word: a yes/no
        search costs less than the counting does."""
        key = hand_key(cards)
        hit = self._need.get(key)
        if hit is None and self._patterns:  # the pattern the hand is closest to
            hit = _put(self._need, key, min((ev.contract_need(cards) for ev in self._patterns),
                                            key=lambda need: need.missing))
        if hit is None:
            hit = count_contract(key, self.rules, self.contract, self.contract_params)
            if hit.missing:
                found = find_contract(list(cards), self.rules, self.round_no, first_found=True)
                if found is not None:
                    hit = ContractNeed(0, tuple(c.face for m in found.melds for c in m.cards
                                                if not self.is_wild(c)))
            hit = _put(self._need, key, hit)
        return hit

    def useless(self, cards: Sequence[Card]) -> list[Card]:
        """Cards outside the best partial contract (wilds help wherever they may meld)."""
        used = Counter(self.contract_need(cards).used)
        out = []
        for card in cards:
            if self.helping_wild(card):
                continue
            if used[card.face]:
                used[card.face] -= 1
            else:
                out.append(card)
        return out

    # ---------------------------------------------------------------- laying off

    def stuck(self, cards: Sequence[Card], table: Sequence[Meld],
              rounds: Sequence[int] = ()) -> list[Card]:
        """Cards that cannot be laid off on the table, even after laying off the others
        (one card can open the way for the next: 8H then 9H onto 5H-7H).  `rounds`, per
        seat, the round its melds are judged by (`progression: per_player`: the phase
        its owner is on; `seat_rounds`); by default this evaluator's."""
        melds = list(table)
        left = list(cards)
        progress = True
        while progress and left:
            progress = False
            for card in list(left):
                for i, meld in enumerate(melds):
                    if not _may_fit(card, meld, self.params):
                        continue
                    owner = meld.owner
                    rn = rounds[owner] if 0 <= owner < len(rounds) else self.round_no
                    try:
                        melds[i] = extend_meld(meld, [card], self.rules, rn)
                    except MeldError:
                        continue
                    left.remove(card)
                    progress = True
                    break
        return left


def _may_fit(card: Card, meld: Meld, params: MeldParams) -> bool:
    """A quick test before asking `extend_meld`: could the card join the meld at all?"""
    if card.rank in params.wild_ranks:
        return True
    if meld.kind == "colour":
        return colour(card.suit) == meld.colour
    if meld.kind == "set":
        return card.rank == meld.rank
    if card.suit != meld.suit and params.same_suit:
        return False
    low, high = meld.low, meld.high
    places = (1, HIGH_ACE) if card.rank == ACE else (card.rank,)
    return any(low - 1 <= p <= high + 1 or (p == 1 and high == 13) or (p == HIGH_ACE and low == 1)
               for p in places)


def _distinct(cards: Iterable[Card]) -> list[Card]:
    seen: set[tuple[int, str]] = set()
    out = []
    for card in cards:
        if card.face not in seen:
            seen.add(card.face)
            out.append(card)
    return out


def without_card(cards: Sequence[Card], card: Card) -> list[Card]:
    out = list(cards)
    for i, c in enumerate(out):
        if c.uid == card.uid and c.face == card.face:
            del out[i]
            return out
    out.remove(card)
    return out
