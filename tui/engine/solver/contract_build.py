"""Building the lay-down the contract search keeps: physical cards for each chosen core,
the wilds shared out as the search counted them, and each meld read by the meld rules.

The search works on faces and counts only; building real melds is left to the one
lay-down it settles on, and each goes through `validate_meld`, so a search slip shows as an
error rather than as an illegal meld on the table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cards import SUITS, Card
from ..meld import Meld
from ..meld_params import COLOUR_SUITS
from ..meld_rules import MeldError, MeldParams, card_penalty, validate_meld
from .contract_hand import ContractHand, Core
from .contract_layouts import separate_layout_for

_SLOT_PARAMS: dict[tuple[str, int, int], tuple[MeldParams, MeldParams]] = {}


def build_melds(hand: ContractHand, chosen: Any, masks: Any, reach: Any, groups: Any,
                x: Any) -> tuple[list[Meld], list[Card]]:
    """(melds, cards left in hand) of the chosen cores sharing `x` wilds: the wilds each
    core (or group of runs laid out apart) takes, read back from the reachable totals."""
    p = hand.p
    # wild counts per group, from the last group back
    per_group = [0] * len(masks)
    remaining = x
    for g in range(len(masks) - 1, -1, -1):
        for w in range(remaining, -1, -1):
            if masks[g] >> w & 1 and reach[g] >> (remaining - w) & 1:
                per_group[g] = w
                remaining -= w
                break
    # physical cards: naturals per face, then the wilds most valuable first
    stock = [list(cards) for cards in hand.cards_of]
    core_cards: list[list[Card]] = []
    for core in chosen:
        core_cards.append([stock[f].pop() for f in core[1]])
    pool_cards = sorted((c for f, cs in enumerate(stock) if hand.wild[f] for c in cs),
                        key=lambda c: -card_penalty(c, hand.rules, hand.round_no))
    must = hand.must_card
    if must is not None and must in pool_cards and not any(c.uid == must.uid
                                                            for cs in core_cards for c in cs):
        pool_cards.sort(key=lambda c: c.uid != must.uid)  # meld it among the wilds
    melded_wilds = pool_cards[:x]
    rest = [c for f, cs in enumerate(stock) if not hand.wild[f] for c in cs]
    rest += pool_cards[x:]
    used_ranks = {c[7] for c in chosen if c[0] == "set" and c[7] is not None}
    used_suits = {c[7] for c in chosen if c[0] == "run" and c[7] is not None}
    melds: list[Meld] = [None] * len(chosen)  # type: ignore[list-item]
    for (what, members), w in zip(groups, per_group, strict=True):
        if what == "core":
            i = members[0]
            wilds = melded_wilds[:w]
            del melded_wilds[:w]
            melds[i] = _meld(hand, chosen[i], core_cards[i], wilds, None, used_ranks,
                                   used_suits)
        else:
            layouts = separate_layout_for([chosen[i] for i in members], p, w, hand.gap)
            for i, (lo, hi) in zip(members, layouts, strict=True):
                span = (hi - lo) % 13 + 1 if p.wrap else hi - lo + 1  # Q-K-A: 12..1
                k = span - chosen[i][3]
                wilds = melded_wilds[:k]
                del melded_wilds[:k]
                melds[i] = _meld(hand, chosen[i], core_cards[i], wilds, (lo, hi),
                                       used_ranks, used_suits)
    return melds, rest

def _slot_params(p: MeldParams, kind: str, least: int, most: int) -> MeldParams:
    """The meld rules a contract meld of this size is built by (kept: building one
    costs more than the meld)."""
    if (least, most) == ((p.set_min, p.set_max) if kind == "set" else (p.run_min, p.run_max)):
        return p
    key = (kind, least, most)
    hit = _SLOT_PARAMS.get(key)
    if hit is None or hit[0] is not p:
        made = (replace(p, set_min=least, set_max=most) if kind == "set"
                else replace(p, run_min=least, run_max=most))
        if len(_SLOT_PARAMS) > 64:
            _SLOT_PARAMS.clear()
        hit = _SLOT_PARAMS[key] = (p, made)
    return hit[1]

def _meld(hand: ContractHand, core: Core, naturals: list[Card], wilds: list[Card],
          span: tuple[int, int] | None, used_ranks: set[Any], used_suits: set[Any]) -> Meld:
    kind = core[0]
    p = _slot_params(hand.p, kind, core[8], core[9])
    fixed: list[Any] = []
    if kind == "set":
        rank = core[7]
        if rank is None:
            rank = next(r for r in range(13, 0, -1) if r not in used_ranks)
            used_ranks.add(rank)
        fixed = [(rank, c.suit) for c in naturals]
        fixed += [None if naturals else (rank, "") for _ in wilds]
        if p.distinct_suits and not naturals:  # all wild: of the rank given or free
            fixed = [(rank, s) for s, _ in zip(COLOUR_SUITS["black"] if p.set_colour
                                               else SUITS, wilds, strict=False)]
    else:
        suit = core[7]
        places = list(core[2])
        if suit is None:
            suit = next(s for s in reversed(SUITS) if s not in used_suits)
            used_suits.add(suit)
            if not p.same_suit:
                suit = ""
            lo = p.min_pos
            fixed = [((lo + k - 1) % 13 + 1 if p.wrap else lo + k, suit)
                     for k in range(len(wilds))]
        else:
            fixed = [(q, c.suit) for q, c in zip(places, naturals, strict=True)]
            if suit == "*" or suit in COLOUR_SUITS:
                suit = ""  # runs of mixed suits: a wild stands for a place only
            if span is None:
                fixed += [None] * len(wilds)
            else:
                lo, hi = span
                taken = {q if not p.wrap else (q - 1) % 13 + 1 for q in places}
                free = [q for q in (_wrap_range(lo, hi) if p.wrap else range(lo, hi + 1))
                        if q not in taken]
                fixed += [(q, suit) for q in free]
    cards = list(naturals) + list(wilds)
    try:
        return validate_meld(cards, fixed, p, kind, "")
    except MeldError as exc:  # pragma: no cover - the search only builds legal melds
        raise AssertionError(f"contract search built an illegal meld: {exc}") from exc


def _wrap_range(lo: int, hi: int) -> list[int]:
    """Places lo..hi going round (hi may be below lo)."""
    out = [lo]
    q = lo
    while q != hi:
        q = q % 13 + 1
        out.append(q)
    return out
