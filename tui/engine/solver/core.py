"""The exact search behind `solver.best_arrangement`: fewest penalty points, never greedy.

How it works, and why it is exact:

* Cards split into *naturals*, the *pool* of wilds, and dead cards (jokers when jokers are
  not wild).  A meld is a *core* of naturals plus some pool wilds; a core needs a least
  number of wilds (gaps, minimum size) and can take at most so many (maximum size, "wilds
  may not outnumber naturals").  So the wilds only matter through two sums over the chosen
  cores: `need` and `slack` (= capacity - need), both capped at the pool size.
* A wild-rank card standing for itself counts as a natural.  When at most one natural is
  required per meld and wilds may outnumber naturals, that only matters for melds made of
  wilds alone (one of them standing for itself), which the pool step handles.  Under
  stricter count rules every choice of which wild-rank cards act as naturals is tried.
* Runs live inside one suit, in *clusters* of cards close enough to share a run
  (`solver_suits`); each cluster's table of least deadwood per (need, slack) is computed
  once and cached, since the same patterns recur from hand to hand.  Sets join suits at one
  rank (`solver_sets`): a rank whose cards could form a set ties the clusters holding them
  into a *component*, and every choice of set cores is tried within its component only.
  Components are independent but for the shared wilds, so their tables combine by need
  and slack.  Hands so large that the choices would multiply go to `solver_scan` instead.
* Finally the pool: the wilds left over go into cores' slack, or into melds of wilds alone
  where the rules allow them, or stay in hand (cheapest first).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from ..cards import ACE, HIGH_ACE, JOKER_RANK, Card
from ..meld_params import COLOUR_SUITS
from ..meld_rules import UNLIMITED
from .context import (  # noqa: F401 - re-exported: bots and tests use them from here
    BIG,
    CACHE_ENTRIES,
    SCAN_ABOVE,
    WORK_BUDGET,
    Context,
    Plan,
    SearchTooBig,
    X,
    context_for,
    keep_caches_bounded,
    spend,
    work_budget,
)
from .fast import solve_few_wilds
from .sets import build_meld, finish, leftover_table, rank_options
from .suits import suit_clusters, suit_plan, suit_table

COLOUR = {s: tint for tint, suits in COLOUR_SUITS.items() for s in suits}
MIXED = dict.fromkeys(COLOUR, "*")
FAST_MOST = 20  # hands up to this size with at most one wild go to `solver_fast`

# --------------------------------------------------------------------------------------------
# the search


def solve(cards: Sequence[Card], ctx: Context, bound: int | None = None,
          melds: bool = True) -> Plan | None:
    """Least-weight arrangement of `cards`; None if none costs at most `bound`.

    With `melds=False` the plan holds the cost and the deadwood only (no `Meld` objects
    are built): enough for a bot weighing its options, and quicker.

    A search past its work budget (`WORK_BUDGET`, hands far beyond any real deal) answers
    conservatively: the best arrangement it could prove, at worst every card left in hand;
    so it may say "no go-out" where one exists, never the reverse."""
    try:
        with work_budget():
            return _solve(cards, ctx, bound, melds)
    except SearchTooBig:
        cost = sum(ctx.weigh_card(card) for card in cards)
        if bound is not None and cost > bound:
            return None
        return Plan(cost, [], list(cards))


def _solve(cards: Sequence[Card], ctx: Context, bound: int | None,
           melds: bool) -> Plan | None:
    p = ctx.p
    wild_ranks = p.wild_ranks
    if ctx.plain and len(cards) <= FAST_MOST and sum(
            1 for card in cards if card.rank in wild_ranks) <= 1:
        fast = solve_few_wilds(cards, ctx, bound, melds)
        keep_caches_bounded()
        return fast
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
    # (with a cap on wilds per meld a wild-rank card standing for itself saves a wild)
    free_count_rules = p.min_natural <= 1 and p.outnumber and p.max_wilds >= UNLIMITED
    best: Plan | None = None
    limit = None if bound is None else bound - dead_w
    if limit is not None and limit < 0:
        return None
    if not p.wild_natural:
        # wild-rank cards are wilds like jokers: melds of wilds alone only without naturals
        best = _solve_split(ctx, naturals, [], jokers + anchors, p.min_natural == 0, False,
                            limit, melds)
    elif free_count_rules or not anchors:
        allow = p.min_natural == 0 or (p.outnumber and p.min_natural <= 1)
        best = _solve_split(ctx, naturals, [], jokers + anchors, allow, p.min_natural == 1,
                            limit, melds)
    else:
        # stricter count rules: try every choice of wild-rank cards standing for themselves
        by_face: dict[tuple[int, str], list[Card]] = {}
        for card in anchors:
            by_face.setdefault(card.face, []).append(card)
        groups = list(by_face.values())
        for counts in product(*(range(len(g) + 1) for g in groups)):
            spend(1)
            as_nat = [c for g, k in zip(groups, counts, strict=True) for c in g[:k]]
            rest = [c for g, k in zip(groups, counts, strict=True) for c in g[k:]]
            cap = limit if best is None else best.cost - 1
            if cap is not None and cap < 0:
                break
            plan = _solve_split(ctx, naturals, as_nat, jokers + rest, p.min_natural == 0, False,
                                cap, melds)
            if plan is not None and (best is None or plan.cost < best.cost):
                best = plan
    if best is None:
        return None
    best.cost += dead_w
    best.deadwood.extend(dead)
    if bound is not None and best.cost > bound:
        return None
    keep_caches_bounded()
    return best


def _solve_split(ctx: Context, naturals: list[Card], as_nat: list[Card], pool: list[Card],
                 allow_allwild: bool, anchored: bool, bound: int | None,
                 melds: bool = True) -> Plan | None:
    """The search for one fixed choice of naturals and pool (see the module notes)."""
    budget = len(pool)
    # one pass: cards by suit (in place order) and by rank
    by_suit: dict[str, list[tuple[int, int, Card]]] = {}
    by_rank: dict[int, list[tuple[str, int, Card]]] = {}
    # runs of mixed suits: one "suit" for every card, or one for each colour where runs
    # are of one colour (`melds.run.one_colour`)
    mixed = not ctx.p.same_suit
    tint = COLOUR if ctx.p.run_colour else MIXED
    for card in naturals:
        rank = card.rank
        by_suit.setdefault(tint[card.suit] if mixed else card.suit, []).append(
            (rank * 2, rank, card))
        by_rank.setdefault(rank, []).append((card.suit, rank, card))
    for card in as_nat:
        rank = card.rank
        by_suit.setdefault(tint[card.suit] if mixed else card.suit, []).append(
            (rank * 2 + 1, rank + X, card))
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
        groups, loose = suit_clusters(ctx, budget, suit_codes)
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
        opts, allow_none = rank_options(ctx, budget,
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
    local: dict[tuple[int, int], tuple[Any, ...]] = {}
    tables = ctx.table_memo

    def cluster_table(cid: int, mask: int) -> tuple[Any, ...]:
        hit = local.get((cid, mask))
        if hit is None:
            items = clusters[cid][0]
            if mask:
                items = tuple(c for k, c in enumerate(items) if not mask >> k & 1)
            hit = tables.get((budget, items)) or suit_table(ctx, budget, items)
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
            from .scan import scan_applies, solve_scan

            if scan_applies(ctx):
                return solve_scan(ctx, naturals, pool, allow_allwild, anchored, bound, melds)
    comp_tables: list[tuple[Any, ...]] = []
    comp_info: list[tuple[Any, ...]] = []
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
    left = leftover_table(
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
                    free_cards, pool, left, budget, cluster_table, melds)


def _combine_costs(tables: list[Any], budget: int, need0: int, slack0: int) -> dict[Any, Any]:
    """Min-plus product of (need, slack, deadwood) tables: key -> least deadwood."""
    if budget == 0:
        total = 0
        for tab in tables:
            total += tab[0][2]
        return {(need0, slack0): total}
    # single-entry tables just shift the start: fold them in first
    base = 0
    several = []
    for tab in tables:
        if len(tab) == 1:
            n2, s2, d2 = tab[0]
            need0 += n2
            slack0 += s2
            base += d2
        else:
            several.append(tab)
    if need0 > budget:
        return {}
    states: dict[tuple[int, int], int] = {(need0, min(slack0, budget)): base}
    for tab in several:
        if len(tab) == 1:
            n2, s2, d2 = tab[0]
            new: dict[tuple[int, int], int] = {}
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
            spend(len(states) * len(tab))
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


def _combine(tables: list[Any], budget: int, need0: int, slack0: int) -> dict[Any, Any]:
    """Min-plus product of (need, slack, deadwood) tables: key -> (deadwood, keys used)."""
    if budget == 0:
        total = sum(tab[0][2] for tab in tables)
        return {(need0, slack0): (total, ((0, 0),) * len(tables))}
    states: dict[tuple[int, int], tuple[int, tuple[Any, ...]]] = {(need0, slack0): (0, ())}
    for tab in tables:
        new: dict[tuple[int, int], tuple[int, tuple[Any, ...]]] = {}
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


def _component(ctx: Context, budget: int, cids: list[int], ranks: list[Any],
               cluster_table: Any) -> tuple[Any, Any]:
    """Table of one component: every choice of set cores for its ranks, its clusters
    solved around them.  Returns ((need, slack, deadwood) entries, key -> choice)."""
    best: dict[tuple[int, int], tuple[int, tuple[Any, ...]]] = {}
    per_rank = [([None] if allow_none else []) + compiled
                for _, compiled, allow_none, _ in ranks]
    empty: dict[int, int] = {}
    one_cluster = len(cids) == 1
    for combo in product(*per_rank) if len(per_rank) > 1 else ((o,) for o in per_rank[0]):
        spend(len(cids))
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


def _member_key(member: tuple[str, int, Card]) -> tuple[str, int]:
    return member[0], member[1]


def _first(entry: tuple[Any, ...]) -> int:
    first: int = entry[0]
    return first


def _rebuild(ctx: Context, cost: int, comp_path: Any, total_key: Any, comp_info: Any,
             ranks: Any, clusters: Any, free_cards: Any, pool: Any, left: Any, budget: int,
             cluster_table: Any, melds: bool) -> Plan:
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
                cap = min(p.set_max - t, p.max_wilds)
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
        plan = suit_plan(ctx, budget, items, key)
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
        return Plan(cost, [build_meld(ctx, kind, naturals, places, [])
                           for kind, naturals, places, _, _ in cores] if melds else [],
                    deadwood)
    return finish(ctx, cost, cores, deadwood, pool, left[total_key[0]][total_key[1]], melds)


