"""Laying out same-suit runs of one contract as separate melds (`contract.runs_same_suit:
separate`): which wild totals let them lie apart, with `contract.same_suit_gap` empty
places between those that do not overlap, and where each then lies.

The search asks only for the totals (a bitmask, cached per group of runs); the meld
builder asks for the places once, for the lay-down it keeps.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cards import HIGH_ACE
from ..meld_rules import MeldParams
from .contract_hand import Core


def _placements(core: Core, p: MeldParams, lo_bound: int, hi_bound: int,
                mapping: Any = None) -> list[Any]:
    """Every (lo, hi) a run core can occupy within [lo_bound, hi_bound]."""
    places = [mapping(q) for q in core[2]] if mapping else list(core[2])
    if any(q is None for q in places):
        return []
    lo_c, hi_c, t = min(places), max(places), core[3]
    most_wilds = p.max_wilds if p.outnumber or t > p.max_wilds else t
    out = []
    for lo in range(lo_bound, lo_c + 1):
        for hi in range(hi_c, hi_bound + 1):
            length = hi - lo + 1
            wilds = length - t
            if length < core[8] or length > core[9]:
                continue
            if wilds < 0 or wilds > most_wilds:
                continue
            if lo == 1 and hi == HIGH_ACE:
                continue
            out.append((lo, hi, wilds))
    return out


def _linear_layouts(cores: list[Core], p: MeldParams, lo_bound: int, hi_bound: int,
                    mapping: Any=None, gap: int = 1) -> tuple[Any, Any]:
    """DP over runs ordered by place: reachable wild totals (bitmask), with the layouts.
    Runs may share places (two decks); runs that do not need `gap` empty places between."""
    places_of = [[mapping(q) if mapping else q for q in core[2]] for core in cores]
    if any(None in ps for ps in places_of):
        return 0, None
    order = sorted(range(len(cores)), key=lambda i: min(places_of[i]))
    # state: the (lo, hi) of the runs laid out so far -> {total wilds: layout list}
    states: dict[tuple[tuple[int, int], ...], dict[int, list[Any]]] = {(): {0: []}}
    for i in order:
        opts = _placements(cores[i], p, lo_bound, hi_bound, mapping)
        new: dict[tuple[tuple[int, int], ...], dict[int, list[Any]]] = {}
        for placed, totals in states.items():
            for lo, hi, w in opts:
                if any(0 < low - hi <= gap or 0 < lo - h <= gap for low, h in placed):
                    continue
                bucket = new.setdefault(tuple(sorted((*placed, (lo, hi)))), {})
                for tot, layout in totals.items():
                    if tot + w not in bucket:
                        bucket[tot + w] = layout + [(i, lo, hi)]
        states = new
        if not states:
            return 0, None
    reach: dict[int, list[Any]] = {}
    for totals in states.values():
        for tot, layout in totals.items():
            reach.setdefault(tot, layout)
    mask = 0
    for tot in reach:
        mask |= 1 << tot
    return mask, reach


def separate_layouts(cores: list[Core], p: MeldParams, gap: int = 1) -> int:
    """Bitmask of wild totals with which same-suit runs can be laid out apart."""
    mask = 0
    for _, m, _ in _layout_variants(cores, p, gap):
        mask |= m
    return mask


def _layout_variants(cores: list[Core], p: MeldParams, gap: int = 1) -> Iterator[Any]:
    if not p.wrap:
        m, reach = _linear_layouts(cores, p, p.min_pos, p.max_pos, gap=gap)
        if m:
            yield None, m, reach
        return
    # runs that wrap: `gap` places (at least one) stay empty between two of them; cut the
    # circle there and lay the rest out in a line
    block = max(gap, 1)
    for cut in range(1, 14):
        def mapping(q: int, cut: int = cut) -> int | None:
            off = ((q - 1) % 13 + 1 - cut) % 13
            return None if off < block else off - block + 1
        m, reach = _linear_layouts(cores, p, 1, 13 - block, mapping, gap)
        if m:
            yield cut, m, reach


def separate_layout_for(cores: list[Core], p: MeldParams, total: int,
                         gap: int = 1) -> list[tuple[int, int]]:
    """(lo, hi) per run (in the given order) using exactly `total` wilds."""
    block = max(gap, 1)
    for cut, m, reach in _layout_variants(cores, p, gap):
        if not m >> total & 1:
            continue
        layout = reach[total]
        out: dict[int, tuple[int, int]] = {}
        for i, lo, hi in layout:
            if cut is None:
                out[i] = (lo, hi)
            else:
                out[i] = ((cut + lo + block - 2) % 13 + 1, (cut + hi + block - 2) % 13 + 1)
        return [out[i] for i in range(len(cores))]
    raise AssertionError("no layout with that many wilds")  # pragma: no cover
