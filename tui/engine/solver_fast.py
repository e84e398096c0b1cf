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
from itertools import product
from operator import attrgetter

from .cards import JOKER_RANK, Card
from .meld_rules import MAX_RUN, MeldParams
from .solver_context import Context, Plan
from .solver_sets import _build

HIGH_ACE = 14
# Counts of cards per face live in one int, a field of FIELD bits a face, each with a guard
# bit that a subtraction clears only when it takes more copies than there are; so taking a
# meld's cards out of what is left is one subtraction and one mask test.  (Hands that come
# here have at most `solver_core.FAST_MOST` cards, so a count never reaches the guard.)
FIELD = 6
GUARD = 1 << (FIELD - 1)
_BY_SUIT = attrgetter("suit", "rank")
_GAIN = attrgetter("gain")


class _Meld:
    """A meld the hand could make: its faces (indices, repeats for twin cards), a run's
    places (aligned with the faces), the wilds it takes, the weight it takes out of the
    hand, and whether it has room for a spare wild."""

    __slots__ = ("kind", "faces", "places", "need", "gain", "room", "take")

    def __init__(self, kind: str, faces: tuple[int, ...], places: tuple[int, ...],
                 need: int, gain: int, room: bool) -> None:
        self.kind, self.faces, self.places = kind, faces, places
        self.need, self.gain, self.room = need, gain, room
        self.take = sum(1 << (FIELD * f) for f in faces)  # its cards, as counts


def solve_few_wilds(cards: Sequence[Card], ctx: Context, bound: int | None,
                    melds: bool) -> Plan | None:
    """Least-weight arrangement of a hand with at most one wild (see the module notes);
    None if none costs at most `bound`."""
    p = ctx.p
    wild_ranks = p.wild_ranks
    weight = ctx.weight
    wilds: list[Card] = []
    deadwood: list[Card] = []
    naturals: list[Card] = []
    for card in cards:
        if card.rank in wild_ranks:
            wilds.append(card)
        elif card.rank == JOKER_RANK:
            deadwood.append(card)  # a joker that is not wild melds nowhere
        else:
            naturals.append(card)
    # faces by suit, then rank: within a suit, face order is run order (bar a high ace)
    naturals.sort(key=_BY_SUIT)
    faces: list[tuple[int, str]] = []
    copies: list[list[Card]] = []
    for card in naturals:
        if faces and faces[-1] == (card.rank, card.suit):
            copies[-1].append(card)
        else:
            faces.append((card.rank, card.suit))
            copies.append([card])
    counts = [len(c) for c in copies]
    guards = sum(GUARD << (FIELD * f) for f in range(len(faces)))
    start = guards + sum(c << (FIELD * f) for f, c in enumerate(counts))
    face_w = [weight[r] for r, _ in faces]
    found = _melds(ctx, faces, counts, face_w, len(wilds))
    wild_w = weight[wilds[0].rank] if wilds else 0
    held_w = sum(w * c for w, c in zip(face_w, counts, strict=True)) + wild_w + sum(
        weight[c.rank] for c in deadwood)
    plain = [m for m in found if not m.need]
    memo: dict[tuple, tuple[int, bool]] = {}

    def pack(i: int, left: int, roomy: bool, bonus: int) -> int:
        """Most weight the natural melds from the `i`th on can take out of `left`, plus
        `bonus` (the spare wild's weight) once some chosen meld has room for the wild."""
        if i == len(plain):
            return bonus if roomy else 0
        key = (i, left, roomy, bonus)
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        top = pack(i + 1, left, roomy, bonus)
        take = False
        meld = plain[i]
        rest = left - meld.take
        if rest & guards == guards:  # (twin cards may make the same meld twice)
            got = meld.gain + pack(i, rest, roomy or meld.room, bonus)
            if got > top:
                top, take = got, True
        memo[key] = (top, take)
        return top

    # the wild spare (melding free where a meld has room), or completing one meld
    best = held_w - pack(0, start, False, wild_w)
    with_wild: _Meld | None = None
    if wilds:
        most = pack(0, start, False, 0)
        touched = {f for m in plain for f in m.faces}
        for meld in sorted((m for m in found if m.need), key=_GAIN, reverse=True):
            if held_w - wild_w - meld.gain - most >= best:
                break  # no meld from here on (they take less) can do better
            rest = start - meld.take
            if rest & guards != guards:
                continue
            # natural melds sharing no face with this one lose nothing to it
            others = pack(0, rest, False, 0) if touched.intersection(meld.faces) else most
            cost = held_w - wild_w - meld.gain - others
            if cost < best:
                best, with_wild = cost, meld
    if bound is not None and best > bound:
        return None
    # follow the remembered choices to lay the arrangement out
    chosen: list[_Meld] = []
    left, bonus = start, wild_w
    if with_wild is not None:
        chosen.append(with_wild)
        left -= with_wild.take
        bonus = 0
    roomy = False
    pack(0, left, roomy, bonus)  # (remembered already, unless a shortcut skipped it)
    i = 0
    while i < len(plain):
        if memo[(i, left, roomy, bonus)][1]:
            meld = plain[i]
            chosen.append(meld)
            left -= meld.take
            roomy = roomy or meld.room
        else:
            i += 1
    for f in range(len(faces)):
        c = (left >> (FIELD * f)) & (GUARD - 1)
        deadwood.extend(copies[f].pop() for _ in range(c))
    spare = wilds if with_wild is None else []
    if spare and not roomy:
        deadwood.extend(spare)
        spare = []
    plan = Plan(best, [], deadwood)
    if not melds:
        return plan
    host = next((m for m in chosen if m.room), None) if spare else None
    for meld in chosen:
        cards_in = [copies[f].pop() for f in meld.faces]
        took = wilds if meld.need else spare if meld is host else []
        places = meld.places
        if places and places != tuple(sorted(places)):  # a run's naturals go low to high
            pairs = sorted(zip(places, cards_in, strict=True), key=lambda pc: pc[0])
            places = tuple(q for q, _ in pairs)
            cards_in = [c for _, c in pairs]
        plan.melds.append(_build(ctx, meld.kind, cards_in, list(places), list(took)))
    return plan


def _melds(ctx: Context, faces: list[tuple[int, str]], counts: list[int],
           face_w: list[int], wilds: int) -> list[_Meld]:
    """Every set and run the naturals could make, alone or with the one wild."""
    p = ctx.p
    out: list[_Meld] = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[str, dict[int, int]] = {}
    for f, (rank, suit) in enumerate(faces):
        by_rank.setdefault(rank, []).append(f)
        places = by_suit.setdefault(suit, {})
        if rank == 1:
            if p.ace_low:
                places[1] = f
            if p.ace_high:
                places[HIGH_ACE] = f
        else:
            places[rank] = f
    # sets: any choice of copies of one rank, big enough alone or with the wild
    least = p.set_min - wilds
    for fs in by_rank.values():
        if len(fs) == 1:
            if counts[fs[0]] < least:
                continue
        elif sum(counts[f] for f in fs) < least:
            continue
        for takes in product(*(range(counts[f] + 1) for f in fs)):
            size = sum(takes)
            if size < max(least, 1):
                continue
            pick = tuple(f for f, k in zip(fs, takes, strict=True) for _ in range(k))
            out.append(_Meld("set", pick, (), 0 if size >= p.set_min else 1,
                             sum(face_w[f] for f in pick), True))
    # runs: per suit, the shapes its places allow
    for places in by_suit.values():
        if len(places) + wilds < p.run_min:
            continue
        mask = 0
        for q in places:
            mask |= 1 << q
        for held, need, gain, room in _run_shapes(ctx, mask, wilds):
            out.append(_Meld("run", tuple([places[q] for q in held]), held, need, gain, room))
    return out


def _run_shapes(ctx: Context, mask: int, wilds: int
                ) -> list[tuple[tuple[int, ...], int, int, bool]]:
    """The runs a suit's places (bits of `mask`) allow, as (places held, wilds needed,
    weight the naturals take out of the hand, room for a spare wild):
    every window with none missing, or with the wild (at most one) filling the one gap or
    standing in for a card held (that card then melds elsewhere).  The same patterns of
    places come back hand after hand, so they are worked out once per round's rules."""
    key = (mask, wilds)
    hit = ctx.shape_memo.get(key)
    if hit is not None:
        return hit
    p: MeldParams = ctx.p
    shapes: dict[tuple[tuple[int, ...], int], None] = {}
    low, high, shortest = p.min_pos, p.max_pos, p.run_min
    for a in range(low, high - shortest + 2):
        missing = 0
        for b in range(a, min(high, a + MAX_RUN - 1) + 1):
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
    out = ctx.shape_memo[key] = [
        (held, need, sum(weight[1 if q == HIGH_ACE else q] for q in held),
         len(held) + need < room) for held, need in shapes]
    return out
