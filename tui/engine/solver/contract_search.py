"""Laying down a contract: the exact search behind `solver.find_contract`.

A contract is a fixed number of sets and runs laid down together, with rules tying them
(sets of different ranks; runs of different suits, or of one suit only when apart).  The
search picks that many *cores* of natural cards (a wild-rank card may act as a natural;
`contract_cores`), then shares the wilds out: each core needs some and can take so many
more.  It keeps the lay-down that melds the most points (the rest stays in hand), pruning
a branch only when even its best case cannot beat the best lay-down found.

Hands grown far beyond the deal (many bought cards, as in Shanghai's last contracts) can
hold so many ways to choose the cores that the exact search would take seconds; after
`STEPS` steps it settles for the best lay-down found so far, or the first one it finds
(so a lay-down is never missed, only perhaps not the very best).  Real hands stay far
below that.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..cards import Card
from ..contract_options import option_rulesets
from ..meld import Meld
from ..meld_rules import card_penalty
from ..rules import Ruleset
from .context import SearchTooBig, spend, work_budget
from .contract_build import build_melds
from .contract_colours import search_with_colours
from .contract_cores import run_cores, set_cores
from .contract_hand import ContractHand, Core
from .contract_layouts import separate_layouts
from .contract_slots import set_slots, slot_sizes

STEPS = 20_000  # search steps before the best found so far is taken


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


class _Search(ContractHand):
    def __init__(self, hand: list[Card], rules: Ruleset, round_no: int, whole_hand: bool,
                 must_include: Card | None = None, first_found: bool = False):
        super().__init__(hand, rules, round_no, must_include)
        self.whole_hand = whole_hand
        self.first_found = first_found
        self.steps = 0
        # wild totals of same-suit runs laid out apart
        self.layouts: dict[tuple[Any, ...], int] = {}

    def run(self) -> tuple[list[Meld], list[Card]] | None:
        if self.whole_hand and any(d and c for d, c in zip(self.dead, self.count, strict=True)):
            return None
        # one stage per distinct meld size of the contract, runs first
        picks = []
        stages: list[tuple[str, Any, list[Any]]] = [
            ("run", partial(run_cores, self), slot_sizes(self.rules, self.round_no, "run")),
            ("set", partial(set_cores, self), set_slots(self.rules, self.round_no))]
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
        return build_melds(self, *self.best)

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
            got = self.layouts[key] = separate_layouts(runs, self.p, self.gap)
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
            self.best = (list(chosen), masks, reach, groups, x)
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
