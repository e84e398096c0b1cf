"""Laying down a contract that asks for groups of one colour (`contract.colours`: cards all
red or all black in any ranks, as Phase 10's "7 cards of one colour").

A group of one colour ties no card to its rank, so it is chosen apart from the sets and runs:
each group takes a colour and its smallest size from the hand (some naturals of that colour
and some wilds), the contract's sets and runs are searched in what is left (the exact
search of `contract_search`), and then each group grows with the cards of its colour still
in hand, the dearest first, up to its largest size: every card a group can hold is melded
rather than kept.  With groups only (no sets or runs, as in Phase 10) which naturals seed a
group makes no difference, so only the dearest are tried; with sets or runs too, every
choice of naturals is tried (distinct faces only), within the solver's work budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations

from ..cards import Card
from ..contract_options import made_once, with_contract
from ..meld import Meld
from ..meld_params import MeldError, colour, meld_params
from ..meld_rules import card_penalty, validate_meld
from ..rules import Ruleset
from .context import spend

TINTS = ("red", "black")
_REST: dict[tuple[int, int], tuple[Ruleset, Ruleset | None]] = {}


Found = tuple[list[Meld], list[Card]]
# the contract search of `contract_search` (hand, rules, round, whole hand, card owed, any will do)
RestSearch = Callable[[list[Card], Ruleset, int, bool, "Card | None", bool], "Found | None"]


def search_with_colours(hand: list[Card], rules: Ruleset, round_no: int, whole_hand: bool,
                        must_include: Card | None, first_found: bool,
                        slots: list[tuple[int, int]], rest_search: RestSearch
                        ) -> Found | None:
    """(contract melds, cards left in hand) leaving the fewest points; None if none.
    `slots`: (fewest, most cards) of each group, largest first; `rest_search` searches
    the contract's sets and runs.  (The cards are told apart by their place in `hand`: a
    hand parsed from text has no uids.)"""
    originals = hand
    hand = [replace(c, uid=i) for i, c in enumerate(originals)]
    if must_include is not None:
        at = next((i for i, c in enumerate(originals) if c is must_include), None)
        if at is None:
            at = next(i for i, c in enumerate(originals) if c.uid == must_include.uid)
        must_include = hand[at]
    found = _search(hand, rules, round_no, whole_hand, must_include, first_found, slots,
                    rest_search)
    if found is None:
        return None
    melds, left = found
    return ([replace(m, cards=tuple(originals[c.uid] for c in m.cards)) for m in melds],
            [originals[c.uid] for c in left])


def _search(hand: list[Card], rules: Ruleset, round_no: int, whole_hand: bool,
            must_include: Card | None, first_found: bool, slots: list[tuple[int, int]],
            search_contract: RestSearch) -> Found | None:
    rest_rules = _without_colours(rules, round_no)
    p = meld_params(rules, round_no, "contract")
    value = {c.uid: card_penalty(c, rules, round_no) for c in hand}
    best: tuple[int, list[Meld], list[Card]] | None = None

    def is_wild(card: Card) -> bool:
        return card.rank in p.wild_ranks

    def group(cards: list[Card]) -> Meld | None:
        try:
            return validate_meld(list(cards), [None] * len(cards), p, "colour", "")
        except MeldError:
            return None

    def grow(groups: list[list[Card]], left: list[Card]) -> tuple[list[Meld], list[Card]]:
        """Each group takes what of its colour is still in hand, dearest first, then
        wilds, while it stays a legal group within its largest size."""
        left = sorted(left, key=lambda c: (-value[c.uid], c.uid))
        if must_include is not None:  # the card that must be melded goes in first
            left.sort(key=lambda c: c.uid != must_include.uid)
        melds = []
        for cards, (_least, most) in zip(groups, slots, strict=True):
            seeded = group(cards)
            tint = seeded.colour if seeded is not None else ""
            # dearest first; a wild the wild rules refuse now may fit once naturals join
            for _ in range(2):
                for card in list(left):
                    if len(cards) >= most:
                        break
                    if not is_wild(card) and colour(card.suit) != tint:
                        continue
                    if group([*cards, card]) is not None:
                        cards = [*cards, card]
                        left = [c for c in left if c.uid != card.uid]
            meld = group(cards)
            assert meld is not None
            melds.append(meld)
        return melds, left

    def finish(groups: list[list[Card]], left: list[Card]) -> None:
        nonlocal best
        spend(1)
        in_groups = must_include is not None and any(
            c.uid == must_include.uid for g in groups for c in g)
        others: list[Meld] = []
        if rest_rules is not None:
            found = search_contract(left, rest_rules, round_no, False,
                                    None if in_groups else must_include, first_found)
            if found is None:
                return
            others, left = found
        melds, left = grow(groups, left)
        if must_include is not None and any(c.uid == must_include.uid for c in left):
            return
        if whole_hand and left:
            return
        kept = sum(value[c.uid] for c in left)
        if best is None or kept < best[0]:
            best = (kept, melds + others, left)

    def place(k: int, groups: list[list[Card]], left: list[Card]) -> bool:
        """Seed group `k` on; True once any lay-down is found and that is enough."""
        if k == len(slots):
            finish(groups, left)
            return first_found and best is not None
        least = slots[k][0]
        for tint in TINTS:
            naturals = [c for c in left if not is_wild(c) and colour(c.suit) == tint]
            # wild-rank cards of the colour first: they stand for themselves there
            wilds = sorted((c for c in left if is_wild(c)), key=lambda c: (
                c.is_joker or colour(c.suit) != tint, -value[c.uid], c.uid))
            for w in range(min(len(wilds), least) + 1):
                for chosen in _seeds(naturals, least - w, rest_rules is None, must_include,
                                     value):
                    seed = [*chosen, *wilds[:w]]
                    if group(seed) is None:
                        continue
                    used = {c.uid for c in seed}
                    if place(k + 1, [*groups, seed], [c for c in left if c.uid not in used]):
                        return True
        return False

    place(0, [], list(hand))
    return None if best is None else (best[1], best[2])


def _seeds(naturals: list[Card], k: int, dearest_only: bool, must: Card | None,
           value: dict[int, int]) -> Iterator[list[Card]]:
    """Choices of `k` of `naturals` to seed a group: the dearest only (the card that must
    be melded first), or every choice of distinct faces."""
    if k < 0 or k > len(naturals):
        return
    order = sorted(naturals, key=lambda c: (must is None or c.uid != must.uid,
                                            -value[c.uid], c.uid))
    if dearest_only:
        yield order[:k]
        return
    seen: set[tuple[tuple[int, str], ...]] = set()
    for chosen in combinations(order, k):
        faces = tuple(sorted(c.face for c in chosen))
        if faces in seen:
            continue
        seen.add(faces)
        spend(1)
        yield list(chosen)


def _without_colours(rules: Ruleset, round_no: int) -> Ruleset | None:
    """The ruleset whose round asks only for the contract's sets and runs (None when it
    asks for none): their search, on what the groups leave."""
    def make() -> Ruleset | None:
        rest = replace(rules.round(round_no).contract, colours=0, colour_sizes=())
        return with_contract(rules, round_no, rest) if rest.required else None

    return made_once(_REST, rules, round_no, make)
