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

from .cards import ACE, Card
from .meld_rules import UNLIMITED, MeldParams, card_penalty, meld_params
from .rules import Ruleset

BIG = 1_000_000  # weight scheme "count": every card left out costs BIG minus its value
X = 100  # code offset of a wild-rank card used as a natural
HIGH_ACE = 14

Outcomes = dict[tuple[int, int], tuple[int, tuple]]


@dataclass
class Plan:
    """The best arrangement found: cores of naturals, wilds given to them, the rest."""

    cost: int
    melds: list[tuple[str, list[Card], list[Card], list[int]]] = field(default_factory=list)
    # (kind, naturals, wilds, natural run positions (empty for sets)) per meld
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

    def weigh_card(self, card: Card) -> int:
        return self.weight[card.rank]

    def clear_if_big(self) -> None:
        size = sum(len(m) for m in self.suit_memo.values()) + len(self.table_memo)
        if size > 400_000:
            self.suit_memo.clear()
            self.table_memo.clear()
            self.set_memo.clear()
            self.left_memo.clear()


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
    """Codes of a suit's cards that some run core (with at most `budget` wilds) can hold."""
    p = ctx.p
    if not ctx.runs_possible:
        return frozenset()
    if ctx.nat_min <= 1 and p.outnumber and budget >= p.run_min - 1:
        return frozenset(items)
    places: set[int] = set()
    for c in items:
        places.add(c % X)
        if c % X == ACE and not p.wrap:
            if p.ace_high:
                places.add(HIGH_ACE)
            if not p.ace_low:
                places.discard(ACE)
    ok: set[int] = set()
    lo_bound, hi_bound = p.min_pos, p.max_pos
    for length in range(p.run_min, p.run_max + 1):
        if p.wrap:
            starts = range(1, 14)
        else:
            starts = range(lo_bound, hi_bound - length + 2)
        for a in starts:
            window = {(a + i - 1) % 13 + 1 for i in range(length)} if p.wrap else \
                set(range(a, a + length))
            t = len(window & places)
            need = length - t
            if t < ctx.nat_min or need > budget or (not p.outnumber and need > t):
                continue
            ok |= window & places
    out = set()
    for c in items:
        q = c % X
        if q in ok or (q == ACE and not p.wrap and HIGH_ACE in ok):
            out.add(c)
    return frozenset(out)


def _suit_plan(ctx: Context, budget: int, items: tuple[int, ...], key: tuple[int, int]):
    """The run cores (as lists of codes with places) behind one table entry."""
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

    def core_ok(core: list[int]) -> tuple[int, int] | None:
        t = len(core)
        if t < ctx.nat_min or t > p.set_max:
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
    ctx.set_memo[key] = out
    return out


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
        table.append(row)
    ctx.left_memo[key] = table
    return table


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
            (jokers if card.is_joker else anchors).append(card)
        elif card.is_joker:
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
    ctx.clear_if_big()
    return best


def _solve_split(ctx: Context, naturals: list[Card], as_nat: list[Card], pool: list[Card],
                 allow_allwild: bool, anchored: bool, bound: int | None) -> Plan | None:
    p = ctx.p
    budget = len(pool)
    # codes: naturals by rank, wild-rank cards acting naturally offset by X
    entries: list[tuple[int, Card]] = [(c.rank, c) for c in naturals]
    entries += [(c.rank + X, c) for c in as_nat]
    suits: dict[str, list[tuple[int, Card]]] = {}
    for code, card in entries:
        suits.setdefault(card.suit, []).append((code, card))
    suit_names = sorted(suits)
    suit_codes: dict[str, tuple[int, ...]] = {}
    for s in suit_names:
        suits[s].sort(key=lambda e: (e[0] % X, e[0]))
        suit_codes[s] = tuple(e[0] for e in suits[s])
    where = {id(card): k for s in suit_names for k, (_, card) in enumerate(suits[s])}
    capable = {s: _capable(ctx, budget, suit_codes[s]) for s in suit_names}
    # set options per rank
    by_rank: dict[int, list[tuple[str, int, Card]]] = {}
    for code, card in entries:
        by_rank.setdefault(card.rank, []).append((card.suit, code, card))
    rank_choices = []
    for rank in sorted(by_rank):
        members = sorted(by_rank[rank], key=lambda e: (e[0], e[1]))
        if len(members) < ctx.nat_min:
            continue
        sig = tuple((s, c) for s, c, _ in members)
        opts = _set_options(ctx, budget, sig)
        if not opts:
            continue
        if ctx.set_single_core:
            # a card no run can hold always joins its rank's set (that costs nothing)
            stuck = [i for i, (s, c, _) in enumerate(members) if c not in capable[s]]
            if stuck:
                opts = [o for o in opts if all(i in o[0][0] for i in stuck)]
        rank_choices.append((members, opts))
    # removal masks per option: which cards of which suit's list go to sets
    compiled = []
    for members, opts in rank_choices:
        comp = []
        for cores, need, slack in opts:
            masks: dict[str, int] = {}
            for core in cores:
                for i in core:
                    s, _, card = members[i]
                    masks[s] = masks.get(s, 0) | (1 << where[id(card)])
            comp.append((tuple(masks.items()), need, slack, cores))
        compiled.append(comp)
    jw = tuple(sorted((ctx.weigh_card(c) for c in pool if c.is_joker), reverse=True))
    aw = tuple(sorted((ctx.weigh_card(c) for c in pool if not c.is_joker), reverse=True))
    left = _leftover_table(ctx, jw, aw, allow_allwild, anchored)
    tables = ctx.table_memo
    local: dict[tuple[str, int], tuple] = {}

    def suit_table(s: str, mask: int):
        hit = local.get((s, mask))
        if hit is None:
            codes = suit_codes[s]
            items = codes if not mask else tuple(
                c for k, c in enumerate(codes) if not mask >> k & 1)
            hit = tables.get((budget, items)) or _suit_table(ctx, budget, items)
            local[(s, mask)] = hit
        return hit[0]

    best_cost = [bound + 1 if bound is not None else 1 << 60]
    best_choice: list = [None]
    n_ranks = len(compiled)
    chosen: list = [None] * n_ranks

    def evaluate(masks: dict[str, int], need0: int, slack0: int) -> None:
        states = {(need0, slack0): 0}
        for s in suit_names:
            tab = suit_table(s, masks.get(s, 0))
            if len(tab) == 1 and len(states) == 1:
                (n2, s2, d2), = tab
                ((n1, s1), d1), = states.items()
                n = n1 + n2
                if n > budget:
                    return
                states = {(n, min(budget, s1 + s2)): d1 + d2}
                continue
            new: dict[tuple[int, int], int] = {}
            for (n1, s1), d1 in states.items():
                for n2, s2, d2 in tab:
                    n = n1 + n2
                    if n > budget:
                        continue
                    sk = s1 + s2
                    key = (n, sk if sk < budget else budget)
                    d = d1 + d2
                    cur = new.get(key)
                    if cur is None or d < cur:
                        new[key] = d
            if not new:
                return
            states = new
        for (n, sk), d in states.items():
            cost = d + left[n][sk][0]
            if cost < best_cost[0]:
                best_cost[0] = cost
                best_choice[0] = (tuple(chosen), need0, slack0)

    def dfs(i: int, masks: dict[str, int], need: int, slack: int) -> None:
        if best_cost[0] == 0:
            return
        if i == n_ranks:
            evaluate(masks, need, slack)
            return
        chosen[i] = None
        dfs(i + 1, masks, need, slack)
        for opt in compiled[i]:
            removal, n_opt, s_opt, _ = opt
            if need + n_opt > budget:
                continue
            new_masks = dict(masks)
            for s, m in removal:
                new_masks[s] = new_masks.get(s, 0) | m
            chosen[i] = opt
            dfs(i + 1, new_masks, need + n_opt, min(budget, slack + s_opt))
            chosen[i] = None

    dfs(0, {}, 0, 0)
    if best_choice[0] is None:
        return None
    return _rebuild(ctx, best_choice[0], rank_choices, suits, suit_codes, suit_names, pool,
                    left, budget, best_cost[0])


def _rebuild(ctx, choice, rank_choices, suits, suit_codes, suit_names, pool, left, budget,
             cost) -> Plan:
    """Turn the winning choices into melds: naturals per core, then the wilds."""
    opts, need0, slack0 = choice
    used: set[int] = set()  # ids of natural cards placed
    cores: list[tuple[str, list[Card], list[int], int, int]] = []  # kind, cards, places, n, s
    masks: dict[str, int] = {}
    for (members, _), opt in zip(rank_choices, opts, strict=True):
        if opt is None:
            continue
        removal, _, _, core_idx = opt
        for s, m in removal:
            masks[s] = masks.get(s, 0) | m
        p = ctx.p
        for core in core_idx:
            cards = [members[i][2] for i in core]
            t = len(cards)
            need = max(0, p.set_min - t)
            cap = p.set_max - t
            if not p.outnumber:
                cap = min(cap, t)
            cores.append(("set", cards, [], need, cap - need))
            used.update(id(c) for c in cards)
    # the suits: recombine tables to find which entry each suit used
    tabs = []
    for s in suit_names:
        m = masks.get(s, 0)
        items = tuple(c for k, c in enumerate(suit_codes[s]) if not m >> k & 1)
        tabs.append((s, items, _suit_table(ctx, budget, items)[0]))
    states: dict[tuple[int, int], tuple[int, tuple]] = {(need0, slack0): (0, ())}
    for _, _, tab in tabs:
        new: dict[tuple[int, int], tuple[int, tuple]] = {}
        for (n1, s1), (d1, path) in states.items():
            for n2, s2, d2 in tab:
                n = n1 + n2
                if n > budget:
                    continue
                key = (n, min(budget, s1 + s2))
                if key not in new or d1 + d2 < new[key][0]:
                    new[key] = (d1 + d2, path + ((n2, s2),))
        states = new
    final = min(states.items(), key=lambda kv: kv[1][0] + left[kv[0][0]][kv[0][1]][0])
    (n_total, s_total), (_, path) = final
    for (s, items, _), key in zip(tabs, path, strict=True):
        free = {}
        m = masks.get(s, 0)
        for k, (code, card) in enumerate(suits[s]):
            if not m >> k & 1:
                free.setdefault(code, []).append(card)
        for codes, need, slack in _suit_plan(ctx, budget, items, key):
            cards = []
            places = []
            for code in codes:
                base = code - X if code >= X else code
                lookup = ACE + (X if code >= X else 0) if base == HIGH_ACE else code
                cards.append(free[lookup].pop())
                places.append(code % X)
            cores.append(("run", cards, places, need, slack))
            used.update(id(c) for c in cards)
    deadwood = [card for s in suit_names for _, card in suits[s] if id(card) not in used]
    # wilds: which are melded, then who gets them
    _, k_aw, a_aw, j_melded, a_melded = left[n_total][s_total]
    jokers = sorted((c for c in pool if c.is_joker), key=ctx.weigh_card, reverse=True)
    anchors = sorted((c for c in pool if not c.is_joker), key=ctx.weigh_card, reverse=True)
    deadwood += jokers[j_melded:] + anchors[a_melded:]
    anchors_in = anchors[:a_melded]
    others = jokers[:j_melded]
    allwild_melds: list[list[Card]] = []
    sizes = _split_sizes(ctx, k_aw, a_aw)
    anchored_melds = []
    for _size in sizes:
        anchor = [anchors_in.pop(0)] if anchors_in and k_aw and ctx.p.min_natural == 1 else []
        anchored_melds.append(anchor)
        allwild_melds.append(list(anchor))
    giving = others + anchors_in
    plan = Plan(cost=cost)
    for (kind, cards, places, need, slack) in cores:
        wilds = giving[:need]
        del giving[:need]
        plan.melds.append((kind, cards, wilds, places))
    absorb = len(giving) - (a_aw - sum(len(m) for m in allwild_melds))
    for idx, (kind, cards, wilds, places) in enumerate(plan.melds):
        if absorb <= 0:
            break
        slack = cores[idx][4]
        take = min(slack, absorb)
        wilds.extend(giving[:take])
        del giving[:take]
        absorb -= take
    for meld, anchor, size in zip(allwild_melds, anchored_melds, sizes, strict=True):
        while len(meld) < size:
            meld.append(giving.pop(0))
        p = ctx.p
        kind = "set" if p.set_min <= size <= p.set_max else "run"
        plan.melds.append((kind, anchor, meld[len(anchor):], []))
    assert not giving
    plan.deadwood = deadwood
    return plan


def _split_sizes(ctx: Context, k: int, total: int) -> list[int]:
    """Sizes of k melds of wilds alone adding up to total."""
    if k == 0:
        return []
    p = ctx.p
    sizes = set(range(p.set_min, min(p.set_max, total) + 1))
    if ctx.runs_possible:
        sizes |= set(range(p.run_min, min(p.run_max, total) + 1))
    for z in sorted(sizes, reverse=True):
        rest = _split_sizes(ctx, k - 1, total - z) if total - z >= 0 else None
        if rest is not None and sum(rest) == total - z:
            return [z, *rest]
    return None  # type: ignore[return-value]
