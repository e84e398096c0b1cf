"""The candidate cores of a contract search: each set or run a contract meld could be
built around, from the natural cards of the hand (a wild-rank card may act as a natural),
with how many wilds it needs and can take.

The search picks among these only, so everything a meld's own rules rule out (sizes, one
colour, the wild cap and ratio, the places a run may use) is ruled out here, once, before
the search starts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cards import SUITS
from ..meld_params import COLOUR_SUITS, colour
from ..meld_rules import MeldParams, run_positions_of
from .contract_hand import ContractHand, Core


def set_cores(hand: ContractHand, least: int, most: int, fixed: int | None = None) -> list[Core]:
    """Set cores of `least` to `most` cards; of rank `fixed` only, if given."""
    p = hand.p
    out: list[Core] = []
    by_rank: dict[int, list[int]] = {}
    for f in hand.core_faces:
        by_rank.setdefault(hand.faces[f][0], []).append(f)
    most_wilds = p.max_wilds
    one_colour = p.set_colour  # (`melds.set.one_colour`)
    for rank in range(1, 14) if fixed is None else (fixed,):
        fs = by_rank.get(rank)
        if not fs:
            continue
        limits = [1 if p.distinct_suits else hand.count[f] for f in fs]
        for combo in _multisets(fs, limits):
            t = len(combo)
            if t < hand.nat_min or t > most:
                continue
            if one_colour and len({colour(hand.faces[f][1]) for f in combo}) > 1:
                continue
            need = max(0, least - t)
            cap = most - t
            if cap > most_wilds:
                cap = most_wilds
            if not p.outnumber and cap > t:
                cap = t
            if need > cap or need > hand.total_wilds:
                continue
            value = sum(hand.value[f] for f in combo)
            out.append(("set", tuple(combo), (), t, need, cap, value, rank, least, most))
    if hand.allwild_ok and least <= min(most, hand.total_wilds, p.max_wilds):
        out.append(("set", (), (), 0, least, min(most, p.max_wilds), 0, fixed, least,
                    most))
    return out

def run_cores(hand: ContractHand, least: int, most: int) -> list[Core]:
    """Run cores of `least` to `most` cards: per suit, or with runs of mixed suits per
    colour or of any suits."""
    p = hand.p
    out: list[Core] = []
    if least > most:
        return out
    most_wilds = p.max_wilds
    # runs of mixed suits: one "suit" of every card, or one of each colour
    for suit in (SUITS if p.same_suit else tuple(COLOUR_SUITS) if p.run_colour
                 else ("*",)):
        if p.run_colour:
            fs = [f for f in hand.core_faces
                  if hand.faces[f][0] != 0 and colour(hand.faces[f][1]) == suit]
        else:
            fs = [f for f in hand.core_faces
                  if hand.faces[f][0] != 0 and suit in (hand.faces[f][1], "*")]
        if not fs:
            continue
        # each face once per run; aces take each place they may
        options: list[tuple[int, int]] = []  # (place, face)
        for f in fs:
            for q in run_positions_of(hand.faces[f][0], p):
                options.append((q, f))
        options.sort()
        for chosen in _run_subsets(options, p, hand.total_wilds, most):
            faces = tuple(f for _, f in chosen)
            if len(set(faces)) < len(faces):
                continue
            places = tuple(q for q, _ in chosen)
            t = len(chosen)
            if t < hand.nat_min:
                continue
            span = _span(places, p.wrap)
            if span > most:
                continue
            length = max(span, least)
            need = length - t
            cap = most - t
            if cap > most_wilds:
                cap = most_wilds
            if not p.outnumber and cap > t:
                cap = t
            if need > cap or need > hand.total_wilds:
                continue
            value = sum(hand.value[f] for f in faces)
            out.append(("run", faces, places, t, need, cap, value, suit, least, most))
    if hand.allwild_ok and least <= min(most, hand.total_wilds, p.max_wilds):
        out.append(("run", (), (), 0, least, min(most, p.max_wilds), 0, None, least,
                    most))
    return out

# -- search -------------------------------------------------------------------------


def _multisets(faces: list[int], limits: list[int]) -> Iterator[tuple[int, ...]]:
    """Every non-empty multiset of faces within per-face limits, as tuples."""
    def rec(i: int, acc: tuple[int, ...]) -> Iterator[Any]:
        if i == len(faces):
            if acc:
                yield acc
            return
        for k in range(limits[i] + 1):
            yield from rec(i + 1, acc + (faces[i],) * k)
    yield from rec(0, ())


def _run_subsets(options: list[tuple[int, int]], p: MeldParams, budget: int,
                 most: int) -> Iterator[Any]:
    """Subsets of (place, face) pairs with distinct places that a run of at most `most`
    cards could hold with at most `budget` wilds in its gaps."""
    n = len(options)
    if p.wrap:
        # small: every subset, filtered by span afterwards
        def rec_all(i: int, acc: tuple[Any, ...], places: frozenset[Any]) -> Iterator[Any]:
            if i == n:
                if acc and _span(tuple(q for q, _ in acc), True) - len(acc) <= budget:
                    yield acc
                return
            yield from rec_all(i + 1, acc, places)
            q = options[i][0]
            if q not in places:
                yield from rec_all(i + 1, acc + (options[i],), places | {q})
        yield from rec_all(0, (), frozenset())
        return

    def rec(i: int, acc: tuple[Any, ...]) -> Iterator[Any]:
        if acc:
            yield acc
        for j in range(i, n):
            q = options[j][0]
            if acc:
                last = acc[-1][0]
                if q <= last:
                    continue
                first = acc[0][0]
                if q - first + 1 > most or (q - first + 1) - (len(acc) + 1) > budget:
                    break
            yield from rec(j + 1, acc + (options[j],))
    yield from rec(0, ())


def _span(places: tuple[int, ...], wrap: bool) -> int:
    if not places:
        return 0
    if not wrap:
        return max(places) - min(places) + 1
    ring = sorted({(q - 1) % 13 + 1 for q in places})
    if len(ring) == 1:
        return 1
    widest = max((ring[(k + 1) % len(ring)] + (13 if k == len(ring) - 1 else 0)) - ring[k]
                 for k in range(len(ring)))
    return 13 - widest + 1
