"""The common case, solved directly: a hand with at most one wild, under plain meld rules.

Most hands hold no wild or a single one.  Then a meld is either made of naturals alone,
or is one that the single wild completes (a pair; two cards of a suit side by side or one
place apart; a run with the wild standing in for a card that melds elsewhere); and a wild
that completes nothing still melds for free in any set, or in any run with room at an
end.  So the best arrangement is the better of: the wild spare, plus the best choice among
the melds of naturals alone; or the wild in one meld it completes, plus the best choice
of natural melds from the cards left.  Random hands hold few natural melds, so that
choice is a small exact search; it is quicker than the general search with its tables of
wild counts, and exact in the same sense (every choice is tried or provably no better).

Plain rules (`Context.plain`) are: sets of any size and suits, runs up to the full length
without wrapping, wilds that may outnumber naturals, and no meld that a lone wild could
make by itself.  Anything else goes to the general search (`solver_core`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import itemgetter
from typing import Any

from ..cards import ACE, HIGH_ACE, JOKER_RANK, SUITS, Card
from ..meld_rules import MAX_RUN, MeldParams, run_positions_of
from .context import Context, Plan
from .sets import build_meld

# Counts of cards per face live in one int, a field of FIELD bits a face, each with a guard
# bit that a subtraction clears only when it takes more copies than there are; so taking a
# meld's cards out of what is left is one subtraction and one mask test.  (Hands that come
# here have at most `solver_core.FAST_MOST` cards, so a count never reaches the guard.)
FIELD = 6
GUARD = 1 << (FIELD - 1)
_GAIN = itemgetter(0)
# a face's id: 16 times its suit's place in SUITS, plus its rank (so id >> 4 is the suit)
SUIT_BASE = {suit: 16 * i for i, suit in enumerate(SUITS)}
GUARDS = sum(GUARD << (FIELD * i) for i in range(64))

# A meld the hand could make, as a tuple: (weight it takes out of the hand, wilds it needs,
# its cards as counts by face id, room for a spare wild, kind, face ids, a run's places).
Meld_ = tuple[int, int, int, bool, str, tuple[int, ...], tuple[int, ...]]


def solve_few_wilds(cards: Sequence[Card], ctx: Context, bound: int | None,
                    melds: bool) -> Plan | None:
    """Least-weight arrangement of a hand with at most one wild (see the module notes);
    None if none costs at most `bound`."""
    p = ctx.p
    wild_ranks = p.wild_ranks
    weight = ctx.weight
    wilds: list[Card] = []
    deadwood: list[Card] = []
    copies: dict[int, list[Card]] = {}
    held_w = 0
    for card in cards:
        rank = card.rank
        held_w += weight[rank]
        if rank in wild_ranks:
            wilds.append(card)
        elif rank == JOKER_RANK:
            deadwood.append(card)  # a joker that is not wild melds nowhere
        else:
            fid = SUIT_BASE[card.suit] + rank
            got = copies.get(fid)
            if got is None:
                copies[fid] = [card]
            else:
                got.append(card)
    start = GUARDS
    for fid, got in copies.items():
        start += len(got) << (FIELD * fid)
    found = _melds(ctx, copies, len(wilds))
    wild_w = weight[wilds[0].rank] if wilds else 0
    plain = [m for m in found if not m[1]]
    n = len(plain)
    memo: dict[tuple[Any, ...], tuple[int, bool]] = {}

    def fitting(i: int, left: int) -> int:
        """The first natural meld from the `i`th on whose cards are all still in hand."""
        while i < n and (left - plain[i][2]) & GUARDS != GUARDS:
            i += 1
        return i

    def pack(i: int, left: int, roomy: bool, bonus: int) -> int:
        """Most weight the natural melds from the `i`th on can take out of `left`, plus
        `bonus` (the spare wild's weight) once some chosen meld has room for the wild."""
        i = fitting(i, left)
        if i == n:
            return bonus if roomy else 0
        key = (i, left, roomy, bonus)
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        top = pack(i + 1, left, roomy, bonus)
        take = False
        meld = plain[i]
        # (it stays on offer: twin cards may make the same meld twice)
        got = meld[0] + pack(i, left - meld[2], roomy or meld[3], bonus)
        if got > top:
            top, take = got, True
        memo[key] = (top, take)
        return top

    # the wild spare (melding free where a meld has room), or completing one meld
    best = held_w - pack(0, start, False, wild_w)
    with_wild: Meld_ | None = None
    if wilds:
        most = pack(0, start, False, 0)
        touched = {f for m in plain for f in m[5]}
        for meld in sorted((m for m in found if m[1]), key=_GAIN, reverse=True):
            if held_w - wild_w - meld[0] - most >= best:
                break  # no meld from here on (they take less) can do better
            rest = start - meld[2]
            if rest & GUARDS != GUARDS:
                continue
            # natural melds sharing no face with this one lose nothing to it
            others = pack(0, rest, False, 0) if touched.intersection(meld[5]) else most
            cost = held_w - wild_w - meld[0] - others
            if cost < best:
                best, with_wild = cost, meld
    if bound is not None and best > bound:
        return None
    # follow the remembered choices to lay the arrangement out
    chosen: list[Meld_] = []
    left, bonus = start, wild_w
    if with_wild is not None:
        chosen.append(with_wild)
        left -= with_wild[2]
        bonus = 0
    roomy = False
    pack(0, left, roomy, bonus)  # (remembered already, unless a shortcut skipped it)
    i = fitting(0, left)
    while i < n:
        if memo[(i, left, roomy, bonus)][1]:
            meld = plain[i]
            chosen.append(meld)
            left -= meld[2]
            roomy = roomy or meld[3]
        else:
            i += 1
        i = fitting(i, left)
    for fid, got in copies.items():
        for _ in range((left >> (FIELD * fid)) & (GUARD - 1)):
            deadwood.append(got.pop())
    spare = wilds if with_wild is None else []
    if spare and not roomy:
        deadwood.extend(spare)
        spare = []
    plan = Plan(best, [], deadwood)
    if not melds:
        return plan
    # the spare wild joins the first meld with room: by place, as twin cards may have
    # chosen the very same meld twice
    host = next((i for i, m in enumerate(chosen) if m[3]), None) if spare else None
    for i, meld in enumerate(chosen):
        _, need, _, _, kind, fids, places = meld
        took = wilds if need else spare if i == host else []
        # a run's faces are listed low to high already
        plan.melds.append(build_meld(ctx, kind, [copies[f].pop() for f in fids], list(places),
                                 list(took)))
    return plan


def _melds(ctx: Context, copies: dict[int, list[Card]], wilds: int) -> list[Meld_]:
    """Every set and run the naturals could make, alone or with the one wild: looked up
    per suit (by the places it holds) and per rank (by its copies in each suit)."""
    p = ctx.p
    memo = ctx.shape_memo
    ace = sum(1 << q for q in run_positions_of(ACE, p))  # the places an ace may take
    masks = [0, 0, 0, 0]
    ranks: dict[int, list[int]] = {}
    for fid, got in copies.items():
        rank = fid & 15
        masks[fid >> 4] |= ace if rank == 1 else 1 << rank
        per = ranks.get(rank)
        if per is None:
            per = ranks[rank] = [0, 0, 0, 0]
        per[fid >> 4] = len(got)
    out: list[Meld_] = []
    least = p.set_min - wilds
    for rank, per in ranks.items():
        if sum(per) < least:
            continue
        key = (rank, *per, wilds)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _sets_of(ctx, rank, per, wilds)
        out.extend(found)
    # a card with no other within a wild's reach in its suit is in no run (every run here
    # holds two naturals at least): leaving such cards out makes far fewer patterns
    lone = p.run_min - wilds >= 2
    for suit, mask in enumerate(masks):
        if lone:
            near = 0
            for d in range(1, wilds + 2):
                near |= mask << d | mask >> d
            mask &= near
        if not mask:
            continue
        key = (-1 - suit, mask, wilds)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _runs_of(ctx, suit, mask, wilds)
        out.extend(found)
    return out


def _sets_of(ctx: Context, rank: int, per: list[int], wilds: int) -> list[Meld_]:
    """The sets of one rank, with `per` copies in each suit: any choice of copies big
    enough alone, or with the one wild."""
    p = ctx.p
    fids = [16 * s + rank for s in range(4) for _ in range(per[s])]
    out: dict[tuple[int, ...], Meld_] = {}
    for size in range(max(p.set_min - wilds, 1), len(fids) + 1):
        need = 0 if size >= p.set_min else 1
        for pick in combinations(fids, size):
            if pick not in out:
                out[pick] = (size * ctx.weight[rank], need, _counts(pick), True, "set", pick, ())
    return list(out.values())


def _runs_of(ctx: Context, suit: int, mask: int, wilds: int) -> list[Meld_]:
    """The runs of one suit holding the places in `mask`: every window with none missing,
    or with the wild (at most one) filling the one gap or standing in for a card held
    (that card then melds elsewhere)."""
    p: MeldParams = ctx.p
    if mask.bit_count() + wilds < p.run_min:
        return []
    shapes: dict[tuple[tuple[int, ...], int], None] = {}
    low, high, shortest = p.min_pos, p.max_pos, p.run_min
    first = (mask & -mask).bit_length() - 1
    last = mask.bit_length() - 1
    # a run's first place is at most `wilds` places before the first card it holds
    for a in range(max(low, first - wilds), min(last, high - shortest + 1) + 1):
        missing = 0
        for b in range(a, min(high, a + MAX_RUN - 1, last + wilds) + 1):
            if not mask >> b & 1:
                missing += 1
                if missing > wilds:
                    break
            if b - a + 1 < shortest:
                continue
            held = tuple(q for q in range(a, b + 1) if mask >> q & 1)
            if held:
                shapes[(held, missing)] = None
            if wilds and not missing and len(held) > 1:
                for q in held:
                    shapes[(tuple(h for h in held if h != q), 1)] = None
    weight = ctx.weight
    room = min(p.run_max, high - low + 1)
    out: list[Meld_] = []
    for held, need in shapes:
        fids = tuple(16 * suit + (1 if q == HIGH_ACE else q) for q in held)
        out.append((sum(weight[f & 15] for f in fids), need, _counts(fids),
                    len(held) + need < room, "run", fids, held))
    return out


def _counts(fids: tuple[int, ...]) -> int:
    return sum(1 << (FIELD * f) for f in fids)
