"""Runs inside one suit: which cards a run could ever hold, clusters no run crosses
between, and the memoised table of least deadwood for every (need, slack) of wilds.

Cards are *codes*: the rank (1..13), 14 for an ace played high, plus `X` for a wild-rank
card acting as a natural.  A suit's codes are kept in place order.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from ..cards import ACE, HIGH_ACE
from ..meld_rules import run_positions_of
from .context import Context, X

Outcomes = dict[tuple[int, int], tuple[int, tuple[Any, ...]]]


def _pos(code: int) -> int:
    return code % X


def _place_order(code: int) -> tuple[int, int]:
    return (code % X, code)


# --------------------------------------------------------------------------------------------
# runs inside one suit


def _wrap_cores(ctx: Context, budget: int, first: int, rest: tuple[int, ...]) -> list[Any]:
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
            cap = min(p.run_max - t, p.max_wilds)
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


def _linear_cores(ctx: Context, budget: int, first: int, rest: tuple[int, ...]) -> list[Any]:
    """Run cores whose lowest natural is `first`: yields (indices into rest, need, slack)."""
    p = ctx.p
    run_min, run_max, nat_min = p.run_min, p.run_max, ctx.nat_min
    outnumber, most_wilds = p.outnumber, p.max_wilds
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
                if cap > most_wilds:
                    cap = most_wilds
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
    res = _pareto(res, budget)
    memo[items] = res
    return res


def _pareto(res: Outcomes, budget: int) -> Outcomes:
    """Drop (need, slack) entries no better than another in deadwood and in the wilds
    they can take: from `need` to `need + slack` (at most the `budget` there are).  Less
    need with as much slack is not enough: (1, 0) takes one wild, (2, 0) two, which counts
    where wilds per meld are capped (`melds.max_wilds`) and one wild would stay in hand."""
    if len(res) <= 1:
        return res
    # (need, most wilds taken, deadwood); of entries equal in all three the last key stays
    worth = {key: (key[0], min(key[0] + key[1], budget), res[key][0]) for key in res}
    out = {}
    for key, (n, top, dw) in worth.items():
        dominated = False
        for other, (n2, top2, dw2) in worth.items():
            if other != key and n2 <= n and top2 >= top and dw2 <= dw and (
                    (n2, top2, dw2) != (n, top, dw) or other > key):
                dominated = True
                break
        if not dominated:
            out[key] = res[key]
    return out


def suit_table(ctx: Context, budget: int, items: tuple[int, ...]) -> Any:
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
    budget = min(budget, p.max_wilds)  # (the wilds one run core may take)
    if ctx.nat_min <= 1 and p.outnumber and budget >= p.run_min - 1:
        if p.bounded:  # any card with a place between the bounds
            return frozenset(c for c in items if run_positions_of(c % X, p))
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
    if ctx.nat_min <= 1 and p.outnumber:
        ok_mask = _windows_held(places, lo_bound, hi_bound, p.run_min, budget)
        out = set()
        for c in items:
            q = c % X
            if q == ACE and not p.wrap:
                if (ok_mask >> ACE & 1 and p.ace_low) or (ok_mask >> HIGH_ACE & 1 and p.ace_high):
                    out.add(c)
            elif ok_mask >> q & 1 or (p.wrap and ok_mask >> (q + 13) & 1):
                out.add(c)
        return frozenset(out)
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


def _windows_held(places: set[int], lo: int, hi: int, length: int, budget: int) -> int:
    """Places (as bits) lying in some window of `length` places within [lo, hi] that holds
    at least `length - budget` of them: when a lone natural may carry any number of wilds,
    a place fits a run exactly when such a shortest window exists (a longer window holds
    one of them around the same place that needs no more wilds)."""
    mask = 0
    for q in places:
        mask |= 1 << q
    least = length - budget
    window = (1 << length) - 1
    ok = 0
    for a in range(lo, hi - length + 2):
        held = mask & (window << a)
        if held and held.bit_count() >= least:
            ok |= held
    return ok


def suit_plan(ctx: Context, budget: int, items: tuple[int, ...], key: tuple[int, int]) -> Any:
    """The run cores (as lists of codes with places) behind one table entry."""
    memo_key = (budget, items, key)
    hit = ctx.plan_memo.get(memo_key)
    if hit is None:
        hit = ctx.plan_memo[memo_key] = tuple(
            (tuple(codes), need, slack) for codes, need, slack in
            _find_suit_plan(ctx, budget, items, key))
    return hit


def _find_suit_plan(ctx: Context, budget: int, items: tuple[int, ...], key: tuple[int, int]) -> Any:
    _, table = suit_table(ctx, budget, items)
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


def suit_clusters(ctx: Context, budget: int, codes: tuple[int, ...]) -> Any:
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


