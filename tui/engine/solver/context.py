"""The solver's per-round context: the meld knobs, the weight scheme, and the caches.

Suit tables and set options repeat from hand to hand, so they are kept per ruleset, round
and weight scheme ("penalty": a card left out scores its points; "count": every card left
out costs `BIG` less its points, so fewest cards first, then the dearest discard).  The
caches are bounded together (`CACHE_ENTRIES`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..cards import ACE, HIGH_ACE, Card
from ..meld import Meld
from ..meld_rules import MAX_RUN, UNLIMITED, MeldParams, card_penalty, meld_params
from ..rules import Ruleset

BIG = 1_000_000  # weight scheme "count": every card left out costs BIG minus its value
X = 100  # code offset of a wild-rank card used as a natural
SCAN_ABOVE = 4000  # set choices to enumerate beyond which `solver_scan` is faster

Outcomes = dict[tuple[int, int], tuple[int, tuple[Any, ...]]]

# Steps one search may take (a step is one table entry combined, about half a
# microsecond).  Hands of 20 cards take a few thousand, 26 cards up to about 160,000; a
# hand of forty cards can take millions.  Beyond the
# budget a search stops and its caller answers conservatively (`SearchTooBig`).  Steps are
# counted, not seconds, so the same hand gets the same answer on every machine and in
# every replay.
WORK_BUDGET = 400_000


class SearchTooBig(Exception):
    """A search went past its work budget; nothing it found so far is proven best."""


_work = threading.local()


@contextlib.contextmanager
def work_budget(steps: int = WORK_BUDGET) -> Iterator[None]:
    """Count the steps of the searches inside the block against `steps` (a block inside
    another one shares the outer budget)."""
    outer = getattr(_work, "left", None)
    if outer is not None:
        yield
        return
    _work.left = steps
    try:
        yield
    finally:
        _work.left = None


def spend(steps: int) -> None:
    """Charge `steps` to the running budget; `SearchTooBig` once it is spent."""
    left = getattr(_work, "left", None)
    if left is None:
        return
    left -= steps
    _work.left = left
    if left < 0:
        raise SearchTooBig


@dataclass
class Plan:
    """The best arrangement found (weights per the context's scheme)."""

    cost: int
    melds: list[Meld] = field(default_factory=list)
    deadwood: list[Card] = field(default_factory=list)


class Context:
    """Per ruleset, round and weight scheme: the knobs and the caches that pay off."""

    def __init__(self, rules: Ruleset, round_no: int, scheme: str) -> None:
        self.rules = rules
        self.round_no = round_no
        self.p: MeldParams = meld_params(rules, round_no)
        p = self.p
        self.nat_min = max(1, p.min_natural)
        self.scheme = scheme
        self.weight: dict[int, int] = {}
        for rank in range(0, 14):
            natural = _weigh(rules.value(rank), scheme)
            as_wild = _weigh(card_penalty(Card(rank, "S"), rules, round_no), scheme)
            self.weight[rank] = natural if rank not in p.wild_ranks else as_wild
            self.weight[rank + X] = as_wild
        self.weight[HIGH_ACE] = self.weight[ACE]
        self.weight[HIGH_ACE + X] = self.weight[ACE + X]
        self.runs_possible = p.run_min <= p.run_max
        # the meld rules `solver_fast` assumes for hands with at most one wild
        self.plain = (p.min_natural <= 1 and p.outnumber and not p.wrap and p.same_suit
                      and not p.distinct_suits and p.set_max >= UNLIMITED
                      and p.run_max >= MAX_RUN and p.set_min >= 2 and p.run_min >= 2
                      and p.sets and p.runs and p.max_wilds >= 1 and not p.set_colour)
        # (two cores of one rank hold more wilds than one when wilds per meld are capped)
        # (and where sets are of one colour: a red set and a black one of the same rank)
        self.set_single_core = (p.set_max >= UNLIMITED and not p.distinct_suits
                                and p.max_wilds >= UNLIMITED and not p.set_colour)
        self.suit_memo: dict[int, dict[tuple[int, ...], Outcomes]] = {}
        # The tables below hold tuples of tuples shaped for speed; each module that fills
        # one documents its shape.
        self.table_memo: dict[tuple[int, tuple[int, ...]], Any] = {}
        self.set_memo: dict[tuple[Any, ...], Any] = {}
        self.left_memo: dict[tuple[Any, ...], Any] = {}
        self.rank_memo: dict[tuple[Any, ...], Any] = {}
        self._thresholds: dict[int, int] = {}
        self.cluster_memo: dict[tuple[Any, ...], Any] = {}
        self.plan_memo: dict[tuple[Any, ...], Any] = {}
        self.shape_memo: dict[tuple[Any, ...], Any] = {}  # `solver_fast`: melds per suit, rank
        self.quick_shape: tuple[Any, ...] | None = None  # `solver_quick`: run windows per rank

    def set_threshold(self, budget: int) -> int:
        """Fewest naturals of one rank worth a set core with `budget` wilds in the pool: a
        lone natural plus wilds is never better as a set than as a run when a run of it
        needs no more wilds and can take as many."""
        hit = self._thresholds.get(budget)
        if hit is None:
            p = self.p
            least = max(self.nat_min, p.set_min - budget, 1)
            if least == 1 and self.runs_possible and not p.bounded:  # (every rank has a place)
                set_need, set_cap = max(0, p.set_min - 1), p.set_max - 1
                run_need, run_cap = p.run_min - 1, p.run_max - 1
                if not p.outnumber:
                    set_cap, run_cap = min(set_cap, 1), min(run_cap, 1)
                set_cap, run_cap = min(set_cap, p.max_wilds), min(run_cap, p.max_wilds)
                if (run_need <= set_need and run_need <= run_cap
                        and min(budget, run_cap - run_need) >= min(budget, set_cap - set_need)):
                    least = 2
            hit = self._thresholds[budget] = least
        return hit

    def weigh_card(self, card: Card) -> int:
        return self.weight[card.rank]

    def entries(self) -> int:
        return (sum(len(m) for m in self.suit_memo.values()) + len(self.table_memo)
                + len(self.set_memo) + len(self.left_memo) + len(self.rank_memo)
                + len(self.cluster_memo) + len(self.plan_memo) + len(self.shape_memo))

    def clear(self) -> None:
        for memo in (self.suit_memo, self.table_memo, self.set_memo, self.left_memo,
                     self.rank_memo, self.cluster_memo, self.plan_memo, self.shape_memo):
            memo.clear()


CACHE_ENTRIES = 150_000  # about 75 MB of tables, over every ruleset and round
_solves = 0


def keep_caches_bounded() -> None:
    """Every few hundred solves, drop every table if together they grew too big (a
    long-running server sees an endless variety of hands)."""
    global _solves
    _solves += 1
    if _solves % 256:
        return
    if sum(ctx.entries() for ctx in _CONTEXTS.values()) > CACHE_ENTRIES:
        for ctx in _CONTEXTS.values():
            ctx.clear()


def _weigh(value: int, scheme: str) -> int:
    return BIG - value if scheme == "count" else value


_CONTEXTS: dict[tuple[int, int, str], Context] = {}


def context_for(rules: Ruleset, round_no: int, scheme: str = "penalty") -> Context:
    key = (id(rules), round_no, scheme)
    ctx = _CONTEXTS.get(key)
    if ctx is None or ctx.rules is not rules:
        if len(_CONTEXTS) > 64:
            _CONTEXTS.clear()
        ctx = Context(rules, round_no, scheme)
        _CONTEXTS[key] = ctx
    return ctx


