"""The exact search behind `solver.best_arrangement`: fewest penalty points, never greedy.

How it works, and why it is exact:

* Cards split into *naturals*, the *pool* of wilds, and dead cards (jokers when jokers are
  not wild).  A meld is a *core* of naturals plus some pool wilds; a core needs a least
  number of wilds (gaps, minimum size) and can take at most so many (maximum size, "wilds
  may not outnumber naturals").  So the wilds only matter through two sums over the chosen
  cores: `need` and `slack` (= capacity - need), both at most the pool size P.
* A wild-rank card standing for itself counts as a natural.  When at most one natural is
  required per meld and wilds may outnumber naturals, that only matters for melds made of
  wilds alone (one of them standing for itself); the pool step below handles those.  Under
  stricter count rules every choice of which wild-rank cards act as naturals is tried.
* Sets join suits at one rank; runs live inside one suit.  The search enumerates, rank by
  rank, which naturals go into set cores; every suit's remaining cards are then solved
  independently by a memoised dynamic programme (`_suit_dp`) that yields, for every
  (need, slack) pair, the least deadwood.  Suit patterns repeat between hands, so these
  tables are cached per ruleset and round, and most hands cost a few dictionary look-ups.
* Finally the pool: given total need and slack, the wilds left over go into cores' slack,
  or into melds of wilds alone where the rules allow them, or stay in hand (cheapest first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

from .cards import ACE, JOKER_RANK, Card
from .meld import Meld
from .meld_rules import UNLIMITED, MeldParams, _positions_of, _validate, card_penalty, meld_params
from .rules import Ruleset

BIG = 1_000_000  # weight scheme "count": every card left out costs BIG minus its value
X = 100  # code offset of a wild-rank card used as a natural
HIGH_ACE = 14
SCAN_ABOVE = 4000  # set choices to enumerate beyond which `solver_scan` is faster
LEAVES = 0

Outcomes = dict[tuple[int, int], tuple[int, tuple]]


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
        self.set_single_core = p.set_max >= UNLIMITED and not p.distinct_suits
        self.suit_memo: dict[int, dict[tuple[int, ...], Outcomes]] = {}
        self.table_memo: dict[tuple[int, tuple[int, ...]], tuple] = {}
        self.set_memo: dict[tuple, list] = {}
        self.left_memo: dict[tuple, list] = {}
        self.rank_memo: dict[tuple, tuple] = {}
        self._thresholds: dict[int, int] = {}
        self.cluster_memo: dict[tuple, tuple] = {}
        self.plan_memo: dict[tuple, list] = {}

    def set_threshold(self, budget: int) -> int:
        """Fewest naturals of one rank worth a set core with `budget` wilds in the pool: a
        lone natural plus wilds is never better as a set than as a run when a run of it
        needs no more wilds and can take as many."""
        hit = self._thresholds.get(budget)
        if hit is None:
            p = self.p
            least = max(self.nat_min, p.set_min - budget, 1)
            if least == 1 and self.runs_possible:
                set_need, set_cap = max(0, p.set_min - 1), p.set_max - 1
                run_need, run_cap = p.run_min - 1, p.run_max - 1
                if not p.outnumber:
                    set_cap, run_cap = min(set_cap, 1), min(run_cap, 1)
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
                + len(self.cluster_memo) + len(self.plan_memo))

    def clear(self) -> None:
        for memo in (self.suit_memo, self.table_memo, self.set_memo, self.left_memo,
                     self.rank_memo, self.cluster_memo, self.plan_memo):
            memo.clear()


CACHE_ENTRIES = 150_000  # about 75 MB of tables, over every ruleset and round
_solves = 0


def _keep_caches_bounded() -> None:
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


def context(rules: Ruleset, round_no: int, scheme: str = "penalty") -> Context:
    key = (id(rules), round_no, scheme)
    ctx = _CONTEXTS.get(key)
    if ctx is None or ctx.rules is not rules:
        if len(_CONTEXTS) > 64:
            _CONTEXTS.clear()
        ctx = Context(rules, round_no, scheme)
        _CONTEXTS[key] = ctx
    return ctx


def _pos(code: int) -> int:
    return code % X


def _place_order(code: int) -> tuple[int, int]:
    return (code % X, code)


def _rank_of(code: int) -> int:
    base = code % X
    return ACE if base == HIGH_ACE else base


# --------------------------------------------------------------------------------------------
# runs inside one suit


def _wrap_cores(ctx: Context, budget: int, first: int, rest: tuple[int, ...]):
    """Run cores containing `first` when runs wrap around: arcs of places on a circle."""
    p = ctx.p
    out = []
    fpos = _pos(first)
    others = [(k, code) for k, code in enumerate(rest) if _pos(code) != fpos]
    # every subset with distinct places; suits are small and results are cached
    def rec(m: int, chosen: tuple[int, ...], places: frozenset[int]) -> None:
        if m == len(others):
            t = len(chosen) + 1
            if t < ctx.nat_min:
                return
            span = _circular_span(sorted(places))
            length = max(span, p.run_min)
            if length > p.run_max:
                return
            need = length - t
            cap = p.run_max - t
            if not p.outnumber:
                cap = min(cap, t)
            if need <= cap and need <= budget:
                out.append((chosen, need, min(budget, cap - need)))
            return
        rec(m + 1, chosen, places)
        k, code = others[m]
        q = _pos(code)
        if q not in places and (m == 0 or others[m - 1][1] != code):
            rec(m + 1, chosen + (k,), places | {q})
    rec(0, (), frozenset({fpos}))
    return out


def _circular_span(places: list[int]) -> int:
    if len(places) == 1:
        return 1
    widest = max(
        (places[(k + 1) % len(places)] + (13 if k == len(places) - 1 else 0)) - places[k]
        for k in range(len(places))
    )
    return 13 - widest + 1


def _linear_cores(ctx: Context, budget: int, first: int, rest: tuple[int, ...]):
    """Run cores whose lowest natural is `first`: yields (indices into rest, need, slack)."""
    p = ctx.p
    run_min, run_max, nat_min = p.run_min, p.run_max, ctx.nat_min
    outnumber = p.outnumber
    start = _pos(first)
    out = []
    n_rest = len(rest)

    def rec(j: int, last: int, t: int, chosen: tuple[int, ...]) -> None:
        if t >= nat_min:
            span = last - start + 1
            length = span if span > run_min else run_min
            if length <= run_max:
                need = length - t
                cap = run_max - t
                if not outnumber and cap > t:
                    cap = t
                if need <= cap and need <= budget:
                    slack = cap - need
                    out.append((chosen, need, slack if slack < budget else budget))
        prev = -1
        for k in range(j, n_rest):
            code = rest[k]
            q = code % X
            if q <= last or code == prev:
                continue
            if q - start + 1 > run_max or q - start - t > budget:
                break
            prev = code
            rec(k + 1, q, t + 1, chosen + (k,))

    rec(0, start, 1, ())
    return out


def _suit_dp(ctx: Context, budget: int, items: tuple[int, ...]) -> Outcomes:
    """Least deadwood of one suit's cards for every (need, slack), with back-pointers."""
    memo = ctx.suit_memo.setdefault(budget, {})
    hit = memo.get(items)
    if hit is not None:
        return hit
    if not items:
        res: Outcomes = {(0, 0): (0, ())}
        memo[items] = res
        return res
    first, rest = items[0], items[1:]
    w = ctx.weight[first]
    res = {key: (dw + w, ("d", key)) for key, (dw, _) in _suit_dp(ctx, budget, rest).items()}
    if ctx.runs_possible:
        cores = (_wrap_cores if ctx.p.wrap else _linear_cores)(ctx, budget, first, rest)
        for chosen, need, slack in cores:
            remaining = tuple(c for k, c in enumerate(rest) if k not in chosen)
            for (n2, s2), (dw2, _) in _suit_dp(ctx, budget, remaining).items():
                n = need + n2
                if n > budget:
                    continue
                s = slack + s2
                if s > budget:
                    s = budget
                cur = res.get((n, s))
                if cur is None or dw2 < cur[0]:
                    res[(n, s)] = (dw2, ("c", chosen, need, slack, (n2, s2)))
    res = _pareto(res)
    memo[items] = res
    return res


def _pareto(res: Outcomes) -> Outcomes:
    """Drop (need, slack) entries no better than another in deadwood, need and slack."""
    if len(res) <= 1:
        return res
    keys = list(res)
    out = {}
    for key in keys:
        n, s = key
        dw = res[key][0]
        dominated = False
        for other in keys:
            if other == key:
                continue
            n2, s2 = other
            dw2 = res[other][0]
            if n2 <= n and s2 >= s and dw2 <= dw and (n2, s2, dw2) != (n, s, dw):
                dominated = True
                break
        if not dominated:
            out[key] = res[key]
    return out


def _suit_table(ctx: Context, budget: int, items: tuple[int, ...]):
    """Outcomes of a suit over every placement of its aces (low/high): key -> (deadwood,
    variant items).  Cards that no run can hold are set aside as plain deadwood."""
    key = (budget, items)
    hit = ctx.table_memo.get(key)
    if hit is not None:
        return hit
    kept, dropped_w = _reduce(ctx, budget, items)
    p = ctx.p
    variants = [kept]
    aces = [c for c in kept if c % X == ACE]
    if aces and not p.wrap and ctx.runs_possible:
        if p.ace_high and not p.ace_low:
            variants = [tuple(sorted((c + HIGH_ACE - ACE if c % X == ACE else c for c in kept),
                                     key=_place_order))]
        elif p.ace_high:
            others = tuple(c for c in kept if c % X != ACE)
            seen = set()
            variants = []
            for picks in product((False, True), repeat=len(aces)):
                v = tuple(sorted(others + tuple(
                    a + HIGH_ACE - ACE if hi else a for a, hi in zip(aces, picks, strict=True)),
                    key=_place_order))
                if v not in seen:
                    seen.add(v)
                    variants.append(v)
    table: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
    for v in variants:
        for k, (dw, _) in _suit_dp(ctx, budget, v).items():
            cur = table.get(k)
            if cur is None or dw + dropped_w < cur[0]:
                table[k] = (dw + dropped_w, v)
    out = (tuple((n, s, dw) for (n, s), (dw, _) in table.items()), table)
    ctx.table_memo[key] = out
    return out


def _reduce(ctx: Context, budget: int, items: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Split off the cards of a suit that no run core could hold: (kept, their weight)."""
    capable = _capable(ctx, budget, items)
    kept = tuple(c for c in items if c in capable)
    return kept, sum(ctx.weight[c] for c in items if c not in capable)


def _capable(ctx: Context, budget: int, items: tuple[int, ...]) -> frozenset[int]:
    """Codes of a suit's cards that some run core (with at most `budget` wilds) can hold.
    (Callers cache their own results, so this is not memoised.)"""
    return _find_capable(ctx, budget, items)


def _find_capable(ctx: Context, budget: int, items: tuple[int, ...]) -> frozenset[int]:
    p = ctx.p
    if not ctx.runs_possible:
        return frozenset()
    if ctx.nat_min <= 1 and p.outnumber and budget >= p.run_min - 1:
        return frozenset(items)
    # places held (aces at each place they may take; the circle unrolled twice with wrap)
    places: set[int] = set()
    for c in items:
        q = c % X
        if q == ACE and not p.wrap:
            if p.ace_low:
                places.add(ACE)
            if p.ace_high:
                places.add(HIGH_ACE)
        else:
            places.add(q)
    if p.wrap:
        places |= {q + 13 for q in places}
        lo_bound, hi_bound = 1, 26
    else:
        lo_bound, hi_bound = p.min_pos, p.max_pos
    pre = [0] * (hi_bound + 2)
    for q in range(1, hi_bound + 1):
        pre[q] = pre[q - 1] + (q in places)
    longest = min(p.run_max, len(places) + budget)
    ok: set[int] = set()
    for q in places:
        found = False
        for length in range(p.run_min, longest + 1):
            for a in range(max(lo_bound, q - length + 1), min(q, hi_bound - length + 1) + 1):
                t = pre[a + length - 1] - pre[a - 1]
                need = length - t
                if t >= ctx.nat_min and need <= budget and (p.outnumber or need <= t):
                    found = True
                    break
            if found:
                ok.add((q - 1) % 13 + 1 if p.wrap else q)
                break
    out = set()
    for c in items:
        q = c % X
        if q in ok or (q == ACE and not p.wrap and HIGH_ACE in ok):
            out.add(c)
    return frozenset(out)


def _suit_plan(ctx: Context, budget: int, items: tuple[int, ...], key: tuple[int, int]):
    """The run cores (as lists of codes with places) behind one table entry."""
    memo_key = (budget, items, key)
    hit = ctx.plan_memo.get(memo_key)
    if hit is None:
        hit = ctx.plan_memo[memo_key] = tuple(
            (tuple(codes), need, slack) for codes, need, slack in
            _find_suit_plan(ctx, budget, items, key))
    return hit


def _find_suit_plan(ctx: Context, budget: int, items: tuple[int, ...], key: tuple[int, int]):
    _, table = _suit_table(ctx, budget, items)
    dw, variant = table[key]
    cores: list[tuple[list[int], int, int]] = []
    cur_items, cur_key = variant, key
    while cur_items:
        entry = _suit_dp(ctx, budget, cur_items)[cur_key]
        choice = entry[1]
        first, rest = cur_items[0], cur_items[1:]
        if choice[0] == "d":
            cur_items, cur_key = rest, choice[1]
            continue
        _, chosen, need, slack, child = choice
        cores.append(([first] + [rest[k] for k in chosen], need, slack))
        cur_items = tuple(c for k, c in enumerate(rest) if k not in chosen)
        cur_key = child
    return cores


# --------------------------------------------------------------------------------------------
# sets at one rank


def _set_options(ctx: Context, budget: int, cards: tuple[tuple[str, int], ...]):
    """Ways to put some of one rank's naturals (suit, code) into set cores:
    [(cores as index tuples, need, slack)], without the empty choice."""
    key = (budget, cards)
    hit = ctx.set_memo.get(key)
    if hit is not None:
        return hit
    p = ctx.p
    n = len(cards)
    seen: set = set()
    out = []

    least = ctx.set_threshold(budget)

    def core_ok(core: list[int]) -> tuple[int, int] | None:
        t = len(core)
        if t < least or t > p.set_max:
            return None
        if p.distinct_suits and len({cards[i][0] for i in core}) < t:
            return None
        need = max(0, p.set_min - t)
        cap = p.set_max - t
        if not p.outnumber:
            cap = min(cap, t)
        if need > cap or need > budget:
            return None
        return need, min(budget, cap - need)

    if ctx.set_single_core:
        for mask in range(1, 1 << n):
            core = [i for i in range(n) if mask >> i & 1]
            sig = tuple(sorted(cards[i] for i in core))
            if sig in seen:
                continue
            seen.add(sig)
            got = core_ok(core)
            if got is not None:
                out.append(((tuple(core),), got[0], got[1]))
    else:
        # every way to deal the cards into numbered cores or leave them out
        def rec(i: int, cores: list[list[int]]) -> None:
            if i == n:
                if not cores:
                    return
                need = slack = 0
                for core in cores:
                    got = core_ok(core)
                    if got is None:
                        return
                    need += got[0]
                    slack += got[1]
                if need > budget:
                    return
                sig = tuple(sorted(tuple(sorted(cards[k] for k in core)) for core in cores))
                if sig in seen:
                    return
                seen.add(sig)
                out.append((tuple(tuple(c) for c in cores), need, min(budget, slack)))
                return
            rec(i + 1, cores)
            for core in cores:
                core.append(i)
                rec(i + 1, cores)
                core.pop()
            cores.append([i])
            rec(i + 1, cores)
            cores.pop()

        rec(0, [])
    result = tuple(out)  # tuples, not lists: the garbage collector can stop tracking them
    ctx.set_memo[key] = result
    return result


# --------------------------------------------------------------------------------------------
# the pool of wilds


def _allwild_sums(ctx: Context, pool_size: int, anchored: bool, anchors: int):
    """(melds, total size) pairs possible for melds made of wilds alone."""
    p = ctx.p
    sizes = set(range(p.set_min, min(p.set_max, pool_size) + 1))
    if ctx.runs_possible:
        sizes |= set(range(p.run_min, min(p.run_max, pool_size) + 1))
    sizes.discard(0)
    reach = {(0, 0)}
    frontier = {(0, 0)}
    while frontier:
        nxt = set()
        for k, a in frontier:
            if anchored and k + 1 > anchors:
                continue
            for z in sizes:
                if a + z <= pool_size and (k + 1, a + z) not in reach:
                    nxt.add((k + 1, a + z))
        reach |= nxt
        frontier = nxt
    return sorted(reach)


def _leftover_table(ctx: Context, jokers: tuple[int, ...], anchors: tuple[int, ...],
                    allow_allwild: bool, anchored: bool):
    """cost[n][s]: weight of the wilds left in hand when cores need n and have slack s;
    also the choice (melds of wilds alone, their size, jokers melded)."""
    key = (jokers, anchors, allow_allwild, anchored)
    hit = ctx.left_memo.get(key)
    if hit is not None:
        return hit
    pool = len(jokers) + len(anchors)
    pre_j = [0]
    for w in jokers:
        pre_j.append(pre_j[-1] + w)
    pre_a = [0]
    for w in anchors:
        pre_a.append(pre_a[-1] + w)
    total = pre_j[-1] + pre_a[-1]
    sums = _allwild_sums(ctx, pool, anchored, len(anchors)) if allow_allwild else [(0, 0)]
    table = []
    for n in range(pool + 1):
        row = []
        rest = pool - n
        for s in range(pool + 1):
            best = None
            for k, a in sums:
                if a > rest:
                    continue
                m = n + a + min(rest - a, s)
                need_a = k if anchored else 0
                for j in range(0, min(m, len(jokers)) + 1):
                    na = m - j
                    if na > len(anchors) or na < need_a:
                        continue
                    cost = total - pre_j[j] - pre_a[na]
                    if best is None or cost < best[0]:
                        best = (cost, k, a, j, na)
            row.append(best)
        table.append(tuple(row))
    result = tuple(table)
    ctx.left_memo[key] = result
    return result


# --------------------------------------------------------------------------------------------
# the search


def solve(cards: Sequence[Card], ctx: Context, bound: int | None = None) -> Plan | None:
    """Least-weight arrangement of `cards`; None if none costs at most `bound`."""
    p = ctx.p
    wild_ranks = p.wild_ranks
    naturals: list[Card] = []
    jokers: list[Card] = []
    anchors: list[Card] = []
    dead: list[Card] = []
    for card in cards:
        if card.rank in wild_ranks:
            (jokers if card.rank == JOKER_RANK else anchors).append(card)
        elif card.rank == JOKER_RANK:
            dead.append(card)
        else:
            naturals.append(card)
    dead_w = sum(ctx.weigh_card(c) for c in dead)
    free_count_rules = p.min_natural <= 1 and p.outnumber
    best: Plan | None = None
    limit = None if bound is None else bound - dead_w
    if limit is not None and limit < 0:
        return None
    if free_count_rules or not anchors:
        allow = p.outnumber and p.min_natural <= 1
        best = _solve_split(ctx, naturals, [], jokers + anchors, allow, p.min_natural == 1,
                            limit)
    else:
        # stricter count rules: try every choice of wild-rank cards standing for themselves
        by_face: dict[tuple[int, str], list[Card]] = {}
        for card in anchors:
            by_face.setdefault(card.face, []).append(card)
        groups = list(by_face.values())
        for counts in product(*(range(len(g) + 1) for g in groups)):
            as_nat = [c for g, k in zip(groups, counts, strict=True) for c in g[:k]]
            rest = [c for g, k in zip(groups, counts, strict=True) for c in g[k:]]
            cap = limit if best is None else best.cost - 1
            if cap is not None and cap < 0:
                break
            plan = _solve_split(ctx, naturals, as_nat, jokers + rest, False, False, cap)
            if plan is not None and (best is None or plan.cost < best.cost):
                best = plan
    if best is None:
        return None
    best.cost += dead_w
    best.deadwood.extend(dead)
    if bound is not None and best.cost > bound:
        return None
    _keep_caches_bounded()
    return best


def _solve_split(ctx: Context, naturals: list[Card], as_nat: list[Card], pool: list[Card],
                 allow_allwild: bool, anchored: bool, bound: int | None) -> Plan | None:
    """The search for one fixed choice of naturals and pool (see the module notes)."""
    budget = len(pool)
    # one pass: cards by suit (in place order) and by rank
    by_suit: dict[str, list[tuple[int, int, Card]]] = {}
    by_rank: dict[int, list[tuple[str, int, Card]]] = {}
    for card in naturals:
        rank = card.rank
        by_suit.setdefault(card.suit, []).append((rank * 2, rank, card))
        by_rank.setdefault(rank, []).append((card.suit, rank, card))
    for card in as_nat:
        rank = card.rank
        by_suit.setdefault(card.suit, []).append((rank * 2 + 1, rank + X, card))
        by_rank.setdefault(rank, []).append((card.suit, rank + X, card))
    # clusters: cards of one suit close enough to share a run; far apart ones never can
    clusters: list[tuple[tuple[int, ...], list[Card]]] = []
    where: dict[int, tuple[int, int]] = {}
    free_weight: dict[int, int] = {}
    free_cards: list[Card] = []
    weight = ctx.weight
    for suit in sorted(by_suit):
        entries = by_suit[suit]
        if len(entries) > 1:
            entries.sort(key=_first)
        suit_codes = tuple([e[1] for e in entries])
        groups, loose = _clusters(ctx, budget, suit_codes)
        for group in groups:
            cid = len(clusters)
            members = [entries[k][2] for k in group]
            clusters.append((tuple([suit_codes[k] for k in group]), members))
            for bit, card in enumerate(members):
                where[id(card)] = (cid, bit)
        for k in loose:
            card = entries[k][2]
            free_weight[id(card)] = weight[suit_codes[k]]
            free_cards.append(card)
    base_dw = sum(free_weight.values())
    # sets: ranks with enough naturals to be worth a set core
    ranks = []
    threshold = ctx.set_threshold(budget)
    for rank in sorted(by_rank):
        members = by_rank[rank]
        if len(members) < threshold:
            continue
        members.sort(key=_member_key)
        stuck = tuple([i for i, m in enumerate(members) if id(m[2]) not in where])
        opts, allow_none = _rank_options(ctx, budget,
                                         tuple([(s, c) for s, c, _ in members]), stuck)
        if not opts:
            continue
        compiled = []
        touched: set[int] = set()
        for cores, need, slack in opts:
            masks: dict[int, int] = {}
            freed = 0
            for core in cores:
                for i in core:
                    card = members[i][2]
                    spot = where.get(id(card))
                    if spot is None:
                        freed += free_weight[id(card)]
                    else:
                        masks[spot[0]] = masks.get(spot[0], 0) | (1 << spot[1])
            touched.update(masks)
            compiled.append((masks, need, slack, cores, freed))
        ranks.append((members, compiled, allow_none, touched))
    if bound is not None and base_dw > bound:
        # loose cards no set can take either are deadwood whatever happens
        freeable = {id(m[2]) for members, _, _, _ in ranks for m in members}
        if sum(w for key, w in free_weight.items() if key not in freeable) > bound:
            return None
    # components: clusters tied together by the sets that could take cards from them
    parent = list(range(len(clusters) + len(ranks)))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for r, (_, _, _, touched) in enumerate(ranks):
        node = len(clusters) + r
        for cid in touched:
            parent[root(cid)] = root(node)
    comp_clusters: dict[int, list[int]] = {}
    comp_ranks: dict[int, list[int]] = {}
    for cid in range(len(clusters)):
        comp_clusters.setdefault(root(cid), []).append(cid)
    for r in range(len(ranks)):
        comp_ranks.setdefault(root(len(clusters) + r), []).append(r)
    local: dict[tuple[int, int], tuple] = {}
    tables = ctx.table_memo

    def cluster_table(cid: int, mask: int) -> tuple:
        hit = local.get((cid, mask))
        if hit is None:
            items = clusters[cid][0]
            if mask:
                items = tuple(c for k, c in enumerate(items) if not mask >> k & 1)
            hit = tables.get((budget, items)) or _suit_table(ctx, budget, items)
            hit = hit[0]
            local[(cid, mask)] = hit
        return hit

    if not as_nat and len(ranks) > 6:
        # many contested ranks (very large hands): the choices would multiply; scan instead
        work = 0
        for rids in comp_ranks.values():
            size = 1
            for r in rids:
                size *= len(ranks[r][1]) + 1
            work += size
        if work > SCAN_ABOVE:
            from .solver_scan import scan_applies, solve_scan

            if scan_applies(ctx):
                return solve_scan(ctx, naturals, pool, allow_allwild, anchored, bound)
    comp_tables: list[tuple] = []
    comp_info: list[tuple] = []
    for comp in sorted(set(comp_clusters) | set(comp_ranks)):
        cids = comp_clusters.get(comp, [])
        rids = comp_ranks.get(comp, [])
        if not rids:
            comp_tables.append(cluster_table(cids[0], 0))
            comp_info.append((cids, rids, None))
            continue
        table, back = _component(ctx, budget, cids, [ranks[r] for r in rids], cluster_table)
        comp_tables.append(table)
        comp_info.append((cids, rids, back))
    if bound is not None and base_dw + sum(min(e[2] for e in t) for t in comp_tables) > bound:
        return None
    left = _leftover_table(
        ctx,
        tuple(sorted([weight[c.rank] for c in pool if c.rank == JOKER_RANK], reverse=True)),
        tuple(sorted([weight[c.rank] for c in pool if c.rank != JOKER_RANK], reverse=True)),
        allow_allwild, anchored)
    states = _combine_costs(comp_tables, budget, 0, 0)
    best_key = None
    best_cost = bound + 1 if bound is not None else 1 << 60
    for key, dw in states.items():
        cost = base_dw + dw + left[key[0]][key[1]][0]
        if cost < best_cost:
            best_cost, best_key = cost, key
    if best_key is None:
        return None
    path = _combine(comp_tables, budget, 0, 0)[best_key][1]
    return _rebuild(ctx, best_cost, path, best_key, comp_info, ranks, clusters,
                    free_cards, pool, left, budget, cluster_table)


def _combine_costs(tables: list, budget: int, need0: int, slack0: int) -> dict:
    """Min-plus product of (need, slack, deadwood) tables: key -> least deadwood."""
    if budget == 0:
        total = 0
        for tab in tables:
            total += tab[0][2]
        return {(need0, slack0): total}
    states: dict[tuple[int, int], int] = {(need0, slack0): 0}
    for tab in tables:
        if len(tab) == 1:
            n2, s2, d2 = tab[0]
            new = {}
            for (n1, s1), d1 in states.items():
                nn = n1 + n2
                if nn <= budget:
                    sk = s1 + s2
                    key = (nn, sk if sk < budget else budget)
                    d = d1 + d2
                    old = new.get(key)
                    if old is None or d < old:
                        new[key] = d
        else:
            new = {}
            for (n1, s1), d1 in states.items():
                for n2, s2, d2 in tab:
                    nn = n1 + n2
                    if nn > budget:
                        continue
                    sk = s1 + s2
                    key = (nn, sk if sk < budget else budget)
                    d = d1 + d2
                    old = new.get(key)
                    if old is None or d < old:
                        new[key] = d
        states = new
        if not states:
            break
    return states


def _combine(tables: list, budget: int, need0: int, slack0: int) -> dict:
    """Min-plus product of (need, slack, deadwood) tables: key -> (deadwood, keys used)."""
    if budget == 0:
        total = 0
        path = []
        for tab in tables:
            entry = tab[0]
            total += entry[2]
            path.append((0, 0))
        return {(need0, slack0): (total, tuple(path))}
    states: dict[tuple[int, int], tuple[int, tuple]] = {(need0, slack0): (0, ())}
    for tab in tables:
        new: dict[tuple[int, int], tuple[int, tuple]] = {}
        for (n1, s1), (d1, path) in states.items():
            for n2, s2, d2 in tab:
                nn = n1 + n2
                if nn > budget:
                    continue
                sk = s1 + s2
                key = (nn, sk if sk < budget else budget)
                d = d1 + d2
                old = new.get(key)
                if old is None or d < old[0]:
                    new[key] = (d, path + ((n2, s2),))
        states = new
        if not states:
            break
    return states


def _component(ctx: Context, budget: int, cids: list[int], ranks: list, cluster_table):
    """Table of one component: every choice of set cores for its ranks, its clusters
    solved around them.  Returns ((need, slack, deadwood) entries, key -> choice)."""
    best: dict[tuple[int, int], tuple[int, tuple]] = {}
    per_rank = [([None] if allow_none else []) + compiled
                for _, compiled, allow_none, _ in ranks]
    empty: dict[int, int] = {}
    one_cluster = len(cids) == 1
    for combo in product(*per_rank) if len(per_rank) > 1 else ((o,) for o in per_rank[0]):
        need = slack = freed = 0
        masks = empty
        merged = False
        for opt in combo:
            if opt is None:
                continue
            need += opt[1]
            slack += opt[2]
            freed += opt[4]
            if not masks:
                masks = opt[0]
            elif opt[0]:
                if not merged:
                    masks = dict(masks)
                    merged = True
                for cid, m in opt[0].items():
                    masks[cid] = masks.get(cid, 0) | m
        if need > budget:
            continue
        if slack > budget:
            slack = budget
        if budget == 0:
            dw = -freed
            for cid in cids:
                dw += cluster_table(cid, masks.get(cid, 0))[0][2]
            old = best.get((0, 0))
            if old is None or dw < old[0]:
                best[(0, 0)] = (dw, (combo, masks, ((0, 0),) * len(cids)))
            continue
        if one_cluster:
            for n2, s2, d2 in cluster_table(cids[0], masks.get(cids[0], 0)):
                nn = need + n2
                if nn > budget:
                    continue
                sk = slack + s2
                key = (nn, sk if sk < budget else budget)
                dw = d2 - freed
                old = best.get(key)
                if old is None or dw < old[0]:
                    best[key] = (dw, (combo, masks, ((n2, s2),)))
            continue
        tabs = [cluster_table(cid, masks.get(cid, 0)) for cid in cids]
        for key, dw in _combine_costs(tabs, budget, need, slack).items():
            dw -= freed
            old = best.get(key)
            if old is None or dw < old[0]:
                best[key] = (dw, (combo, masks, None))  # path found again if chosen
    return tuple((n, s, dw) for (n, s), (dw, _) in best.items()), best


def _clusters(ctx: Context, budget: int, codes: tuple[int, ...]):
    """Split one suit's cards (codes in place order) into groups no run crosses between:
    (groups as index tuples, indices of cards no run can hold at all)."""
    key = (budget, codes)
    hit = ctx.cluster_memo.get(key)
    if hit is not None:
        return hit
    p = ctx.p
    capable = _capable(ctx, budget, codes)
    loose = tuple(k for k, c in enumerate(codes) if c not in capable)
    points = []
    for k, c in enumerate(codes):
        if c not in capable:
            continue
        q = c % X
        if q == ACE and not p.wrap:
            if p.ace_low:
                points.append((1, k))
            if p.ace_high:
                points.append((HIGH_ACE, k))
        else:
            points.append((q, k))
    points.sort()
    parent = {k: k for _, k in points}

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    reach = budget + 1
    for (q1, k1), (q2, k2) in zip(points, points[1:], strict=False):
        if q2 - q1 <= reach:
            parent[root(k2)] = root(k1)
    if p.wrap and len(points) > 1 and points[0][0] + 13 - points[-1][0] <= reach:
        parent[root(points[-1][1])] = root(points[0][1])
    groups: dict[int, list[int]] = {}
    for k in sorted(parent):
        groups.setdefault(root(k), []).append(k)
    out = (tuple(tuple(g) for g in groups.values()), loose)
    ctx.cluster_memo[key] = out
    return out


SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}


def _member_key(member: tuple[str, int, Card]) -> tuple[str, int]:
    return member[0], member[1]


def _first(entry: tuple) -> int:
    return entry[0]


def _rank_options(ctx: Context, budget: int, sig: tuple[tuple[str, int], ...],
                  stuck: tuple[int, ...]) -> tuple[list, bool]:
    """Set options of one rank in this hand, without those that provably lose: a card no
    run can hold joins the set when a set is made (single-core rules), and making no set
    loses to a free set of such cards.  Returns (options, whether "no set" is worth a try)."""
    key = (budget, sig, stuck)
    hit = ctx.rank_memo.get(key)
    if hit is not None:
        return hit
    opts = _set_options(ctx, budget, sig)
    if stuck and ctx.set_single_core:
        opts = [o for o in opts if all(i in o[0][0] for i in stuck)]
    stuck_set = set(stuck)
    allow_none = not any(
        need == 0 and all(i in stuck_set for core in cores for i in core)
        for cores, need, _ in opts)
    out = (tuple(opts), allow_none)
    ctx.rank_memo[key] = out
    return out


def _rebuild(ctx: Context, cost: int, comp_path, total_key, comp_info, ranks, clusters,
             free_cards, pool, left, budget: int, cluster_table) -> Plan:
    """Turn the winning choices into melds: naturals per core, then the wilds."""
    p = ctx.p
    cores: list[tuple[str, list[Card], list[int], int, int]] = []  # kind, cards, places, n, s
    in_sets: set[int] = set()
    cluster_keys: dict[int, tuple[int, int]] = {}
    cluster_masks: dict[int, int] = {}
    for (cids, rids, back), key in zip(comp_info, comp_path, strict=True):
        if back is None:
            cluster_keys[cids[0]] = key
            continue
        _, (opts, masks, path) = back[key]
        if path is None:
            need = sum(o[1] for o in opts if o is not None)
            slack = min(budget, sum(o[2] for o in opts if o is not None))
            tabs = [cluster_table(cid, masks.get(cid, 0)) for cid in cids]
            path = _combine(tabs, budget, need, slack)[key][1]
        cluster_masks.update(masks)
        cluster_keys.update(zip(cids, path, strict=True))
        for r, opt in zip(rids, opts, strict=True):
            if opt is None:
                continue
            members = ranks[r][0]
            for core in opt[3]:
                naturals = [members[i][2] for i in core]
                in_sets.update(id(c) for c in naturals)
                t = len(naturals)
                need = max(0, p.set_min - t)
                cap = p.set_max - t
                if not p.outnumber and cap > t:
                    cap = t
                cores.append(("set", naturals, [], need, min(budget, cap - need)))
    deadwood = [c for c in free_cards if id(c) not in in_sets]
    for cid, key in cluster_keys.items():
        items, members = clusters[cid]
        mask = cluster_masks.get(cid, 0)
        if mask:
            keep = [k for k in range(len(items)) if not mask >> k & 1]
            items = tuple(items[k] for k in keep)
            members = [members[k] for k in keep]
        plan = _suit_plan(ctx, budget, items, key)
        if not plan:
            deadwood.extend(members)
            continue
        free: dict[int, list[Card]] = {}
        for code, card in zip(items, members, strict=True):
            free.setdefault(code, []).append(card)
        for codes, need, slack in plan:
            naturals = []
            places = []
            for code in codes:
                base = code % X
                orig = code if base != HIGH_ACE else code - HIGH_ACE + ACE
                naturals.append(free[orig].pop())
                places.append(base)
            cores.append(("run", naturals, places, need, slack))
        for rest in free.values():
            deadwood.extend(rest)
    if not pool:
        return Plan(cost, [_build(ctx, kind, naturals, places, [])
                           for kind, naturals, places, _, _ in cores], deadwood)
    return finish(ctx, cost, cores, deadwood, pool, left[total_key[0]][total_key[1]])


def finish(ctx: Context, cost: int, cores: list, deadwood: list[Card], pool: list[Card],
           wild_choice: tuple) -> Plan:
    """Share the pool out and build the melds.  `cores` are (kind, naturals, run places,
    need, slack); `wild_choice` the leftover table's entry (melds of wilds alone, their
    size, jokers and other wilds melded)."""
    p = ctx.p
    _, k_aw, a_aw, j_melded, a_melded = wild_choice
    jokers = [c for c in pool if c.rank == JOKER_RANK]
    anchors = [c for c in pool if c.rank != JOKER_RANK]
    if len(jokers) > 1:
        jokers.sort(key=ctx.weigh_card, reverse=True)
    if len(anchors) > 1:
        anchors.sort(key=ctx.weigh_card, reverse=True)
    deadwood += jokers[j_melded:] + anchors[a_melded:]
    anchors_in = anchors[:a_melded]
    sizes = _split_sizes(ctx, k_aw, a_aw)
    leads: list[list[Card]] = []
    for _ in sizes:
        lead = [anchors_in.pop(0)] if anchors_in and p.min_natural == 1 else []
        leads.append(lead)
    giving = jokers[:j_melded] + anchors_in
    given: list[list[Card]] = []
    for core in cores:
        given.append(giving[:core[3]])
        del giving[:core[3]]
    absorb = len(giving) - (a_aw - sum(len(lead) for lead in leads))
    for idx, core in enumerate(cores):
        if absorb <= 0:
            break
        take = min(core[4], absorb)
        given[idx].extend(giving[:take])
        del giving[:take]
        absorb -= take
    melds = [_build(ctx, kind, naturals, places, wilds)
             for (kind, naturals, places, _, _), wilds in zip(cores, given, strict=True)]
    for lead, size in zip(leads, sizes, strict=True):
        wilds = giving[:size - len(lead)]
        del giving[:size - len(lead)]
        kind = "set" if p.set_min <= size <= p.set_max else "run"
        melds.append(_build(ctx, kind, lead, [], wilds))
    assert not giving
    return Plan(cost, melds, deadwood)


def _build(ctx: Context, kind: str, naturals: list[Card], places: list[int],
           wilds: list[Card]) -> Meld:
    """The meld of a core and its wilds, each wild standing where the rules' default puts
    it: a set's rank (a missing suit when suits must differ); a run's gaps, then its high
    end, then its low end."""
    p = ctx.p
    if naturals and kind == "set":
        rank = naturals[0].rank
        faces = [(rank, c.suit) for c in naturals]
        if not wilds:
            return Meld("set", tuple(naturals), tuple(faces))
        if not p.distinct_suits and all(w.rank != rank for w in wilds):
            faces += [(rank, "")] * len(wilds)
            return Meld("set", tuple(naturals) + tuple(wilds), tuple(faces))
        used = {c.suit for c in naturals}
        # a wild of the set's own rank stands for itself (as the validator reads it)
        own = [w for w in wilds if w.rank == rank and not (p.distinct_suits and w.suit in used)]
        if p.distinct_suits:
            own = list({w.suit: w for w in own}.values())
            used |= {w.suit for w in own}
        others = [w for w in wilds if all(w is not o for o in own)]
        faces += [(rank, w.suit) for w in own]
        if p.distinct_suits:
            missing = [s for s in SUIT_ORDER if s not in used]
            faces += [(rank, missing[k]) for k in range(len(others))]
        else:
            faces += [(rank, "")] * len(others)
        return Meld("set", tuple(naturals) + tuple(own) + tuple(others), tuple(faces))
    if naturals and places and not p.wrap:
        suit = naturals[0].suit
        if not wilds:  # the solver lists a run's naturals low to high
            return Meld("run", tuple(naturals), tuple([(q, suit) for q in places]))
        by_place = dict(zip(places, naturals, strict=True))
        lo, hi = min(places), max(places)
        gaps = hi - lo + 1 - len(places)
        extra = len(wilds) - gaps
        up = min(extra, p.max_pos - hi)
        lo -= extra - up
        hi += up
        spare = iter(wilds)
        seq = [by_place.get(q) or next(spare) for q in range(lo, hi + 1)]
        return Meld("run", tuple(seq), tuple((q, suit) for q in range(lo, hi + 1)))
    # wrap-around runs and melds of wilds alone: let the validator lay them out
    fixed: list = []
    for k, card in enumerate(naturals):
        if kind == "set":
            fixed.append((card.rank, card.suit))
        else:
            place = places[k] if places else _positions_of(card.rank, p)[0]
            fixed.append((place, card.suit))
    return _validate(list(naturals) + list(wilds), fixed + [None] * len(wilds), p, kind, "")


def _split_sizes(ctx: Context, k: int, total: int) -> list[int]:
    """Sizes of k melds of wilds alone adding up to total."""
    if k == 0:
        return [] if total == 0 else None  # type: ignore[return-value]
    p = ctx.p
    sizes = set(range(p.set_min, min(p.set_max, total) + 1))
    if ctx.runs_possible:
        sizes |= set(range(p.run_min, min(p.run_max, total) + 1))
    for z in sorted(sizes, reverse=True):
        rest = _split_sizes(ctx, k - 1, total - z)
        if rest is not None:
            return [z, *rest]
    return None  # type: ignore[return-value]
