"""A naive reference solver: tries every way to split a small hand into melds.

Deliberately simple and independent of `tui.engine.meld_rules` and the solver: a group of
cards is a meld if *some* reading of it as a set of one rank or a run of one suit at some
places satisfies every rule, found by trying them all.  Slow (small hands only), but easy
to check by eye, which is what a reference is for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from itertools import combinations

from tui.engine.cards import Card
from tui.engine.rules import Ruleset

SUITS = "CDHS"
COLOURS = {"C": "black", "S": "black", "D": "red", "H": "red"}


def penalty_of(card: Card, rules: Ruleset, round_no: int) -> int:
    wild = rules.is_wild(card.rank, round_no)
    if wild and rules.scoring.wild_unmelded == "fixed":
        return rules.scoring.wild_value
    return rules.scoring.values.get(card.rank, 0)


def _places(rank: int, rules: Ruleset) -> list[int]:
    """Run places of a natural card: ace at 1 (low) and/or 14 (high); with wrap-around
    places are taken modulo 13 (ace = 1)."""
    if rules.wrap:
        return [rank]
    lowest = rules.melds.run.lowest or 1
    highest = rules.melds.run.highest or 14
    if rank != 1:
        places = [rank]
    else:
        places = [p for p, ok in ((1, rules.ace in ("low", "both")),
                                  (14, rules.ace in ("high", "both"))) if ok]
    return [p for p in places if lowest <= p <= highest]


def _counts_ok(naturals: int, wilds: int, rules: Ruleset) -> bool:
    """At least `min_natural` naturals; the wild ratio binds melds holding a natural."""
    if naturals < rules.melds.min_natural:
        return False
    if rules.melds.max_wilds is not None and wilds > rules.melds.max_wilds:
        return False
    return rules.melds.wilds_may_outnumber_naturals or wilds <= naturals or naturals == 0


def _may_be_itself(card: Card, wild: bool, rank: int, rules: Ruleset) -> bool:
    """A wild-rank card of `rank` may stand for itself (`melds.wild_rank_natural`)."""
    return wild and not card.is_joker and card.rank == rank and rules.melds.wild_rank_natural


def is_set(cards: Sequence[Card], rules: Ruleset, round_no: int) -> bool:
    m = rules.melds.set
    n = len(cards)
    if n < m.min or (m.max is not None and n > m.max):
        return False
    wild = [rules.is_wild(c.rank, round_no) for c in cards]
    for rank in range(1, 14):
        if any(not w and c.rank != rank for c, w in zip(cards, wild, strict=True)):
            continue
        if any(c.is_joker and not w for c, w in zip(cards, wild, strict=True)):
            continue
        # each wild-rank card of this rank may stand for itself or act as a wild
        optional = [i for i, (c, w) in enumerate(zip(cards, wild, strict=True))
                    if _may_be_itself(c, w, rank, rules)]
        for k in range(len(optional) + 1):
            for mine in combinations(optional, k):
                natural = [i for i in range(n) if not wild[i] or i in mine]
                suits = [cards[i].suit for i in natural]
                if m.distinct_suits and (len(set(suits)) < len(suits) or n > 4):
                    continue
                if m.one_colour and (len({COLOURS[s] for s in suits}) > 1
                                     or (m.distinct_suits and n > 2)):
                    continue
                if _counts_ok(len(natural), n - len(natural), rules):
                    return True
    return False


def is_run(cards: Sequence[Card], rules: Ruleset, round_no: int) -> bool:
    r = rules.melds.run
    n = len(cards)
    if n < r.min or (r.max is not None and n > r.max) or n > 13:
        return False
    wild = [rules.is_wild(c.rank, round_no) for c in cards]
    if any(c.is_joker and not w for c, w in zip(cards, wild, strict=True)):
        return False
    for suit in SUITS if r.same_suit else ("red", "black") if r.one_colour else "*":
        if suit != "*" and any(not w and suit not in (c.suit, COLOURS.get(c.suit))
                               for c, w in zip(cards, wild, strict=True)):
            continue
        # every window of n consecutive places
        if rules.wrap:
            windows = [[(a + i - 1) % 13 + 1 for i in range(n)] for a in range(1, 14)]
        else:
            lo = max(1 if rules.ace in ("low", "both") else 2, r.lowest or 1)
            hi = min(14 if rules.ace in ("high", "both") else 13, r.highest or 14)
            windows = [list(range(a, a + n)) for a in range(lo, hi - n + 2)]
        for window in windows:
            if _fits(cards, wild, suit, window, rules):
                return True
    return False


def _fits(cards, wild, suit, window, rules) -> bool:
    """Can the cards fill exactly these places (naturals at their own place)?"""
    n = len(cards)
    optional = [i for i in range(n) if wild[i] and not cards[i].is_joker
                and suit in ("*", cards[i].suit, COLOURS.get(cards[i].suit))
                and rules.melds.wild_rank_natural]
    for k in range(len(optional) + 1):
        for mine in combinations(optional, k):
            natural = [i for i in range(n) if not wild[i] or i in mine]
            # try every placement of the naturals (aces have two places)
            if _place(cards, natural, window, 0, frozenset(), rules):
                if _counts_ok(len(natural), n - len(natural), rules):
                    return True
    return False


def _place(cards, natural, window, k, used, rules) -> bool:
    if k == len(natural):
        return True
    card = cards[natural[k]]
    for p in _places(card.rank, rules):
        if p in window and p not in used:
            if _place(cards, natural, window, k + 1, used | {p}, rules):
                return True
    return False


def flat(rules: Ruleset, round_no: int) -> Ruleset:
    """`rules` with the round's own meld rules, if it sets any, as the game's (the brute
    force reads `rules.melds`)."""
    if rules.round(round_no).melds is None:
        return rules
    return replace(rules, melds=rules.melds_for(round_no),
                   rounds=tuple(replace(r, melds=None) for r in rules.rounds))


def is_meld(cards: Sequence[Card], rules: Ruleset, round_no: int) -> bool:
    rules = flat(rules, round_no)
    melds = rules.melds
    return ((melds.set.allowed and is_set(cards, rules, round_no))
            or (melds.run.allowed and is_run(cards, rules, round_no)))


def brute_force(hand: Sequence[Card], rules: Ruleset, round_no: int
                ) -> tuple[int, list[list[Card]], list[Card]]:
    """(least penalty, melds, deadwood) by trying every split of the hand."""
    cards = list(hand)
    faces = tuple(sorted(c.face for c in cards))

    @cache
    def meld_ok(group: tuple) -> bool:
        return is_meld([Card(r, s) for r, s in group], rules, round_no)

    @cache
    def best(remaining: tuple) -> tuple[int, tuple]:
        if not remaining:
            return 0, ()
        first, rest = remaining[0], remaining[1:]
        value = penalty_of(Card(*first), rules, round_no)
        sub, melds = best(rest)
        answer = (sub + value, melds)
        for size in range(1, len(rest) + 1):
            for others in set(combinations(rest, size)):
                group = (first,) + others
                if not meld_ok(tuple(sorted(group))):
                    continue
                left = list(rest)
                for face in others:
                    left.remove(face)
                sub, melds = best(tuple(left))
                if sub < answer[0]:
                    answer = (sub, melds + (group,))
        return answer

    cost, melds = best(faces)
    pool = list(cards)
    out_melds = []
    for group in melds:
        meld = []
        for face in group:
            card = next(c for c in pool if c.face == face)
            pool.remove(card)
            meld.append(card)
        out_melds.append(meld)
    return cost, out_melds, pool


# --------------------------------------------------------------------------------------------
# contracts


def set_ranks(cards: Sequence[Card], rules: Ruleset, round_no: int) -> list[int]:
    """Every rank the cards can be a set of."""
    out = []
    for rank in range(1, 14):
        if _is_set_of(cards, rank, rules, round_no):
            out.append(rank)
    return out


def _is_set_of(cards, rank, rules, round_no) -> bool:
    m = rules.melds.set
    n = len(cards)
    if n < m.min or (m.max is not None and n > m.max):
        return False
    wild = [rules.is_wild(c.rank, round_no) for c in cards]
    if any(c.is_joker and not w for c, w in zip(cards, wild, strict=True)):
        return False
    if any(not w and c.rank != rank for c, w in zip(cards, wild, strict=True)):
        return False
    optional = [i for i, (c, w) in enumerate(zip(cards, wild, strict=True))
                if _may_be_itself(c, w, rank, rules)]
    for k in range(len(optional) + 1):
        for mine in combinations(optional, k):
            natural = [i for i in range(n) if not wild[i] or i in mine]
            suits = [cards[i].suit for i in natural]
            if m.distinct_suits and (len(set(suits)) < len(suits) or n > 4):
                continue
            if m.one_colour and (len({COLOURS[s] for s in suits}) > 1
                                 or (m.distinct_suits and n > 2)):
                continue
            if _counts_ok(len(natural), n - len(natural), rules):
                return True
    return False


def run_windows(cards: Sequence[Card], rules: Ruleset, round_no: int
                ) -> list[tuple[str, frozenset[int]]]:
    """Every (suit, places) the cards can fill as a run (places modulo 13 with wrap)."""
    r = rules.melds.run
    n = len(cards)
    if n < r.min or (r.max is not None and n > r.max) or n > 13:
        return []
    wild = [rules.is_wild(c.rank, round_no) for c in cards]
    if any(c.is_joker and not w for c, w in zip(cards, wild, strict=True)):
        return []
    out = []
    for suit in SUITS if r.same_suit else ("red", "black") if r.one_colour else "*":
        if suit != "*" and any(not w and suit not in (c.suit, COLOURS.get(c.suit))
                               for c, w in zip(cards, wild, strict=True)):
            continue
        if rules.wrap:
            windows = [[(a + i - 1) % 13 + 1 for i in range(n)] for a in range(1, 14)]
        else:
            lo = max(1 if rules.ace in ("low", "both") else 2, r.lowest or 1)
            hi = min(14 if rules.ace in ("high", "both") else 13, r.highest or 14)
            windows = [list(range(a, a + n)) for a in range(lo, hi - n + 2)]
        for window in windows:
            if _fits(cards, wild, suit, window, rules):
                out.append((suit, frozenset(window)))
    return out


def _too_close(a: frozenset[int], b: frozenset[int], wrap: bool, gap: int) -> bool:
    """Two same-suit runs that are not separate melds: no shared place, and fewer than
    `gap` empty places between them."""
    if a & b:
        return False
    for q in a:
        for r in b:
            d = abs(q - r)
            if wrap:
                d = min(d, 13 - d)
            if d <= gap:
                return True
    return False


def _sizes(contract, kind: str, default: int) -> list[int]:
    given = contract.set_sizes if kind == "set" else contract.run_sizes if kind == "run" \
        else contract.colour_sizes
    return sorted(given or [default] * contract.count(kind))


def is_colour_group(cards: Sequence[Card], rules: Ruleset, round_no: int) -> bool:
    """Cards all of one colour in any ranks (`contract.colours`): some colour every
    non-wild card has, wild-rank cards of that colour counting as natural where they may
    stand for themselves, within `melds.colour`'s sizes and the wild rules."""
    m = rules.melds.colour
    if len(cards) < m.min or (m.max is not None and len(cards) > m.max):
        return False
    for tint in ("red", "black"):
        naturals = wilds = 0
        for card in cards:
            wild = rules.is_wild(card.rank, round_no)
            if not wild:
                if COLOURS[card.suit] != tint:
                    break
                naturals += 1
            elif not card.is_joker and rules.melds.wild_rank_natural \
                    and COLOURS[card.suit] == tint:
                naturals += 1
            else:
                wilds += 1
        else:
            if _counts_ok(naturals, wilds, rules):
                return True
    return False


def _sizes_ok(masks: list[int], sizes: list[int], exact: bool) -> bool:
    """Some matching of the melds to the contract's sizes (fewest cards, or exactly)."""
    lengths = sorted(bin(mask).count("1") for mask in masks)
    return all((n == k) if exact else (n >= k) for n, k in zip(lengths, sizes, strict=True))


def brute_contract(hand: Sequence[Card], rules: Ruleset, round_no: int,
                   whole_hand: bool = False, must_include: Card | None = None) -> int | None:
    """Least penalty left in hand after laying down exactly the round's contract (with
    `must_include`, only lay-downs that meld that physical card)."""
    rules = flat(rules, round_no)
    contract = rules.round(round_no).contract
    set_sizes = _sizes(contract, "set", rules.melds.set.min)
    run_sizes = _sizes(contract, "run", rules.melds.run.min)
    colour_sizes = _sizes(contract, "colour", rules.melds.colour.min)
    exact = rules.contract.exact_size
    # groups are judged with the contract's least sizes; `_sizes_ok` matches them up
    rules = replace(rules, melds=replace(
        rules.melds, set=replace(rules.melds.set, min=min(set_sizes or [1])),
        run=replace(rules.melds.run, min=min(run_sizes or [1])),
        colour=replace(rules.melds.colour, min=min(colour_sizes or [1]))))
    cards = list(hand)
    n = len(cards)
    must = 0 if must_include is None else 1 << next(
        i for i, c in enumerate(cards) if c.uid == must_include.uid)
    set_groups = []
    run_groups = []
    colour_groups = []
    for mask in range(1, 1 << n):
        group = [cards[i] for i in range(n) if mask >> i & 1]
        if contract.colours and is_colour_group(group, rules, round_no):
            colour_groups.append((mask, ()))
        if contract.sets:
            ranks = set_ranks(group, rules, round_no)
            if ranks:
                set_groups.append((mask, ranks))
        if contract.runs:
            windows = run_windows(group, rules, round_no)
            if windows:
                run_groups.append((mask, windows))
    best = None

    def labels_ok(sets, runs) -> bool:
        for ranks in _product([r for _, r in sets]):
            if not rules.contract.sets_same_rank and len(set(ranks)) < len(ranks):
                continue
            break
        else:
            if sets:
                return False
        for windows in _product([w for _, w in runs]):
            ok = True
            for i in range(len(windows)):
                for j in range(i + 1, len(windows)):
                    (s1, w1), (s2, w2) = windows[i], windows[j]
                    if s1 != s2:
                        continue
                    mode = rules.contract.runs_same_suit
                    if s1 in ("*", "red", "black"):
                        continue  # runs of mixed suits: no suit rule
                    if mode == "forbidden" or (mode == "separate" and _too_close(
                            w1, w2, rules.wrap, rules.contract.same_suit_gap)):
                        ok = False
            if ok:
                return True
        return not runs

    def pick(kind_groups, want, start, used, acc, then):
        if want == 0:
            then(used, acc)
            return
        for k in range(start, len(kind_groups)):
            mask, labels = kind_groups[k]
            if mask & used:
                continue
            pick(kind_groups, want - 1, k + 1, used | mask, acc + [(mask, labels)], then)

    def after_sets(used, sets):
        def after_runs(used1, runs):
            def after_colours(used2, colours):
                nonlocal best
                if used2 & must != must or not labels_ok(sets, runs):
                    return
                if not (_sizes_ok([m for m, _ in sets], set_sizes, exact)
                        and _sizes_ok([m for m, _ in runs], run_sizes, exact)
                        and _sizes_ok([m for m, _ in colours], colour_sizes, exact)):
                    return
                rest = [cards[i] for i in range(n) if not used2 >> i & 1]
                if whole_hand and rest:
                    return
                cost = sum(penalty_of(c, rules, round_no) for c in rest)
                if best is None or cost < best:
                    best = cost
            pick(colour_groups, contract.colours, 0, used1, [], after_colours)
        pick(run_groups, contract.runs, 0, used, [], after_runs)

    pick(set_groups, contract.sets, 0, 0, [], after_sets)
    return best


def _product(lists):
    if not lists:
        yield ()
        return
    for head in lists[0]:
        for tail in _product(lists[1:]):
            yield (head,) + tail


# --------------------------------------------------------------------------------------------
# going out


def fully_meldable(hand: Sequence[Card], rules: Ruleset, round_no: int) -> bool:
    """Can every card of the hand be put in some meld?"""

    @cache
    def ok(remaining: tuple) -> bool:
        if not remaining:
            return True
        first, rest = remaining[0], remaining[1:]
        for size in range(1, len(rest) + 1):
            for others in set(combinations(rest, size)):
                group = tuple(sorted((first,) + others))
                if not is_meld([Card(r, s) for r, s in group], rules, round_no):
                    continue
                left = list(rest)
                for face in others:
                    left.remove(face)
                if ok(tuple(left)):
                    return True
        return False

    return ok(tuple(sorted(c.face for c in hand)))


def brute_going_out(hand: Sequence[Card], rules: Ruleset, round_no: int
                    ) -> tuple[bool, int | None]:
    """(can go out, penalty value of the best discard or None when no card is discarded)."""
    rule = rules.going_out_discard(round_no)
    if rule != "required" and fully_meldable(hand, rules, round_no):
        return True, None
    if rule == "forbidden":
        return False, None
    best = None
    for i, card in enumerate(hand):
        rest = list(hand[:i]) + list(hand[i + 1:])
        if fully_meldable(rest, rules, round_no):
            value = penalty_of(card, rules, round_no)
            best = value if best is None else max(best, value)
    return best is not None, best
