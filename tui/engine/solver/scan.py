"""The exact search for very large hands: a scan over the places A, 2, ..., K, A.

`solver_core` enumerates, rank by rank, which naturals go into sets and solves each suit
around them.  That is fastest for real hands, but the choices multiply: a hand of forty
cards has a dozen contested ranks.  This scan needs no such product.  It walks the places
low to high keeping, per suit, only the runs still open (how long each is), and at every
place decides for the cards there: into the rank's set, onto an open run, starting a run,
or deadwood; an open run without a card there takes a wild.  Open runs long enough that
their exact length can no longer matter are merged into one state, which keeps the number
of states small.

It covers the common count rules (at most one natural required per meld, wilds may
outnumber naturals) without wrap-around; `solver_core` falls back to it only then.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import Any

from ..cards import ACE, HIGH_ACE, SUITS, Card
from .context import Context, Plan, SearchTooBig, spend
from .sets import finish, leftover_table, set_core_options

JOKER_RANK = 0


def scan_applies(ctx: Context) -> bool:
    p = ctx.p
    return (not p.wrap and p.min_natural <= 1 and p.outnumber and ctx.runs_possible
            and p.run_min <= p.run_max and p.same_suit and not p.bounded
            and p.max_wilds >= 1 << 20  # (no cap on wilds per meld: `melds.max_wilds`)
            and not p.set_colour)


def solve_scan(ctx: Context, naturals: list[Card], pool: list[Card], allow_allwild: bool,
               anchored: bool, bound: int | None, melds: bool = True) -> Plan | None:
    """Least-weight arrangement of `naturals` with `pool` wilds (see the module notes).

    Three passes.  A narrow scan (keeping only the most promising states) finds a good
    arrangement quickly; its score caps every later pass, which drops any state already
    holding more deadwood.  Then a scan that lets every run take as many spare wilds as it
    likes: it need not track run lengths, so it is quick, and its answer can only be too
    low.  If the arrangement it finds scores the same with the runs' true room for wilds,
    that is the answer; otherwise a last scan tracks lengths exactly."""
    args = (ctx, naturals, pool, allow_allwild, anchored, melds)
    guess, _ = _Scan(*args, bound, optimistic=True, beam=48).run()  # may be past the budget
    if guess is not None and guess.cost == 0 and min(ctx.weight.values()) >= 0:
        return guess  # nothing scores less than nothing
    limit = bound if guess is None else guess.cost if bound is None else min(bound, guess.cost)
    try:
        plan, exact = _Scan(*args, limit, optimistic=True).run()
        if plan is None or exact:
            return plan
        return _Scan(*args, limit, optimistic=False).run()[0]
    except SearchTooBig:
        # Past the work budget: the narrow scan's arrangement is a real one (so a go-out
        # it finds is proven), only perhaps not the best.
        if guess is None:
            raise
        return guess


class _Scan:
    def __init__(self, ctx: Context, naturals: list[Card], pool: list[Card],
                 allow_allwild: bool, anchored: bool, melds: bool, bound: int | None,
                 optimistic: bool, beam: int | None = None) -> None:
        p = ctx.p
        self.ctx = ctx
        self.melds = melds
        self.optimistic = optimistic
        self.beam = beam
        # deadwood only grows along the scan: a state already past the bound is dropped
        self.limit = (1 << 60) if bound is None else bound
        self.p = p
        self.pool = pool
        self.budget = len(pool)
        self.bound = bound
        self.allow_allwild = allow_allwild
        self.anchored = anchored
        self.low = p.ace_low
        self.high = p.ace_high
        self.last = HIGH_ACE if self.high else 13
        # cards per (place, suit); aces sit at place 1 when low, else at 14
        self.cards: dict[tuple[int, str], list[Card]] = {}
        self.by_rank: dict[int, list[Card]] = {}
        for card in naturals:
            place = card.rank if card.rank != ACE or self.low else HIGH_ACE
            self.cards.setdefault((place, card.suit), []).append(card)
            self.by_rank.setdefault(card.rank, []).append(card)
        self.moves_memo: dict[tuple[Any, ...], list[Any]] = {}

    # -- per suit: what the cards at one place do to the open runs -----------------------

    def _norm(self, span: int, place: int) -> int:
        """Open runs this long and this early end alike: lengths that can never reach the
        region where the maximum length or the slack depend on them."""
        p = self.p
        room = 0 if self.optimistic else self.budget
        if p.run_min <= span <= p.run_max - room - (self.last - place):
            return p.run_min
        return span

    def _close(self, span: int) -> tuple[int, int]:
        """(wilds needed, slack) of a run core closed at this length."""
        p = self.p
        need = p.run_min - span if span < p.run_min else 0
        if self.optimistic:
            return need, self.budget
        slack = p.run_max - max(span, p.run_min)
        return need, slack if slack < self.budget else self.budget

    def moves(self, spans: tuple[int, ...], reserved: int, count: int, place: int) -> list[Any]:
        """Every way `count` identical cards at `place` act on a suit's open runs:
        [(new spans, new reserved, need, slack, dead cards, detail)]."""
        key = (spans, reserved, count, place)
        hit = self.moves_memo.get(key)
        if hit is not None:
            return hit
        p = self.p
        final = place == self.last
        may_reserve = place == 1 and self.low and self.high
        if place == HIGH_ACE and self.low:
            count, reserved_after = reserved, 0
        else:
            reserved_after = reserved
        out: list[tuple[Any, ...]] = []
        k = len(spans)
        seen: set[Any] = set()
        for keep in (range(count + 1) if may_reserve else (0,)):
            avail = count - keep
            for ext in _subsets(spans, min(k, avail)):
                gapped = [i for i in range(k) if i not in ext]
                if gapped and final:
                    continue
                # a run taking a wild here still needs a natural later: room for both
                if any(spans[i] + 2 > p.run_max for i in gapped):
                    continue
                if any(spans[i] + 1 > p.run_max for i in ext):
                    continue
                need_gap = len(gapped)
                if need_gap > self.budget:
                    continue
                for new in range(avail - len(ext) + 1):
                    dead = avail - len(ext) - new
                    took = [spans[i] + 1 for i in ext] + [1] * new
                    for closing in product((True, False), repeat=len(took)):
                        need, slack = need_gap, 0
                        cont = [self._norm(spans[i] + 1, place) for i in gapped]
                        ok = True
                        for span, close in zip(took, closing, strict=True):
                            if close:
                                n2, s2 = self._close(span)
                                need += n2
                                slack += s2
                            elif final or span >= p.run_max:
                                ok = False
                                break
                            else:
                                cont.append(self._norm(span, place))
                        if not ok or need > self.budget:
                            continue
                        new_spans = tuple(sorted(cont))
                        res = reserved_after + keep if may_reserve else reserved_after
                        sig = (new_spans, res, need, min(slack, self.budget), dead)
                        if sig in seen:
                            continue
                        seen.add(sig)
                        out.append(sig + ((keep, ext, tuple(gapped), new, closing),))
        self.moves_memo[key] = out
        return out

    # -- the scan -----------------------------------------------------------------------

    def set_options(self, place: int) -> list[Any]:
        """Set choices decided at `place`: [(cards per suit taken, need, slack, cores)]."""
        if place == HIGH_ACE and self.low:
            return [((0, 0, 0, 0), 0, 0, ())]
        rank = ACE if place in (1, HIGH_ACE) else place
        members = sorted(self.by_rank.get(rank, []), key=lambda c: (c.suit, c.uid))
        out: list[tuple[Any, ...]] = [((0, 0, 0, 0), 0, 0, ())]
        if len(members) < self.ctx.set_threshold(self.budget):
            return out
        sig = tuple((c.suit, c.rank) for c in members)
        for cores, need, slack in set_core_options(self.ctx, self.budget, sig):
            taken = [0, 0, 0, 0]
            for core in cores:
                for i in core:
                    taken[SUITS.index(members[i].suit)] += 1
            out.append((tuple(taken), need, slack,
                        tuple(tuple(members[i] for i in core) for core in cores)))
        return out

    def run(self) -> tuple[Plan | None, bool]:
        """(best plan or None when none is within the bound, whether it is exact)."""
        budget = self.budget
        weight = self.ctx.weight
        start = ((((), 0),) * 4)
        # stages of the scan; each maps a key to {(need, slack): (deadwood, back)}, where
        # back = (previous stage, key there, (need, slack) there, step taken)
        stages: list[dict[Any, Any]] = [{start: {(0, 0): (0, None)}}]
        first = 1 if self.low else 2
        limit = self.limit
        for place in range(first, self.last + 1):
            rank = ACE if place in (1, HIGH_ACE) else place
            w = weight[rank]
            options = self.set_options(place)
            # the set decided here (if any) ...
            prev_i = len(stages) - 1
            staged: dict[tuple[Any, ...], dict[Any, Any]] = {}
            for state, table in stages[prev_i].items():
                spend((1 + len(table)) * len(options))
                for o_index, (_, o_need, o_slack, _) in enumerate(options):
                    bucket: dict[Any, Any] = {}
                    for (n, s), (dw, _) in table.items():
                        nn = n + o_need
                        if nn > budget:
                            continue
                        ss = min(budget, s + o_slack)
                        old = bucket.get((nn, ss))
                        if old is None or dw < old[0]:
                            bucket[(nn, ss)] = (dw, (prev_i, state, (n, s),
                                                     ("set", place, o_index)))
                    if bucket:
                        staged[(state, o_index)] = bucket
            stages.append(staged)
            # ... then what every suit's cards there do
            for si in range(4):
                here = len(self.cards.get((place, SUITS[si]), ()))
                prev_i = len(stages) - 1
                after: dict[tuple[Any, ...], dict[Any, Any]] = {}
                for key, table in stages[prev_i].items():
                    state, o_index = key
                    spans, reserved = state[si]
                    count = 0 if place == HIGH_ACE and self.low else here - options[o_index][0][si]
                    moves = self.moves(spans, reserved, count, place)
                    spend(1 + (1 + len(table)) * len(moves))
                    for new_spans, res, m_need, m_slack, dead, detail in moves:
                        new_key = (state[:si] + ((new_spans, res),) + state[si + 1:], o_index)
                        bucket = after.setdefault(new_key, {})
                        for (n, s), (dw, _) in table.items():
                            nn = n + m_need
                            if nn > budget:
                                continue
                            ss = s + m_slack
                            ss = ss if ss < budget else budget
                            d = dw + dead * w
                            if d > limit:
                                continue
                            old = bucket.get((nn, ss))
                            if old is None or d < old[0]:
                                bucket[(nn, ss)] = (d, (prev_i, key, (n, s),
                                                        ("suit", place, si, detail)))
                stages.append({k: v for k, v in after.items() if v})
            # the set choice is spent: merge on the suits' states alone
            prev_i = len(stages) - 1
            merged: dict[tuple[Any, ...], dict[Any, Any]] = {}
            for key, table in stages[prev_i].items():
                spend(1 + len(table))
                into = merged.setdefault(key[0], {})
                for ns, (dw, _) in table.items():
                    old = into.get(ns)
                    if old is None or dw < old[0]:
                        into[ns] = (dw, (prev_i, key, ns, None))
            if self.beam is not None and len(merged) > self.beam:
                keep = sorted(merged, key=lambda k: min(e[0] for e in merged[k].values()))
                merged = {k: merged[k] for k in keep[:self.beam]}
            stages.append(merged)
        final = stages[-1].get(start)
        if not final:
            return None, True
        left = leftover_table(
            self.ctx,
            tuple(sorted((weight[c.rank] for c in self.pool if c.rank == JOKER_RANK),
                         reverse=True)),
            tuple(sorted((weight[c.rank] for c in self.pool if c.rank != JOKER_RANK),
                         reverse=True)),
            self.allow_allwild, self.anchored)
        best_key, best_cost = min(((key, dw + left[key[0]][key[1]][0])
                                   for key, (dw, _) in final.items()), key=lambda kc: kc[1])
        if self.bound is not None and best_cost > self.bound:
            return None, True
        steps = []
        back = final[best_key][1]
        while back is not None:
            i, key, ns, step = back
            if step is not None:
                steps.append(step)
            back = stages[i][key][ns][1]
        steps.reverse()
        cores, deadwood = self.replay(steps)
        choice = left[best_key[0]][best_key[1]]
        exact = True
        if self.optimistic:
            # the runs' true room for spare wilds: the same score means the answer is exact
            slack = min(budget, sum(core[4] for core in cores))
            choice = left[best_key[0]][slack]
            real = final[best_key][0] + choice[0]
            exact = real == best_cost
            best_cost = real
        return finish(self.ctx, best_cost, cores, deadwood, self.pool, choice,
                      self.melds), exact

    # -- back to cards ------------------------------------------------------------------

    def replay(self, steps: list[Any]) -> tuple[list[Any], list[Card]]:
        """Follow the winning steps with the actual cards: set and run cores, deadwood."""
        p = self.p
        cores: list[Any] = []
        deadwood: list[Card] = []
        open_runs: dict[str, list[list[tuple[Card, int]]]] = {s: [] for s in SUITS}
        reserved: dict[str, list[Card]] = {s: [] for s in SUITS}
        hand = {k: list(v) for k, v in self.cards.items()}
        options_at: dict[int, list[Any]] = {}
        for step in steps:
            if step[0] == "set":
                place, o_index = step[1], step[2]
                options = options_at.setdefault(place, self.set_options(place))
                for core in options[o_index][3]:
                    for card in core:
                        spot = hand[(card.rank if card.rank != ACE or self.low else HIGH_ACE,
                                     card.suit)]
                        del spot[next(i for i, c in enumerate(spot) if c is card)]
                    t = len(core)
                    need = max(0, p.set_min - t)
                    cap = p.set_max - t
                    cores.append(("set", list(core), [], need, min(self.budget, cap - need)))
                continue
            _, place, si, detail = step
            suit = SUITS[si]
            keep, ext, gapped, new, closing = detail
            runs = open_runs[suit]
            if place == HIGH_ACE and self.low:
                here, reserved[suit] = reserved[suit], []
            else:
                here = hand.get((place, suit), [])
                hand[(place, suit)] = []
            if keep:
                reserved[suit].extend(here[:keep])
                here = here[keep:]
            took = []
            for i in ext:
                runs[i].append((here.pop(), place))
                took.append(runs[i])
            for _ in range(new):
                took.append([(here.pop(), place)])
            deadwood.extend(here)
            still = [runs[i] for i in gapped]
            for run, close in zip(took, closing, strict=True):
                if close:
                    cores.append(self._run_core(run))
                else:
                    still.append(run)
            # open runs in the order of the scan's state: by (normalised) length
            still.sort(key=lambda r: self._norm(place - r[0][1] + 1, place))
            open_runs[suit] = still
        for suit in SUITS:
            deadwood.extend(reserved[suit])  # aces kept for the high end but not used
        return cores, deadwood

    def _run_core(self, run: list[tuple[Card, int]]) -> tuple[Any, ...]:
        p = self.p
        naturals = [c for c, _ in run]
        places = [q for _, q in run]
        span = places[-1] - places[0] + 1
        need = max(span, p.run_min) - len(run)
        slack = min(self.budget, p.run_max - max(span, p.run_min))
        return ("run", naturals, places, need, slack)


def _subsets(spans: tuple[int, ...], most: int) -> Iterator[tuple[int, ...]]:
    """Index sets of open runs that take a card (runs of equal length are alike)."""
    seen = set()
    for size in range(min(len(spans), most) + 1):
        for combo in combinations(range(len(spans)), size):
            sig = tuple(spans[i] for i in combo)
            if sig not in seen:
                seen.add(sig)
                yield combo
