"""How far a hand is from its contract, counted quickly for the bots (`Evaluator.contract_need`).

The hand's likeliest groups toward each meld of the contract (sets by rank, runs by
window, groups of one colour by colour) are chosen in every combination, filled with its
natural cards and then its wilds; the best choice says how many cards are missing, which
faces it uses and which would fill a gap.  Kept apart from `evaluate` (which caches and
asks) so neither module grows past a readable size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from typing import Any

from tui.engine.cards import ACE, HIGH_ACE, RANKS, SUITS
from tui.engine.meld_params import COLOUR_SUITS, colour
from tui.engine.meld_rules import MeldParams
from tui.engine.rules import Contract, Ruleset

HandKey = tuple[tuple[int, str], ...]  # a hand's faces, in order


@dataclass(frozen=True)
class ContractNeed:
    """How far a hand is from its contract: cards still missing (wilds already counted),
    and the faces the best partial contract uses (the rest help nothing)."""

    missing: int
    used: tuple[tuple[int, str], ...]  # faces, with repeats for duplicate cards
    wanted: frozenset[tuple[int, str]] = frozenset()  # natural faces that fill a gap


@dataclass(frozen=True)
class _Group:
    kind: str  # "set", "run" or "colour"
    label: tuple[Any, ...]  # set: (rank, i), run: (suit, first position), colour: (tint, i)
    faces: tuple[tuple[int, str], ...]  # natural faces it would use, one copy each
    size: int  # cards the group needs at least
    short: int = 0  # cards it lacks
    room: int = 0  # how many of those wilds may fill


def count_contract(key: HandKey, rules: Ruleset, contract: Contract, p: MeldParams
                   ) -> ContractNeed:
    """How far the hand `key` is from `contract`, its melds judged by `p` (the round's
    contract meld parameters)."""
    wild_ranks = p.wild_ranks
    wilds = sum(1 for rank, _ in key if rank in wild_ranks)
    counts: Counter[tuple[int, str]] = Counter(f for f in key if f[0] not in wild_ranks)
    sizes = {kind: contract.sizes(kind, least) for kind, least in
             (("set", p.set_min), ("run", p.run_min), ("colour", p.colour_min))}
    set_groups, set_choices = _choices(counts, p, sizes["set"], _set_groups)
    run_groups, run_choices = _choices(counts, p, sizes["run"], _run_groups)
    suit_rule = rules.contract.runs_same_suit if p.same_suit else "allowed"
    run_choices = list(_runs_apart(run_choices, suit_rule))
    # Without shared cards a choice of groups lacks exactly its optimistic count; try the
    # choices from the most promising and stop when no other can beat the best found.
    set_opts = [(sum(g.short for g in c), sum(g.room for g in c), c) for c in set_choices]
    run_opts = [(sum(g.short for g in c), sum(g.room for g in c), c) for c in run_choices]
    if sizes["colour"]:  # groups of one colour (`contract.colours`): they go first
        run_opts = [(r_short + c_short, r_room + c_room, (*tints, *runs))
                    for c_short, c_room, tints in _colour_opts(counts, p, sizes["colour"])
                    for r_short, r_room, runs in run_opts]
    ranked = [(s_short + r_short - min(wilds, s_room + r_room), sets, runs)
              for s_short, s_room, sets in set_opts for r_short, r_room, runs in run_opts]
    ranked.sort(key=lambda item: item[0])
    best: tuple[int, tuple[Any, ...], tuple[Any, ...]] | None = None
    for optimistic, sets, runs in ranked:
        if best is not None and optimistic >= best[0]:
            break
        for order in ((*runs, *sets), (*sets, *runs)):
            missing, used = _fill(order, counts, wilds, p)
            if best is None or missing < best[0]:
                best = (missing, used, order)
            if missing == optimistic:
                break
    if best is None:
        return ContractNeed(sum(sum(each) for each in sizes.values()), ())
    missing, used, order = best
    if not missing:
        return ContractNeed(0, used)
    # Faces filling a chosen group help; so do faces bringing a group not chosen as close
    # as the farthest chosen one of its kind (the two could then trade places).
    worst = {"set": -1, "run": -1, "colour": -1}
    for group in order:
        worst[group.kind] = max(worst[group.kind], group.short)
    chosen = {id(g) for g in order}
    spare = [g for g in set_groups + run_groups
             if id(g) not in chosen and 0 < g.short <= worst[g.kind]]
    spare += [g for g in order if g.kind == "colour" and g.short]
    return ContractNeed(missing, used, _wanted([*order, *spare], p))


def _wanted(groups: Sequence[_Group], p) -> frozenset[tuple[int, str]]:
    """Natural faces that would fill a gap of the groups."""
    out: set[tuple[int, str]] = set()
    for group in groups:
        if group.kind == "colour":  # any card of its colour
            if group.short:
                out.update((rank, s) for rank in RANKS for s in COLOUR_SUITS[group.label[0]])
        elif group.kind == "set":
            rank = group.label[0]
            if rank <= 0:
                continue
            suits = {f[1] for f in group.faces}
            if len(group.faces) >= group.size:
                continue
            out.update((rank, s) for s in _set_suits(group, p)
                       if not (p.distinct_suits and s in suits))
        else:
            suit, start = group.label
            if not suit:
                continue
            ranks = {f[0] for f in group.faces}  # (the group's faces are all of its suits)
            places = [pos for pos in range(start, start + group.size)
                      if (1 if pos == HIGH_ACE else pos) in ranks]
            if not places:
                continue
            lo, hi = min(places), max(places)
            spare = group.size - (hi - lo + 1)  # the run may grow this far either way
            for pos in range(max(p.min_pos, lo - spare), min(p.max_pos, hi + spare) + 1):
                if pos not in places:
                    out.update((1 if pos == HIGH_ACE else pos, s) for s in RUN_KEYS[suit])
    return frozenset(out)


# a run group's key: a suit, or where runs mix suits "*" (any suit) or a colour
# (`melds.run.one_colour`); the suits each key takes
RUN_KEYS: dict[str, tuple[str, ...]] = {**{s: (s,) for s in SUITS}, "*": SUITS,
                                        **COLOUR_SUITS}


def _set_suits(group: _Group, p) -> tuple[str, ...]:
    """Suits a set group may take: any, or its cards' colour (`melds.set.one_colour`)."""
    if p.set_colour and group.faces:
        return COLOUR_SUITS[colour(group.faces[0][1])]
    return SUITS


def _group(kind: str, label: tuple[Any, ...], faces: tuple[Any, ...], size: int, p) -> _Group:
    have = min(len(faces), size)
    short = size - have
    room = min(short - max(0, p.min_natural - have), p.max_wilds)  # (`melds.max_wilds`)
    if not p.outnumber:
        room = min(room, have)
    return _Group(kind, label, faces, size, short, max(0, room))


def _choices(counts: Counter[Any], p, sizes: tuple[int, ...],
             groups_of: Callable[[Counter[Any], Any, int, int], list[_Group]]
             ) -> tuple[list[_Group], list[tuple[_Group, ...]]]:
    """The groups a hand has toward the contract's melds of one kind (`sizes`, one a meld)
    and every choice of a group for each meld, none chosen twice.  Where the melds differ
    in size, each size has groups of its own (Phase 10's 5 and 2 may be any of the ranks
    held): measured at the smallest, a set of 5 and a pair counted as two pairs."""
    if not sizes:
        return [], [()]
    if len(set(sizes)) == 1:
        groups = groups_of(counts, p, len(sizes), sizes[0])
        return groups, list(combinations(groups, len(sizes)))
    pools = {size: groups_of(counts, p, sizes.count(size), size) for size in dict.fromkeys(sizes)}
    choices = []
    for parts in product(*(_picks(pool, sizes.count(size)) for size, pool in pools.items())):
        combo = sum(parts, ())
        labels = [g.label for g in combo if g.faces]  # (placeholders hold no card)
        if len(set(labels)) == len(labels):
            choices.append(combo)
    return [g for pool in pools.values() for g in pool], choices


def _picks(pool: list[_Group], n: int) -> list[tuple[_Group, ...]]:
    """Every choice of `n` groups of `pool`, the placeholders (which hold no card, so any
    one is as good as another) taken in order."""
    real = [g for g in pool if g.faces]
    empty = [g for g in pool if not g.faces]
    return [(*picked, *empty[:n - k])
            for k in range(min(n, len(real)), max(0, n - len(empty)) - 1, -1)
            for picked in combinations(real, k)]


def _set_groups(counts: Counter[Any], p, want: int, size: int) -> list[_Group]:
    by_rank: dict[Any, list[tuple[int, str]]] = {}
    for face, n in counts.items():
        copies = 1 if p.distinct_suits else n
        # (sets of one colour: a red and a black group of each rank)
        key = (face[0], colour(face[1])) if p.set_colour else face[0]
        by_rank.setdefault(key, []).extend([face] * copies)
    # (most cards first, then the highest rank: the key is a rank, or a rank and a colour)
    scored = sorted(by_rank.items(), key=lambda item: (-len(item[1]), -item[1][0][0]))
    groups = [_group("set", (faces[0][0], i), tuple(faces[:size]), size, p)
              for i, (_key, faces) in enumerate(scored[:want + 2])]
    # a set may have to start from nothing; placeholders that use no cards
    groups += [_group("set", (-1, k), (), size, p) for k in range(want)]
    return groups


def _run_groups(counts: Counter[Any], p, want: int, length: int) -> list[_Group]:
    if length > p.run_max:
        return []
    lo, hi = p.min_pos, p.max_pos
    groups: list[_Group] = []
    # runs of one suit, or of mixed suits (of one colour, where runs are)
    keys = SUITS if p.same_suit else tuple(COLOUR_SUITS) if p.run_colour else ("*",)
    for suit in keys:
        takes = RUN_KEYS[suit]
        have: dict[int, tuple[int, str]] = {}
        for (rank, s), n in counts.items():
            if s not in takes or n <= 0:
                continue
            for pos in ((1, HIGH_ACE) if rank == ACE else (rank,)):
                if lo <= pos <= hi:
                    have[pos] = (rank, s)
        if not have:
            continue
        windows = []
        for start in range(lo, hi - length + 2):
            faces = tuple(have[q] for q in range(start, start + length) if q in have)
            if faces and len({f for f in faces}) == len(faces):
                windows.append((len(faces), start, faces))
        windows.sort(key=lambda w: (-w[0], w[1]))
        for _have, start, faces in windows[:3]:
            groups.append(_group("run", (suit, start), faces, length, p))
    groups += [_group("run", ("", -k - 10), (), length, p) for k in range(want)]
    return groups


def _colour_opts(counts: Counter[Any], p, sizes: tuple[int, ...]
                 ) -> list[tuple[int, int, tuple[_Group, ...]]]:
    """(short, room, groups) of each choice of colours for the contract's groups of one
    colour (`sizes`, one a group): a group takes the naturals of its colour (those of
    another group of the same colour after it)."""
    faces = {tint: [f for f, n in sorted(counts.items()) if colour(f[1]) == tint
                    for _ in range(n)] for tint in COLOUR_SUITS}
    opts = []
    tints_of = combinations_with_replacement if len(set(sizes)) == 1 else \
        lambda tints, n: product(tints, repeat=n)  # (sizes differ: which colour is which)
    for tints in tints_of(sorted(COLOUR_SUITS), len(sizes)):
        taken = dict.fromkeys(COLOUR_SUITS, 0)
        groups = []
        for k, (tint, size) in enumerate(zip(tints, sizes, strict=True)):
            mine = tuple(faces[tint][taken[tint]:taken[tint] + size])
            taken[tint] += len(mine)
            groups.append(_group("colour", (tint, k), mine, size, p))
        opts.append((sum(g.short for g in groups), sum(g.room for g in groups),
                     tuple(groups)))
    return opts


def _runs_apart(choices: list[tuple[_Group, ...]], same_suit: str):
    """The choices of runs whose runs may share a suit as `contract.runs_same_suit` says."""
    gap = 1 if same_suit == "separate" else 0
    for combo in choices:
        ok = True
        for a, b in combinations(combo, 2):
            sa, sb = a.label[0], b.label[0]
            if not sa or not sb or sa != sb:
                continue
            if same_suit == "forbidden":
                ok = False
                break
            first, second = (a, b) if a.label[1] <= b.label[1] else (b, a)
            if second.label[1] < first.label[1] + first.size + gap:
                ok = False
                break
        if ok:
            yield combo


def _fill(groups: Sequence[_Group], counts: Counter[Any], wilds: int, p
          ) -> tuple[int, tuple[tuple[int, str], ...]]:
    """Missing cards when `groups` take natural cards in this order, wilds filling gaps."""
    left = Counter(counts)
    used: list[tuple[int, str]] = []
    missing_total = 0
    wild_room = 0
    for group in groups:
        got = 0
        for face in group.faces:
            if left[face] > 0:
                left[face] -= 1
                used.append(face)
                got += 1
        if group.kind == "set" and not p.distinct_suits and group.label[0] > 0:
            # sets of any suits may take more copies of the rank
            rank = group.label[0]
            suits = _set_suits(group, p)
            for face in list(left):
                while got < group.size and face[0] == rank and face[1] in suits \
                        and left[face] > 0:
                    left[face] -= 1
                    used.append(face)
                    got += 1
        short = max(0, group.size - got)
        natural_short = max(0, p.min_natural - got)
        room = min(short - natural_short, p.max_wilds)
        if not p.outnumber:
            room = min(room, got)
        missing_total += short
        wild_room += max(0, room)
    return missing_total - min(wilds, wild_room), tuple(used)
