"""Sets and the pool of wilds: the ways one rank's naturals form set cores, what the
wilds left over can still do, and turning cores plus wilds into melds."""

from __future__ import annotations

from typing import Any

from ..cards import JOKER_RANK, SUITS, Card
from ..meld import Meld
from ..meld_params import COLOUR_SUITS, colour
from ..meld_rules import run_positions_of, validate_meld
from .context import Context, Plan


def set_core_options(ctx: Context, budget: int,
                     cards: tuple[tuple[str, int], ...]) -> tuple[Any, ...]:
    """Ways to put some of one rank's naturals (suit, code) into set cores:
    [(cores as index tuples, need, slack)], without the empty choice."""
    key = (budget, cards)
    hit: tuple[Any, ...] | None = ctx.set_memo.get(key)
    if hit is not None:
        return hit
    p = ctx.p
    n = len(cards)
    seen: set[Any] = set()
    out: list[tuple[Any, ...]] = []

    least = ctx.set_threshold(budget)
    one_colour = p.set_colour  # (`melds.set.one_colour`)

    def core_ok(core: list[int]) -> tuple[int, int] | None:
        t = len(core)
        if t < least or t > p.set_max:
            return None
        if p.distinct_suits and len({cards[i][0] for i in core}) < t:
            return None
        if one_colour and len({colour(cards[i][0]) for i in core}) > 1:
            return None
        need = max(0, p.set_min - t)
        cap = p.set_max - t
        if cap > p.max_wilds:
            cap = p.max_wilds
        if not p.outnumber and cap > t:
            cap = t
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


def _allwild_sums(ctx: Context, pool_size: int, anchored: bool,
                  anchors: int) -> list[tuple[int, int]]:
    """(melds, total size) pairs possible for melds made of wilds alone."""
    p = ctx.p
    most = min(pool_size, p.max_wilds)  # (a meld of wilds alone: every card a wild)
    sizes = set(range(p.set_min, min(p.set_max, most) + 1))
    if ctx.runs_possible:
        sizes |= set(range(p.run_min, min(p.run_max, most) + 1))
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


def leftover_table(ctx: Context, jokers: tuple[int, ...], anchors: tuple[int, ...],
                    allow_allwild: bool, anchored: bool) -> Any:
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


def rank_options(ctx: Context, budget: int, sig: tuple[tuple[str, int], ...],
                 stuck: tuple[int, ...]) -> tuple[tuple[Any, ...], bool]:
    """Set options of one rank in this hand, without those that provably lose: a card no
    run can hold joins the set when a set is made (single-core rules), and making no set
    loses to a free set of such cards.  Returns (options, whether "no set" is worth a try)."""
    key = (budget, sig, stuck)
    hit: tuple[tuple[Any, ...], bool] | None = ctx.rank_memo.get(key)
    if hit is not None:
        return hit
    opts = set_core_options(ctx, budget, sig)
    if stuck and ctx.set_single_core:
        opts = tuple(o for o in opts if all(i in o[0][0] for i in stuck))
    stuck_set = set(stuck)
    allow_none = not any(
        need == 0 and all(i in stuck_set for core in cores for i in core)
        for cores, need, _ in opts)
    out = (tuple(opts), allow_none)
    ctx.rank_memo[key] = out
    return out


def finish(ctx: Context, cost: int, cores: list[Any], deadwood: list[Card], pool: list[Card],
           wild_choice: tuple[Any, ...], melds: bool = True) -> Plan:
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
    if not melds:
        return Plan(cost, [], deadwood)
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
    built = [build_meld(ctx, kind, naturals, places, wilds)
             for (kind, naturals, places, _, _), wilds in zip(cores, given, strict=True)]
    for lead, size in zip(leads, sizes, strict=True):
        wilds = giving[:size - len(lead)]
        del giving[:size - len(lead)]
        kind = "set" if p.set_min <= size <= p.set_max else "run"
        built.append(build_meld(ctx, kind, lead, [], wilds))
    assert not giving
    return Plan(cost, built, deadwood)


def build_meld(ctx: Context, kind: str, naturals: list[Card], places: list[int],
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
        own = [w for w in wilds if w.rank == rank and not (p.distinct_suits and w.suit in used)
               and not (p.set_colour and colour(w.suit) != colour(naturals[0].suit))]
        if p.distinct_suits:
            own = list({w.suit: w for w in own}.values())
            used |= {w.suit for w in own}
        others = [w for w in wilds if all(w is not o for o in own)]
        faces += [(rank, w.suit) for w in own]
        if p.distinct_suits:
            missing = [s for s in (COLOUR_SUITS[colour(naturals[0].suit)] if p.set_colour
                                   else SUITS) if s not in used]
            faces += [(rank, missing[k]) for k in range(len(others))]
        else:
            faces += [(rank, "")] * len(others)
        return Meld("set", tuple(naturals) + tuple(own) + tuple(others), tuple(faces))
    if naturals and places and not p.wrap:
        mixed = not p.same_suit  # naturals show their own suits, wilds none
        suit = "" if mixed else naturals[0].suit
        if not wilds:  # the solver lists a run's naturals low to high
            if mixed:
                return Meld("run", tuple(naturals),
                            tuple([(q, c.suit) for q, c in zip(places, naturals, strict=True)]))
            return Meld("run", tuple(naturals), tuple([(q, suit) for q in places]))
        by_place = dict(zip(places, naturals, strict=True))
        lo, hi = min(places), max(places)
        gaps = hi - lo + 1 - len(places)
        extra = len(wilds) - gaps
        # a wild of the run's suit may stand for itself (3C in 3C-4C-5C, threes wild):
        # extend the run down to such wilds before the high end
        own_place: dict[int, Card] = {}
        for wild in wilds:
            if (wild.suit == suit or mixed) and wild.rank != JOKER_RANK and p.wild_natural \
                    and not (p.run_colour and colour(wild.suit) != colour(naturals[0].suit)):
                for q in run_positions_of(wild.rank, p):
                    own_place.setdefault(q, wild)
        down = 0
        while down < extra and lo - 1 - down >= p.min_pos and lo - 1 - down in own_place:
            down += 1
        up = min(extra - down, p.max_pos - hi)
        lo -= extra - up
        hi += up
        slots = [q for q in range(lo, hi + 1) if q not in by_place]
        placed: dict[int, Card] = {}
        left = list(wilds)
        for q in slots:
            itself = own_place.get(q)
            if itself is not None and any(w is itself for w in left):
                placed[q] = itself
                left = [w for w in left if w is not itself]
        spare = iter(left)
        seq = [by_place.get(q) or placed.get(q) or next(spare) for q in range(lo, hi + 1)]
        if mixed:
            shown = [c.suit if q in by_place or q in placed else ""
                     for q, c in zip(range(lo, hi + 1), seq, strict=True)]
            return Meld("run", tuple(seq), tuple(zip(range(lo, hi + 1), shown, strict=True)))
        return Meld("run", tuple(seq), tuple((q, suit) for q in range(lo, hi + 1)))
    # wrap-around runs and melds of wilds alone: let the validator lay them out
    fixed: list[Any] = []
    for k, card in enumerate(naturals):
        if kind == "set":
            fixed.append((card.rank, card.suit))
        else:
            place = places[k] if places else run_positions_of(card.rank, p)[0]
            fixed.append((place, card.suit))
    return validate_meld(list(naturals) + list(wilds), fixed + [None] * len(wilds), p, kind, "")


def _split_sizes(ctx: Context, k: int, total: int) -> list[int]:
    """Sizes of k melds of wilds alone adding up to total."""
    if k == 0:
        return [] if total == 0 else None  # type: ignore[return-value]
    p = ctx.p
    most = min(total, p.max_wilds)
    sizes = set(range(p.set_min, min(p.set_max, most) + 1))
    if ctx.runs_possible:
        sizes |= set(range(p.run_min, min(p.run_max, most) + 1))
    for z in sorted(sizes, reverse=True):
        rest = _split_sizes(ctx, k - 1, total - z)
        if rest is not None:
            return [z, *rest]
    return None  # type: ignore[return-value]
