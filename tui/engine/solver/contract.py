"""Laying down a contract: the exact search behind `solver.find_contract`, and the check
the engine runs on a player's own lay-down (`contract_melds_ok`).

A contract is a fixed number of sets and runs laid down together, with rules tying them
(sets of different ranks; runs of different suits, or of one suit only when apart).  The
search picks that many *cores* of natural cards (a wild-rank card may act as a natural),
then shares the wilds out: each core needs some and can take so many more.  It keeps the
lay-down that melds the most points (the rest stays in hand), pruning a branch only when
even its best case cannot beat the best lay-down found.

Hands grown far beyond the deal (many bought cards, as in Shanghai's last contracts) can
hold so many ways to choose the cores that the exact search would take seconds; after
`STEPS` steps it settles for the best lay-down found so far, or the first one it finds
(so a lay-down is never missed, only perhaps not the very best).  Real hands stay far
below that.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from ..cards import HIGH_ACE, RANK_NAMES, SUITS, Card
from ..contract_options import option_rulesets
from ..meld import Meld
from ..meld_params import COLOUR_SUITS, colour
from ..meld_rules import (
    MeldError,
    MeldParams,
    card_penalty,
    meld_params,
    run_positions_of,
    validate_meld,
)
from ..rules import Ruleset
from .context import SearchTooBig, spend, work_budget
from .contract_colours import search_with_colours

STEPS = 20_000  # search steps before the best found so far is taken
Core = tuple[Any, ...]  # (kind, faces (face ids), places, t, need, cap, value, key, least, most)


def slot_sizes(rules: Ruleset, round_no: int, kind: str) -> list[tuple[int, int]]:
    """(fewest, most cards) of each `kind` meld of the round's contract, largest first:
    sizes given per meld or `melds.*.min`, and exactly that with `contract.exact_size`."""
    p = meld_params(rules, round_no)
    contract = rules.round(round_no).contract
    default, most = (p.set_min, p.set_max) if kind == "set" else (
        (p.run_min, p.run_max) if kind == "run" else (p.colour_min, p.colour_max))
    return [(size, size if rules.exact_size(round_no) else most)
            for size in contract.sizes(kind, default)]


def set_slots(rules: Ruleset, round_no: int) -> list[tuple[int, int, int | None]]:
    """(fewest, most cards, rank or None) of each set of the round's contract, largest
    first: like `slot_sizes`, with the rank a set must be of where the contract names one."""
    p = meld_params(rules, round_no)
    contract = rules.round(round_no).contract
    return [(size, size if rules.exact_size(round_no) else p.set_max, rank)
            for size, rank in contract.set_slots(p.set_min)]


def _sets_fill_slots(sets: Sequence[Meld], slots: Sequence[tuple[int, int, int | None]]
                     ) -> bool:
    """Whether each set can be matched to its own slot (size within the slot's bounds,
    rank the slot's if it names one): a small bipartite matching."""
    def fits(meld: Meld, slot: tuple[int, int, int | None]) -> bool:
        least, most, rank = slot
        return least <= len(meld.cards) <= most and rank in (None, meld.rank)

    holder: list[int | None] = [None] * len(slots)  # the set filling each slot

    def place(i: int, seen: set[int]) -> bool:
        for j, slot in enumerate(slots):
            if j in seen or not fits(sets[i], slot):
                continue
            seen.add(j)
            other = holder[j]
            if other is None or place(other, seen):
                holder[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(sets)))


_SLOT_PARAMS: dict[tuple[str, int, int], tuple[MeldParams, MeldParams]] = {}


def contract_melds_ok(melds: Sequence[Meld], rules: Ruleset, round_no: int) -> str | None:
    """Why these melds are not the round's contract (count, kinds, sizes, ranks, suits);
    None if they are.  The melds themselves are assumed valid (see `make_meld`)."""
    contract = rules.round(round_no).contract
    if not contract.required:
        return "this round has no contract to lay down"
    if contract.alternatives:
        return _any_pattern_ok(melds, rules, round_no)
    sets = [m for m in melds if m.kind == "set"]
    runs = [m for m in melds if m.kind == "run"]
    colours = [m for m in melds if m.kind == "colour"]
    if (len(sets), len(runs), len(colours)) != (contract.sets, contract.runs,
                                                contract.colours):
        return (f"the contract is {contract.describe()}; these melds are "
                f"{_describe_counts(len(sets), len(runs), len(colours))}")
    if contract.set_ranks:
        if not _sets_fill_slots(sets, set_slots(rules, round_no)):
            got = ", ".join(f"{len(m.cards)} {RANK_NAMES[m.rank]}s" for m in sets)
            return (f"the contract is {contract.describe()}; these sets are {got} "
                    "(a set of a named rank must be of that rank)")
    for kind, group in (("set", [] if contract.set_ranks else sets), ("run", runs),
                        ("colour", colours)):
        slots = slot_sizes(rules, round_no, kind)
        if not group:
            continue
        lengths = sorted((len(m.cards) for m in group), reverse=True)
        # the longest meld takes the largest size, and so on down
        if any(not least <= length <= most
               for length, (least, most) in zip(lengths, slots, strict=True)):
            wanted = ", ".join(str(least) for least, _ in slots)
            exact = rules.exact_size(round_no)
            what = "groups of one colour" if kind == "colour" else f"{kind}s"
            return (f"the contract's {what} must have {'exactly' if exact else 'at least'} "
                    f"{wanted} cards; these have {', '.join(map(str, lengths))} "
                    f"({'contract.exact_size' if exact else 'the contract sizes'})")
    if not rules.contract.sets_same_rank:
        ranks = [m.rank for m in sets]
        if len(set(ranks)) < len(ranks):
            return "the sets of a contract must be of different ranks (contract.sets_same_rank)"
    mode = rules.contract.runs_same_suit
    params = meld_params(rules, round_no)
    if mode != "allowed" and params.same_suit:
        gap = rules.contract.same_suit_gap
        for i, a in enumerate(runs):
            for b in runs[i + 1:]:
                if a.suit != b.suit:
                    continue
                if mode == "forbidden":
                    return ("the runs of a contract must be of different suits "
                            "(contract.runs_same_suit)")
                if _too_close(_run_places(a, params), _run_places(b, params), params.wrap,
                              gap):
                    between = ("touch, joining up into one run" if gap == 1
                               else f"have fewer than {gap} ranks between them")
                    return (f"runs of one suit in a contract must be separate melds: these "
                            f"{between} (contract.runs_same_suit, contract.same_suit_gap)")
    return None


def _any_pattern_ok(melds: Sequence[Meld], rules: Ruleset, round_no: int) -> str | None:
    """A contract of several patterns (`contract.any_of`): None if the melds make one;
    else why not, told for the pattern of as many sets and runs as the melds if there is
    one (its sizes or suits are wrong), or else for all of them."""
    reasons = []
    sets = sum(1 for m in melds if m.kind == "set")
    colours = sum(1 for m in melds if m.kind == "colour")
    runs = len(melds) - sets - colours
    for option in option_rulesets(rules, round_no):
        reason = contract_melds_ok(melds, option, round_no)
        if reason is None:
            return None
        pattern = option.round(round_no).contract
        if (pattern.sets, pattern.runs, pattern.colours) == (sets, runs, colours):
            return reason
        reasons.append(reason)
    return (f"the contract is {rules.round(round_no).contract.describe()}; these melds are "
            f"{_describe_counts(sets, runs, colours)}")


def _describe_counts(sets: int, runs: int, colours: int = 0) -> str:
    parts = [f"{sets} set{'s' if sets != 1 else ''}", f"{runs} run{'s' if runs != 1 else ''}"]
    if colours:
        parts.append(f"{colours} group{'s' if colours != 1 else ''} of one colour")
    return " + ".join(parts)


def _run_places(meld: Meld, params: MeldParams) -> set[int]:
    places = {face[0] for face in meld.stands_for}
    if params.wrap:
        return {1 if q == HIGH_ACE else q for q in places}
    return places


def _too_close(a: set[int], b: set[int], wrap: bool, gap: int = 1) -> bool:
    """Two same-suit runs that are not separate melds: they share no place (runs that do,
    from two decks, are plainly two melds) and fewer than `gap` empty places lie between
    them (gap 1: they touch, and would join up into one run; K and A touch when runs
    wrap)."""
    if a & b:
        return False
    for q in a:
        for r in b:
            d = abs(q - r)
            if wrap:
                d = min(d, 13 - d)
            if d <= gap:
                return True
    return False


# --------------------------------------------------------------------------------------------
# the search


def search_contract(hand: list[Card], rules: Ruleset, round_no: int, whole_hand: bool,
                    must_include: Card | None = None, first_found: bool = False
                    ) -> tuple[list[Meld], list[Card]] | None:
    """(contract melds, cards left in hand) leaving the fewest points; None if no lay-down.

    `must_include`: only lay-downs that meld this physical card count (a card taken from
    deep in the discard pile).  `first_found`: any lay-down will do (a yes/no question)."""
    contract = rules.round(round_no).contract
    if not contract.required:
        return None
    if contract.alternatives:  # any one pattern: the lay-down leaving the fewest points
        best: tuple[int, tuple[list[Meld], list[Card]]] | None = None
        for option in option_rulesets(rules, round_no):
            found = search_contract(hand, option, round_no, whole_hand, must_include,
                                    first_found)
            if found is None:
                continue
            if first_found:
                return found
            left = sum(card_penalty(card, rules, round_no) for card in found[1])
            if best is None or left < best[0]:
                best = (left, found)
        return None if best is None else best[1]
    try:
        with work_budget():
            if contract.colours:  # groups of one colour first, then the sets and runs
                return search_with_colours(hand, rules, round_no, whole_hand, must_include,
                                           first_found, slot_sizes(rules, round_no, "colour"),
                                           search_contract)
            return _Search(hand, rules, round_no, whole_hand, must_include, first_found).run()
    except SearchTooBig:
        return None  # past the work budget: no lay-down can be offered (conservative)


class _Search:
    def __init__(self, hand: list[Card], rules: Ruleset, round_no: int, whole_hand: bool,
                 must_include: Card | None = None, first_found: bool = False):
        self.rules = rules
        self.first_found = first_found
        self.steps = 0
        self.round_no = round_no
        self.p: MeldParams = meld_params(rules, round_no)
        self.contract = rules.round(round_no).contract
        self.whole_hand = whole_hand
        self.same_rank = rules.contract.sets_same_rank
        self.suit_mode = rules.contract.runs_same_suit if self.p.same_suit else "allowed"
        self.gap = rules.contract.same_suit_gap
        # wild totals of same-suit runs laid out apart
        self.layouts: dict[tuple[Any, ...], int] = {}
        p = self.p
        self.nat_min = max(1, p.min_natural)
        self.hand = hand
        # faces: distinct (rank, suit) with counts; which are wild; which can be natural
        self.faces: list[tuple[int, str]] = []
        self.count: list[int] = []
        self.cards_of: list[list[Card]] = []
        index: dict[tuple[int, str], int] = {}
        for card in hand:
            f = index.get(card.face)
            if f is None:
                f = index[card.face] = len(self.faces)
                self.faces.append(card.face)
                self.count.append(0)
                self.cards_of.append([])
            self.count[f] += 1
            self.cards_of[f].append(card)
        self.value = [card_penalty(Card(r, s), rules, round_no) for r, s in self.faces]
        self.wild = [r in p.wild_ranks for r, s in self.faces]
        self.dead = [r == 0 and not w for (r, s), w in zip(self.faces, self.wild, strict=True)]
        self.total_wilds = sum(c for c, w in zip(self.count, self.wild, strict=True) if w)
        self.total_value = sum(c * v for c, v in zip(self.count, self.value, strict=True))
        self.allwild_ok = p.min_natural == 0  # (the wild ratio limits melds with naturals)
        # a wild-rank card may act as a natural in a core
        core_face = [not w or p.wild_natural for w in self.wild]
        # faces a core may hold: no dead jokers, wild-rank cards only as naturals
        self.core_faces = [f for f, ok in enumerate(core_face) if ok and not self.dead[f]]
        self.must: int | None = None
        self.must_card = must_include
        self.must_natural = False  # the card to meld must be in a core (it is no wild)
        if must_include is not None:
            self.must = index[must_include.face]
            self.must_natural = not self.wild[self.must]
            # cores take their physical cards from the end of the list: this one first
            copies = self.cards_of[self.must]
            copies.sort(key=lambda c: c.uid == must_include.uid)

    # -- candidate cores ----------------------------------------------------------------

    def set_cores(self, least: int, most: int, fixed: int | None = None) -> list[Core]:
        """Set cores of `least` to `most` cards; of rank `fixed` only, if given."""
        p = self.p
        out: list[Core] = []
        by_rank: dict[int, list[int]] = {}
        for f in self.core_faces:
            by_rank.setdefault(self.faces[f][0], []).append(f)
        most_wilds = p.max_wilds
        one_colour = p.set_colour  # (`melds.set.one_colour`)
        for rank in range(1, 14) if fixed is None else (fixed,):
            fs = by_rank.get(rank)
            if not fs:
                continue
            limits = [1 if p.distinct_suits else self.count[f] for f in fs]
            for combo in _multisets(fs, limits):
                t = len(combo)
                if t < self.nat_min or t > most:
                    continue
                if one_colour and len({colour(self.faces[f][1]) for f in combo}) > 1:
                    continue
                need = max(0, least - t)
                cap = most - t
                if cap > most_wilds:
                    cap = most_wilds
                if not p.outnumber and cap > t:
                    cap = t
                if need > cap or need > self.total_wilds:
                    continue
                value = sum(self.value[f] for f in combo)
                out.append(("set", tuple(combo), (), t, need, cap, value, rank, least, most))
        if self.allwild_ok and least <= min(most, self.total_wilds, p.max_wilds):
            out.append(("set", (), (), 0, least, min(most, p.max_wilds), 0, fixed, least,
                        most))
        return out

    def run_cores(self, least: int, most: int) -> list[Core]:
        p = self.p
        out: list[Core] = []
        if least > most:
            return out
        most_wilds = p.max_wilds
        # runs of mixed suits: one "suit" of every card, or one of each colour
        for suit in (SUITS if p.same_suit else tuple(COLOUR_SUITS) if p.run_colour
                     else ("*",)):
            if p.run_colour:
                fs = [f for f in self.core_faces
                      if self.faces[f][0] != 0 and colour(self.faces[f][1]) == suit]
            else:
                fs = [f for f in self.core_faces
                      if self.faces[f][0] != 0 and suit in (self.faces[f][1], "*")]
            if not fs:
                continue
            # each face once per run; aces take each place they may
            options: list[tuple[int, int]] = []  # (place, face)
            for f in fs:
                for q in run_positions_of(self.faces[f][0], p):
                    options.append((q, f))
            options.sort()
            for chosen in _run_subsets(options, p, self.total_wilds, most):
                faces = tuple(f for _, f in chosen)
                if len(set(faces)) < len(faces):
                    continue
                places = tuple(q for q, _ in chosen)
                t = len(chosen)
                if t < self.nat_min:
                    continue
                span = _span(places, p.wrap)
                if span > most:
                    continue
                length = max(span, least)
                need = length - t
                cap = most - t
                if cap > most_wilds:
                    cap = most_wilds
                if not p.outnumber and cap > t:
                    cap = t
                if need > cap or need > self.total_wilds:
                    continue
                value = sum(self.value[f] for f in faces)
                out.append(("run", faces, places, t, need, cap, value, suit, least, most))
        if self.allwild_ok and least <= min(most, self.total_wilds, p.max_wilds):
            out.append(("run", (), (), 0, least, min(most, p.max_wilds), 0, None, least,
                        most))
        return out

    # -- search -------------------------------------------------------------------------

    def run(self) -> tuple[list[Meld], list[Card]] | None:
        if self.whole_hand and any(d and c for d, c in zip(self.dead, self.count, strict=True)):
            return None
        # one stage per distinct meld size of the contract, runs first
        picks = []
        stages: list[tuple[str, Any, list[Any]]] = [
            ("run", self.run_cores, slot_sizes(self.rules, self.round_no, "run")),
            ("set", self.set_cores, set_slots(self.rules, self.round_no))]
        for kind, make, slots in stages:
            # (run slots are (fewest, most); set slots add a rank, which may be None)
            for slot in sorted(set(slots), key=lambda s: (s[0], s[1], s[-1] or 0
                                                           if len(s) > 2 else 0),
                               reverse=True):
                cores = sorted(make(*slot), key=lambda c: -c[6])
                picks.append((kind, cores, slots.count(slot)))
        wild_values = sorted((v for f, v in enumerate(self.value) if self.wild[f]
                              for _ in range(self.count[f])), reverse=True)
        self.best_value = self.total_value - 1 if self.whole_hand else -1
        self.best: tuple[Any, ...] | None = None
        self.wild_total = sum(wild_values)
        # suffix maxima of core values for the bound, per stage
        self.suffix_max = []
        for _, cands, _ in picks:
            best_from = [0] * (len(cands) + 1)
            for i in range(len(cands) - 1, -1, -1):
                best_from[i] = max(best_from[i + 1], cands[i][6])
            self.suffix_max.append(best_from)
        # with a natural card that must be melded: whether any core from here on holds it
        self.must_from = []
        for _, cands, _ in picks:
            holds = [False] * (len(cands) + 1)
            for i in range(len(cands) - 1, -1, -1):
                holds[i] = holds[i + 1] or self.must in cands[i][1]
            self.must_from.append(holds)
        # per stage, for the bound: the best the later stages could add, and whether any
        # of their cores holds the card that must be melded
        self.later_best = [sum(picks[k][2] * self.suffix_max[k][0]
                               for k in range(stage + 1, len(picks)))
                           for stage in range(len(picks) + 1)]
        self.must_later = [any(picks[k][2] and self.must_from[k][0]
                               for k in range(stage + 1, len(picks)))
                           for stage in range(len(picks) + 1)]
        counts = list(self.count)
        self._dfs(picks, 0, 0, 0, [], counts, 0)
        if self.best is None:
            return None
        return self._build(*self.best)

    def _dfs(self, picks: Any, stage: int, start: int, taken: int, chosen: list[Any],
             counts: list[int], value: int) -> None:
        spend(1)
        self.steps += 1
        if self.steps == STEPS:  # enough: the best so far, or the first found, will do
            self.first_found = True
            if self.best is not None:
                self.best_value = 1 << 62
        if stage == len(picks):
            self._leaf(chosen, counts, value)
            return
        kind, cands, wanted = picks[stage]
        if taken == wanted:
            self._dfs(picks, stage + 1, 0, 0, chosen, counts, value)
            return
        if self.must_natural and not self._melds_must(chosen) and not (
                self.must_from[stage][start]
                or self.must_later[stage]):
            return  # no core left to choose could meld the card that must be melded
        # optimistic bound: the best cores still possible, and every wild melded
        left_here = wanted - taken
        later_best = self.later_best[stage]
        bound = value + self.wild_total + left_here * self.suffix_max[stage][start] + later_best
        bound = min(bound, value + sum(
            c * v for c, v in zip(counts, self.value, strict=True)))
        if bound <= self.best_value:
            return
        for i in range(start, len(cands)):
            core = cands[i]
            if value + self.wild_total + left_here * core[6] + later_best <= self.best_value:
                break  # cores are sorted by value: no later one does better
            if not self._fits(core, chosen, counts):
                continue
            for f in core[1]:
                counts[f] -= 1
            chosen.append(core)
            self._dfs(picks, stage, i, taken + 1, chosen, counts, value + core[6])
            chosen.pop()
            for f in core[1]:
                counts[f] += 1

    def _fits(self, core: Core, chosen: list[Any], counts: list[int]) -> bool:
        need: dict[int, int] = {}
        for f in core[1]:
            need[f] = need.get(f, 0) + 1
        if any(counts[f] < k for f, k in need.items()):
            return False
        if core[4] + sum(other[4] for other in chosen) > self.total_wilds:
            return False  # the cores would need more wilds than the hand holds
        kind, key = core[0], core[7]
        if key is None:
            return True
        same = []
        for other in chosen:
            if other[0] != kind or other[7] != key:
                continue
            if kind == "set" and not self.same_rank:
                return False
            if kind == "run" and self.suit_mode == "forbidden":
                return False
            same.append(other)
        # runs of one suit that must be separate melds: can they be laid out with their
        # wilds (runs may overlap; those that do not need the gap between them)?
        return not same or kind != "run" or self.suit_mode != "separate" or bool(
            self._layouts_of([*same, core]))

    def _layouts_of(self, runs: list[Core]) -> int:
        """Wild totals with which these same-suit runs can be laid out as separate melds
        (the same runs meet again and again down the search: each group is laid out
        once)."""
        key = tuple(sorted((core[2], core[3], core[8], core[9]) for core in runs))
        got = self.layouts.get(key)
        if got is None:
            got = self.layouts[key] = _separate_layouts(runs, self.p, self.gap)
        return got

    def _melds_must(self, chosen: list[Any]) -> bool:
        """Whether a chosen core holds the card that must be melded."""
        return any(self.must in core[1] for core in chosen)

    def _leaf(self, chosen: list[Any], counts: list[int], value: int) -> None:
        if self.must_natural and not self._melds_must(chosen):
            return
        if self.whole_hand and any(c and not w for c, w in zip(counts, self.wild, strict=True)):
            return
        pool = sorted((self.value[f] for f, c in enumerate(counts) if self.wild[f] and c
                       for _ in range(c)), reverse=True)
        # all-wild melds take a rank / suit no other contract meld of their kind uses
        used_ranks = {c[7] for c in chosen if c[0] == "set" and c[7] is not None}
        used_suits = {c[7] for c in chosen if c[0] == "run" and c[7] is not None}
        free_sets = sum(1 for c in chosen if c[0] == "set" and c[7] is None)
        free_runs = sum(1 for c in chosen if c[0] == "run" and c[7] is None)
        if free_sets and not self.same_rank and free_sets > 13 - len(used_ranks):
            return
        if free_runs and self.suit_mode != "allowed" and free_runs > 4 - len(used_suits):
            return
        masks, groups = self._wild_options(chosen)
        if masks is None:
            return
        reach = [1]
        for m in masks:
            reach.append(_sumset(reach[-1], m))
        total = reach[-1]
        if self.whole_hand:
            if not total >> len(pool) & 1:
                return
            x = len(pool)
        else:
            x = _top_bit(total & ((1 << (len(pool) + 1)) - 1))
            if x < 0:
                return
        if self.must is not None and x < 1 and not self._melds_must(chosen):
            return  # the wild that must be melded is not: no wild is
        got = value + sum(pool[:x])
        if got > self.best_value:
            self.best_value = got
            self.best = (list(chosen), list(counts), masks, reach, groups, x)
            if self.first_found:
                self.best_value = 1 << 62  # nothing can beat it: the search winds down

    def _wild_options(self, chosen: list[Any]) -> tuple[Any, Any]:
        """Per core (or per group of same-suit runs that must stay apart): the bitmask of
        wild counts it can take.  (None, None) if a group cannot be laid out."""
        masks: list[int] = []
        groups: list[tuple[str, list[int]]] = []
        by_suit: dict[str, list[int]] = {}
        for i, core in enumerate(chosen):
            if core[0] == "run" and self.suit_mode == "separate" and core[7] is not None:
                by_suit.setdefault(core[7], []).append(i)
        grouped = {i for members in by_suit.values() if len(members) > 1 for i in members}
        for i, core in enumerate(chosen):
            if i in grouped:
                continue
            need, cap = core[4], min(core[5], self.total_wilds)
            masks.append(((1 << (cap + 1)) - 1) ^ ((1 << need) - 1))
            groups.append(("core", [i]))
        for members in by_suit.values():
            if len(members) < 2:
                continue
            got = self._layouts_of([chosen[i] for i in members])
            if not got:
                return None, None
            masks.append(got)
            groups.append(("group", members))
        return masks, groups

    # -- build ----------------------------------------------------------------------------

    def _build(self, chosen: Any, counts: Any, masks: Any, reach: Any, groups: Any,
               x: Any) -> tuple[list[Meld], list[Card]]:
        p = self.p
        # wild counts per group, from the last group back
        per_group = [0] * len(masks)
        remaining = x
        for g in range(len(masks) - 1, -1, -1):
            for w in range(remaining, -1, -1):
                if masks[g] >> w & 1 and reach[g] >> (remaining - w) & 1:
                    per_group[g] = w
                    remaining -= w
                    break
        # physical cards: naturals per face, then the wilds most valuable first
        stock = [list(cards) for cards in self.cards_of]
        core_cards: list[list[Card]] = []
        for core in chosen:
            core_cards.append([stock[f].pop() for f in core[1]])
        pool_cards = sorted((c for f, cs in enumerate(stock) if self.wild[f] for c in cs),
                            key=lambda c: -card_penalty(c, self.rules, self.round_no))
        must = self.must_card
        if must is not None and must in pool_cards and not any(c.uid == must.uid
                                                                for cs in core_cards for c in cs):
            pool_cards.sort(key=lambda c: c.uid != must.uid)  # meld it among the wilds
        melded_wilds = pool_cards[:x]
        rest = [c for f, cs in enumerate(stock) if not self.wild[f] for c in cs]
        rest += pool_cards[x:]
        used_ranks = {c[7] for c in chosen if c[0] == "set" and c[7] is not None}
        used_suits = {c[7] for c in chosen if c[0] == "run" and c[7] is not None}
        melds: list[Meld] = [None] * len(chosen)  # type: ignore[list-item]
        for (what, members), w in zip(groups, per_group, strict=True):
            if what == "core":
                i = members[0]
                wilds = melded_wilds[:w]
                del melded_wilds[:w]
                melds[i] = self._meld(chosen[i], core_cards[i], wilds, None, used_ranks,
                                      used_suits)
            else:
                layouts = _separate_layout_for([chosen[i] for i in members], p, w, self.gap)
                for i, (lo, hi) in zip(members, layouts, strict=True):
                    span = (hi - lo) % 13 + 1 if p.wrap else hi - lo + 1  # Q-K-A: 12..1
                    k = span - chosen[i][3]
                    wilds = melded_wilds[:k]
                    del melded_wilds[:k]
                    melds[i] = self._meld(chosen[i], core_cards[i], wilds, (lo, hi),
                                          used_ranks, used_suits)
        return melds, rest

    def _slot_params(self, kind: str, least: int, most: int) -> MeldParams:
        """The meld rules a contract meld of this size is built by (kept: building one
        costs more than the meld)."""
        p = self.p
        if (least, most) == ((p.set_min, p.set_max) if kind == "set" else (p.run_min, p.run_max)):
            return p
        key = (kind, least, most)
        hit = _SLOT_PARAMS.get(key)
        if hit is None or hit[0] is not p:
            made = (replace(p, set_min=least, set_max=most) if kind == "set"
                    else replace(p, run_min=least, run_max=most))
            if len(_SLOT_PARAMS) > 64:
                _SLOT_PARAMS.clear()
            hit = _SLOT_PARAMS[key] = (p, made)
        return hit[1]

    def _meld(self, core: Core, naturals: list[Card], wilds: list[Card],
              span: tuple[int, int] | None, used_ranks: set[Any], used_suits: set[Any]) -> Meld:
        kind = core[0]
        p = self.p
        p = self._slot_params(kind, core[8], core[9])
        fixed: list[Any] = []
        if kind == "set":
            rank = core[7]
            if rank is None:
                rank = next(r for r in range(13, 0, -1) if r not in used_ranks)
                used_ranks.add(rank)
            fixed = [(rank, c.suit) for c in naturals]
            fixed += [None if naturals else (rank, "") for _ in wilds]
            if p.distinct_suits and not naturals:  # all wild: of the rank given or free
                fixed = [(rank, s) for s, _ in zip(COLOUR_SUITS["black"] if p.set_colour
                                                   else SUITS, wilds, strict=False)]
        else:
            suit = core[7]
            places = list(core[2])
            if suit is None:
                suit = next(s for s in reversed(SUITS) if s not in used_suits)
                used_suits.add(suit)
                if not p.same_suit:
                    suit = ""
                lo = p.min_pos
                fixed = [((lo + k - 1) % 13 + 1 if p.wrap else lo + k, suit)
                         for k in range(len(wilds))]
            else:
                fixed = [(q, c.suit) for q, c in zip(places, naturals, strict=True)]
                if suit == "*" or suit in COLOUR_SUITS:
                    suit = ""  # runs of mixed suits: a wild stands for a place only
                if span is None:
                    fixed += [None] * len(wilds)
                else:
                    lo, hi = span
                    taken = {q if not p.wrap else (q - 1) % 13 + 1 for q in places}
                    free = [q for q in (_wrap_range(lo, hi) if p.wrap else range(lo, hi + 1))
                            if q not in taken]
                    fixed += [(q, suit) for q in free]
        cards = list(naturals) + list(wilds)
        try:
            return validate_meld(cards, fixed, p, kind, "")
        except MeldError as exc:  # pragma: no cover - the search only builds legal melds
            raise AssertionError(f"contract search built an illegal meld: {exc}") from exc


def _wrap_range(lo: int, hi: int) -> list[int]:
    """Places lo..hi going round (hi may be below lo)."""
    out = [lo]
    q = lo
    while q != hi:
        q = q % 13 + 1
        out.append(q)
    return out


def _multisets(faces: list[int], limits: list[int]) -> Iterator[tuple[int, ...]]:
    """Every non-empty multiset of faces within per-face limits, as tuples."""
    def rec(i: int, acc: tuple[int, ...]) -> Iterator[Any]:
        if i == len(faces):
            if acc:
                yield acc
            return
        for k in range(limits[i] + 1):
            yield from rec(i + 1, acc + (faces[i],) * k)
    yield from rec(0, ())


def _run_subsets(options: list[tuple[int, int]], p: MeldParams, budget: int,
                 most: int) -> Iterator[Any]:
    """Subsets of (place, face) pairs with distinct places that a run of at most `most`
    cards could hold with at most `budget` wilds in its gaps."""
    n = len(options)
    if p.wrap:
        # small: every subset, filtered by span afterwards
        def rec_all(i: int, acc: tuple[Any, ...], places: frozenset[Any]) -> Iterator[Any]:
            if i == n:
                if acc and _span(tuple(q for q, _ in acc), True) - len(acc) <= budget:
                    yield acc
                return
            yield from rec_all(i + 1, acc, places)
            q = options[i][0]
            if q not in places:
                yield from rec_all(i + 1, acc + (options[i],), places | {q})
        yield from rec_all(0, (), frozenset())
        return

    def rec(i: int, acc: tuple[Any, ...]) -> Iterator[Any]:
        if acc:
            yield acc
        for j in range(i, n):
            q = options[j][0]
            if acc:
                last = acc[-1][0]
                if q <= last:
                    continue
                first = acc[0][0]
                if q - first + 1 > most or (q - first + 1) - (len(acc) + 1) > budget:
                    break
            yield from rec(j + 1, acc + (options[j],))
    yield from rec(0, ())


def _span(places: tuple[int, ...], wrap: bool) -> int:
    if not places:
        return 0
    if not wrap:
        return max(places) - min(places) + 1
    ring = sorted({(q - 1) % 13 + 1 for q in places})
    if len(ring) == 1:
        return 1
    widest = max((ring[(k + 1) % len(ring)] + (13 if k == len(ring) - 1 else 0)) - ring[k]
                 for k in range(len(ring)))
    return 13 - widest + 1


def _sumset(a: int, b: int) -> int:
    out = 0
    k = 0
    while b:
        if b & 1:
            out |= a << k
        b >>= 1
        k += 1
    return out


def _top_bit(mask: int) -> int:
    return mask.bit_length() - 1


def _placements(core: Core, p: MeldParams, lo_bound: int, hi_bound: int,
                mapping: Any = None) -> list[Any]:
    """Every (lo, hi) a run core can occupy within [lo_bound, hi_bound]."""
    places = [mapping(q) for q in core[2]] if mapping else list(core[2])
    if any(q is None for q in places):
        return []
    lo_c, hi_c, t = min(places), max(places), core[3]
    most_wilds = p.max_wilds if p.outnumber or t > p.max_wilds else t
    out = []
    for lo in range(lo_bound, lo_c + 1):
        for hi in range(hi_c, hi_bound + 1):
            length = hi - lo + 1
            wilds = length - t
            if length < core[8] or length > core[9]:
                continue
            if wilds < 0 or wilds > most_wilds:
                continue
            if lo == 1 and hi == HIGH_ACE:
                continue
            out.append((lo, hi, wilds))
    return out


def _linear_layouts(cores: list[Core], p: MeldParams, lo_bound: int, hi_bound: int,
                    mapping: Any=None, gap: int = 1) -> tuple[Any, Any]:
    """DP over runs ordered by place: reachable wild totals (bitmask), with the layouts.
    Runs may share places (two decks); runs that do not need `gap` empty places between."""
    places_of = [[mapping(q) if mapping else q for q in core[2]] for core in cores]
    if any(None in ps for ps in places_of):
        return 0, None
    order = sorted(range(len(cores)), key=lambda i: min(places_of[i]))
    # state: the (lo, hi) of the runs laid out so far -> {total wilds: layout list}
    states: dict[tuple[tuple[int, int], ...], dict[int, list[Any]]] = {(): {0: []}}
    for i in order:
        opts = _placements(cores[i], p, lo_bound, hi_bound, mapping)
        new: dict[tuple[tuple[int, int], ...], dict[int, list[Any]]] = {}
        for placed, totals in states.items():
            for lo, hi, w in opts:
                if any(0 < low - hi <= gap or 0 < lo - h <= gap for low, h in placed):
                    continue
                bucket = new.setdefault(tuple(sorted((*placed, (lo, hi)))), {})
                for tot, layout in totals.items():
                    if tot + w not in bucket:
                        bucket[tot + w] = layout + [(i, lo, hi)]
        states = new
        if not states:
            return 0, None
    reach: dict[int, list[Any]] = {}
    for totals in states.values():
        for tot, layout in totals.items():
            reach.setdefault(tot, layout)
    mask = 0
    for tot in reach:
        mask |= 1 << tot
    return mask, reach


def _separate_layouts(cores: list[Core], p: MeldParams, gap: int = 1) -> int:
    """Bitmask of wild totals with which same-suit runs can be laid out apart."""
    mask = 0
    for _, m, _ in _layout_variants(cores, p, gap):
        mask |= m
    return mask


def _layout_variants(cores: list[Core], p: MeldParams, gap: int = 1) -> Iterator[Any]:
    if not p.wrap:
        m, reach = _linear_layouts(cores, p, p.min_pos, p.max_pos, gap=gap)
        if m:
            yield None, m, reach
        return
    # runs that wrap: `gap` places (at least one) stay empty between two of them; cut the
    # circle there and lay the rest out in a line
    block = max(gap, 1)
    for cut in range(1, 14):
        def mapping(q: int, cut: int = cut) -> int | None:
            off = ((q - 1) % 13 + 1 - cut) % 13
            return None if off < block else off - block + 1
        m, reach = _linear_layouts(cores, p, 1, 13 - block, mapping, gap)
        if m:
            yield cut, m, reach


def _separate_layout_for(cores: list[Core], p: MeldParams, total: int,
                         gap: int = 1) -> list[tuple[int, int]]:
    """(lo, hi) per run (in the given order) using exactly `total` wilds."""
    block = max(gap, 1)
    for cut, m, reach in _layout_variants(cores, p, gap):
        if not m >> total & 1:
            continue
        layout = reach[total]
        out: dict[int, tuple[int, int]] = {}
        for i, lo, hi in layout:
            if cut is None:
                out[i] = (lo, hi)
            else:
                out[i] = ((cut + lo + block - 2) % 13 + 1, (cut + hi + block - 2) % 13 + 1)
        return [out[i] for i in range(len(cores))]
    raise AssertionError("no layout with that many wilds")  # pragma: no cover

