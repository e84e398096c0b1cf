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
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from operator import attrgetter
from typing import Any, TypeVar

from tui.engine.cards import ACE, HIGH_ACE, RANKS, SUITS, Card
from tui.engine.contract_options import option_rulesets
from tui.engine.meld import Face, Meld, MeldKind
from tui.engine.meld_params import COLOUR_SUITS, colour
from tui.engine.meld_rules import MeldError, MeldParams, card_penalty, extend_meld, meld_params
from tui.engine.rules import Ruleset
from tui.engine.solver import Arrangement, best_arrangement, context_for, find_contract, solve

HandKey = tuple[tuple[int, str], ...]
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


@dataclass(frozen=True)
class ContractNeed:
    """How far a hand is from its contract: cards still missing (wilds already counted),
    and the faces the best partial contract uses (the rest help nothing)."""

    missing: int
    used: tuple[tuple[int, str], ...]  # faces, with repeats for duplicate cards
    wanted: frozenset[tuple[int, str]] = frozenset()  # natural faces that fill a gap


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
            hit = _contract_need(key, self)
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


# -------------------------------------------------------------------- contract counting


@dataclass(frozen=True)
class _Group:
    kind: str  # "set" or "run"
    label: tuple[Any, ...]  # set: (rank,), run: (suit, first position)
    faces: tuple[tuple[int, str], ...]  # natural faces it would use, one copy each
    size: int  # cards the group needs at least
    short: int = 0  # cards it lacks
    room: int = 0  # how many of those wilds may fill


def _contract_need(key: HandKey, ev: Evaluator) -> ContractNeed:
    p = ev.contract_params
    want_sets, want_runs = ev.contract.sets, ev.contract.runs
    want_colours = ev.contract.colours
    wild_ranks = p.wild_ranks
    wilds = sum(1 for rank, _ in key if rank in wild_ranks)
    counts: Counter[tuple[int, str]] = Counter(f for f in key if f[0] not in wild_ranks)
    set_groups = _set_groups(counts, p, want_sets)
    run_groups = _run_groups(counts, p, want_runs)
    set_choices = list(combinations(set_groups, want_sets)) if want_sets else [()]
    suit_rule = ev.rules.contract.runs_same_suit if p.same_suit else "allowed"
    run_choices = list(_run_combos(run_groups, want_runs, suit_rule)) \
        if want_runs else [()]
    # Without shared cards a choice of groups lacks exactly its optimistic count; try the
    # choices from the most promising and stop when no other can beat the best found.
    set_opts = [(sum(g.short for g in c), sum(g.room for g in c), c) for c in set_choices]
    run_opts = [(sum(g.short for g in c), sum(g.room for g in c), c) for c in run_choices]
    if want_colours:  # groups of one colour (`contract.colours`): they go first
        run_opts = [(r_short + c_short, r_room + c_room, (*tints, *runs))
                    for c_short, c_room, tints in _colour_opts(counts, p, want_colours)
                    for r_short, r_room, runs in run_opts]
    ranked = [(s_short + r_short - min(wilds, s_room + r_room), sets, runs)
              for s_short, s_room, sets in set_opts for r_short, r_room, runs in run_opts]
    ranked.sort(key=lambda item: item[0])
    best: tuple[int, tuple[Any, ...], tuple[Any, ...]] | None = None
    for optimistic, sets, runs in ranked:
        if best is not None and optimistic >= best[0]:
            break
        for order in ((*runs, *sets), (*sets, *runs)):
            missing, used = _fill(order, counts, wilds, p)
            if best is None or missing < best[0]:
                best = (missing, used, order)
            if missing == optimistic:
                break
    if best is None:
        return ContractNeed(want_sets * p.set_min + want_runs * p.run_min
                            + want_colours * p.colour_min, ())
    missing, used, order = best
    if not missing:
        return ContractNeed(0, used)
    # Faces filling a chosen group help; so do faces bringing a group not chosen as close
    # as the farthest chosen one of its kind (the two could then trade places).
    worst = {"set": -1, "run": -1, "colour": -1}
    for group in order:
        worst[group.kind] = max(worst[group.kind], group.short)
    chosen = {id(g) for g in order}
    spare = [g for g in set_groups + run_groups
             if id(g) not in chosen and 0 < g.short <= worst[g.kind]]
    spare += [g for g in order if g.kind == "colour" and g.short]
    return ContractNeed(missing, used, _wanted([*order, *spare], p))


def _wanted(groups: Sequence[_Group], p) -> frozenset[tuple[int, str]]:
    """Natural faces that would fill a gap of the groups."""
    out: set[tuple[int, str]] = set()
    for group in groups:
        if group.kind == "colour":  # any card of its colour
            if group.short:
                out.update((rank, s) for rank in RANKS for s in COLOUR_SUITS[group.label[0]])
        elif group.kind == "set":
            rank = group.label[0]
            if rank <= 0:
                continue
            suits = {f[1] for f in group.faces}
            if len(group.faces) >= group.size:
                continue
            out.update((rank, s) for s in _set_suits(group, p)
                       if not (p.distinct_suits and s in suits))
        else:
            suit, start = group.label
            if not suit:
                continue
            ranks = {f[0] for f in group.faces}  # (the group's faces are all of its suits)
            places = [pos for pos in range(start, start + group.size)
                      if (1 if pos == HIGH_ACE else pos) in ranks]
            if not places:
                continue
            lo, hi = min(places), max(places)
            spare = group.size - (hi - lo + 1)  # the run may grow this far either way
            for pos in range(max(p.min_pos, lo - spare), min(p.max_pos, hi + spare) + 1):
                if pos not in places:
                    out.update((1 if pos == HIGH_ACE else pos, s) for s in RUN_KEYS[suit])
    return frozenset(out)


# a run group's key: a suit, or where runs mix suits "*" (any suit) or a colour
# (`melds.run.one_colour`); the suits each key takes
RUN_KEYS: dict[str, tuple[str, ...]] = {**{s: (s,) for s in SUITS}, "*": SUITS,
                                        **COLOUR_SUITS}


def _set_suits(group: _Group, p) -> tuple[str, ...]:
    """Suits a set group may take: any, or its cards' colour (`melds.set.one_colour`)."""
    if p.set_colour and group.faces:
        return COLOUR_SUITS[colour(group.faces[0][1])]
    return SUITS


def _group(kind: str, label: tuple[Any, ...], faces: tuple[Any, ...], size: int, p) -> _Group:
    have = min(len(faces), size)
    short = size - have
    room = min(short - max(0, p.min_natural - have), p.max_wilds)  # (`melds.max_wilds`)
    if not p.outnumber:
        room = min(room, have)
    return _Group(kind, label, faces, size, short, max(0, room))


def _set_groups(counts: Counter[Any], p, want: int) -> list[_Group]:
    if not want:
        return []
    by_rank: dict[Any, list[tuple[int, str]]] = {}
    for face, n in counts.items():
        copies = 1 if p.distinct_suits else n
        # (sets of one colour: a red and a black group of each rank)
        key = (face[0], colour(face[1])) if p.set_colour else face[0]
        by_rank.setdefault(key, []).extend([face] * copies)
    scored = sorted(by_rank.items(), key=lambda item: (-len(item[1]), -item[0]))
    groups = [_group("set", (faces[0][0], i), tuple(faces[:p.set_min]), p.set_min, p)
              for i, (_key, faces) in enumerate(scored[:want + 2])]
    # a set may have to start from nothing; placeholders that use no cards
    groups += [_group("set", (-1, k), (), p.set_min, p) for k in range(want)]
    return groups


def _run_groups(counts: Counter[Any], p, want: int) -> list[_Group]:
    if not want or p.run_min > p.run_max:
        return []
    length = p.run_min
    lo, hi = p.min_pos, p.max_pos
    groups: list[_Group] = []
    # runs of one suit, or of mixed suits (of one colour, where runs are)
    keys = SUITS if p.same_suit else tuple(COLOUR_SUITS) if p.run_colour else ("*",)
    for suit in keys:
        takes = RUN_KEYS[suit]
        have: dict[int, tuple[int, str]] = {}
        for (rank, s), n in counts.items():
            if s not in takes or n <= 0:
                continue
            for pos in ((1, HIGH_ACE) if rank == ACE else (rank,)):
                if lo <= pos <= hi:
                    have[pos] = (rank, s)
        if not have:
            continue
        windows = []
        for start in range(lo, hi - length + 2):
            faces = tuple(have[q] for q in range(start, start + length) if q in have)
            if faces and len({f for f in faces}) == len(faces):
                windows.append((len(faces), start, faces))
        windows.sort(key=lambda w: (-w[0], w[1]))
        for _have, start, faces in windows[:3]:
            groups.append(_group("run", (suit, start), faces, length, p))
    groups += [_group("run", ("", -k - 10), (), length, p) for k in range(want)]
    return groups


def _colour_opts(counts: Counter[Any], p, want: int
                 ) -> list[tuple[int, int, tuple[_Group, ...]]]:
    """(short, room, groups) of each choice of colours for the contract's `want` groups of
    one colour: a group takes the naturals of its colour (those of another group of the
    same colour after it)."""
    faces = {tint: [f for f, n in sorted(counts.items()) if colour(f[1]) == tint
                    for _ in range(n)] for tint in COLOUR_SUITS}
    opts = []
    for tints in combinations_with_replacement(sorted(COLOUR_SUITS), want):
        taken = dict.fromkeys(COLOUR_SUITS, 0)
        groups = []
        for k, tint in enumerate(tints):
            mine = tuple(faces[tint][taken[tint]:taken[tint] + p.colour_min])
            taken[tint] += len(mine)
            groups.append(_group("colour", (tint, k), mine, p.colour_min, p))
        opts.append((sum(g.short for g in groups), sum(g.room for g in groups),
                     tuple(groups)))
    return opts


def _run_combos(groups: list[_Group], want: int, same_suit: str):
    for combo in combinations(groups, want):
        ok = True
        for a, b in combinations(combo, 2):
            sa, sb = a.label[0], b.label[0]
            if not sa or not sb or sa != sb:
                continue
            if same_suit == "forbidden":
                ok = False
                break
            first, second = sorted((a.label[1], b.label[1]))
            gap = 1 if same_suit == "separate" else 0
            if second < first + a.size + gap:
                ok = False
                break
        if ok:
            yield combo


def _fill(groups: Sequence[_Group], counts: Counter[Any], wilds: int, p
          ) -> tuple[int, tuple[tuple[int, str], ...]]:
    """Missing cards when `groups` take natural cards in this order, wilds filling gaps."""
    left = Counter(counts)
    used: list[tuple[int, str]] = []
    missing_total = 0
    wild_room = 0
    for group in groups:
        got = 0
        for face in group.faces:
            if left[face] > 0:
                left[face] -= 1
                used.append(face)
                got += 1
        if group.kind == "set" and not p.distinct_suits and group.label[0] > 0:
            # sets of any suits may take more copies of the rank
            rank = group.label[0]
            suits = _set_suits(group, p)
            for face in list(left):
                while got < group.size and face[0] == rank and face[1] in suits \
                        and left[face] > 0:
                    left[face] -= 1
                    used.append(face)
                    got += 1
        short = max(0, group.size - got)
        natural_short = max(0, p.min_natural - got)
        room = min(short - natural_short, p.max_wilds)
        if not p.outnumber:
            room = min(room, got)
        missing_total += short
        wild_room += max(0, room)
    return missing_total - min(wilds, wild_room), tuple(used)
