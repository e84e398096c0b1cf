"""A quick necessary test before the exact search: are there wilds enough to meld the hand?

Most hands asked "can you go out?" cannot, and usually for a plain reason.  Each natural
card has a *reach*: the fewest wilds any meld holding it would need, given the other
naturals in hand (a card with two partners needs none; a card alone in its rank and its
stretch of suit needs two for a three-card meld).  A meld only ever joins cards of one rank
or of one suit, so among the cards that need wilds, those of different suits and ranks
can never share a meld, and each group of cards linked by suit or rank needs at least the
largest reach in it.  When those needs add up to more wilds than the hand holds (after
setting aside the one card a discard may take away), the hand cannot go out and the exact
search is skipped.  Every estimate here errs low, so no hand that can go out is turned
away.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import JOKER_RANK, Card
from ..meld_rules import MeldParams, run_positions_of
from .context import Context


def may_go_out(cards: Sequence[Card], ctx: Context, spare: int) -> bool:
    """False only if `cards` certainly cannot all be melded but for `spare` of them."""
    p = ctx.p
    wild_ranks = p.wild_ranks
    wilds = 0
    naturals: list[Card] = []
    for card in cards:
        if card.rank in wild_ranks:
            wilds += 1
        elif card.rank == JOKER_RANK:
            if not spare:  # a joker that is not wild melds nowhere
                return False
            spare -= 1
        else:
            naturals.append(card)
    bits, windows = _shape(ctx)
    by_rank: dict[int, int] = {}
    suit_masks: dict[str, int] = {}
    mixed = not p.same_suit  # runs of mixed suits: every card in one "suit"
    for card in naturals:
        by_rank[card.rank] = by_rank.get(card.rank, 0) + 1
        suit = "*" if mixed else card.suit
        suit_masks[suit] = suit_masks.get(suit, 0) | bits[card.rank]
    set_min, need = p.set_min, p.run_min
    # the cards that need wilds, with their reach
    needy: list[tuple[int, str, int]] = []
    for card in naturals:
        reach = set_min - by_rank[card.rank]
        if reach <= 0:
            continue
        mask = suit_masks["*" if mixed else card.suit]
        for window in windows[card.rank]:
            missing = need - (mask & window).bit_count()
            if missing < reach:
                reach = missing
                if not reach:
                    break
        if not reach:
            continue
        if reach > wilds:
            if not spare:
                return False
            spare -= 1  # this card can only be the one left out
            continue
        needy.append((card.rank, "*" if mixed else card.suit, reach))
    if not needy:
        return True
    return _least_wilds(needy, suit_masks, wilds, spare, p) <= wilds


def _least_wilds(needy: list[tuple[int, str, int]], suit_masks: dict[str, int], wilds: int,
                 spare: int, p: MeldParams) -> int:
    """Fewest wilds the needy cards take, `spare` of them (at most one) left out.

    Two needy cards can share a meld only if they have the same rank, or the same suit and
    no more gaps between them than there are wilds; cards that cannot be linked that way
    meld apart, and each group needs at least its largest reach.  (Within a suit it is
    enough to try neighbours in run order: a card between two that may share a meld may
    share one with each of them.)"""
    parent = list(range(len(needy)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_of_rank: dict[int, int] = {}
    by_suit: dict[str, list[tuple[int, int]]] = {}
    for i, (rank, suit, _) in enumerate(needy):
        j = first_of_rank.setdefault(rank, i)
        if j != i:
            parent[root(i)] = root(j)
        places = by_suit.setdefault(suit, [])
        places.extend((q, i) for q in run_positions_of(rank, p))
    for suit, places in by_suit.items():
        places.sort()
        mask = suit_masks[suit]
        for (low, i), (high, j) in zip(places, places[1:], strict=False):
            if p.wrap or (high - low + 1 <= p.run_max and (high - low - 1) - (
                    mask & ((1 << high) - 1) & ~((1 << (low + 1)) - 1)).bit_count() <= wilds):
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i, (_, _, reach) in enumerate(needy):
        groups.setdefault(root(i), []).append(reach)
    total = 0
    saving = 0
    for reaches in groups.values():
        reaches.sort(reverse=True)
        total += reaches[0]
        if spare:
            # leaving one card out lowers its group's need at best to the next largest reach
            saving = max(saving, reaches[0] - (reaches[1] if len(reaches) > 1 else 0))
    return total - saving


def _shape(ctx: Context) -> tuple[list[int], list[tuple[int, ...]]]:
    """Per rank: its run positions as a bit mask, and the masks of the shortest runs
    through it (none when runs are not allowed).  Kept with the round's solver context."""
    if ctx.quick_shape is not None:
        return ctx.quick_shape
    p = ctx.p
    need = p.run_min
    through: dict[int, list[int]] = {}
    if p.run_min <= p.run_max:
        if p.wrap:
            starts = [[(start - 1 + i) % 13 + 1 for i in range(need)] for start in range(1, 14)]
        else:
            starts = [list(range(start, start + need))
                      for start in range(p.min_pos, p.max_pos - need + 2)]
        for cells in starts:
            if len(set(cells)) < need:
                continue
            mask = sum(1 << c for c in cells)
            for c in cells:
                through.setdefault(c, []).append(mask)
    bits = [0] * 14
    windows: list[tuple[int, ...]] = [()] * 14
    for rank in range(1, 14):
        masks: list[int] = []
        for pos in run_positions_of(rank, p):
            bits[rank] |= 1 << pos
            masks.extend(through.get(pos, ()))
        windows[rank] = tuple(masks)
    shape = (bits, windows)
    ctx.quick_shape = shape
    return shape
