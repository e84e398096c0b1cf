"""Reading cards as a set: one rank, within the size and suit rules, and what suit each
wild stands for."""

from __future__ import annotations

from dataclasses import replace

from .cards import KING, RANK_NAMES, SUITS, Card
from .meld import Face, Meld, face_name
from .meld_params import (
    COLOUR_SUITS,
    UNLIMITED,
    MeldError,
    MeldParams,
    check_counts,
    colour,
    one_colour,
    settled,
)


def validate_set(cards: list[Card], fixed: list[Face | None], params: MeldParams) -> Meld:
    if not params.sets:
        raise MeldError("no sets in this round: runs only", "melds.set.allowed")
    try:
        return _read_set(cards, fixed, params)
    except MeldError as exc:
        # wild-rank cards standing for themselves may break the wild ratio where the same
        # cards read as wilds only make an allowed meld of wild cards only
        if (exc.rule != "melds.wilds_may_outnumber_naturals" or params.min_natural
                or not params.wild_natural
                or any(c.rank not in params.wild_ranks for c in cards)):
            raise
        return _read_set(cards, fixed, replace(params, wild_natural=False))


def _read_set(cards: list[Card], fixed: list[Face | None], params: MeldParams) -> Meld:
    wild = params.wild_ranks
    true_nat = [i for i, c in enumerate(cards) if c.rank not in wild]
    ranks = {cards[i].rank for i in true_nat}
    if len(ranks) > 1:
        raise MeldError("a set is cards of one rank", "melds.set")
    for i in true_nat:
        f = fixed[i]
        if f is not None and (f[0] != cards[i].rank or f[1] not in ("", cards[i].suit)):
            raise MeldError(f"{cards[i]} is not wild and can only stand for itself", "declare")
    declared = {f[0] for i, f in enumerate(fixed) if i not in true_nat and f is not None}
    rank = settled(ranks, declared, (c.rank for c in cards if not c.is_joker), KING)
    if declared - {rank}:
        raise MeldError("every wild in a set must stand for the set's rank "
                        f"({RANK_NAMES[rank]})", "declare")
    if len(cards) < params.set_min:
        raise MeldError(f"a set needs at least {params.set_min} cards", "melds.set.min")
    if len(cards) > params.set_max and params.set_max < UNLIMITED:
        if params.distinct_suits and len(cards) > len(SUITS):
            raise MeldError("a set of distinct suits has at most 4 cards",
                            "melds.set.distinct_suits")
        if params.distinct_suits and params.set_colour and len(cards) > params.set_max:
            raise MeldError("a set of one colour and distinct suits has at most 2 cards",
                            "melds.set.one_colour")
        raise MeldError(f"a set has at most {params.set_max} cards", "melds.set.max")
    faces: list[Face | None] = [None] * len(cards)
    used_suits: list[str] = []
    for i in true_nat:
        faces[i] = (rank, cards[i].suit)
        used_suits.append(cards[i].suit)
    if params.distinct_suits and len(set(used_suits)) < len(used_suits):
        raise MeldError("no two cards of a set may share a suit", "melds.set.distinct_suits")
    # `melds.set.one_colour`: the naturals' colour, else the first declared wild's
    tint = None
    if params.set_colour:
        tint = one_colour(used_suits, "set", "melds.set.one_colour") or next(
            (colour(f[1]) for i, f in enumerate(fixed)
             if i not in true_nat and f is not None and f[1]), None)
    naturals = len(true_nat)
    # wild-rank cards of the set's rank stand for themselves unless declared otherwise
    for i, c in enumerate(cards):
        if faces[i] is not None or c.rank != rank or c.is_joker or not params.wild_natural:
            continue
        f = fixed[i]
        if f is not None and f[1] not in ("", c.suit):
            continue
        if params.distinct_suits and c.suit in used_suits:
            continue
        if params.set_colour:
            if tint is None:
                tint = colour(c.suit)
            elif colour(c.suit) != tint:
                continue  # a card of the other colour is only a wild here
        faces[i] = (rank, c.suit)
        used_suits.append(c.suit)
        naturals += 1
    # the remaining wilds: declared suits first, then the missing suits
    for i, declared_face in enumerate(fixed):
        if faces[i] is not None or declared_face is None:
            continue
        suit = declared_face[1]
        if suit and suit not in SUITS:
            raise MeldError(f"bad suit {suit!r} declared", "declare")
        if suit and tint is not None and colour(suit) != tint:
            raise MeldError(f"a wild in this set stands for a {tint} card, not "
                            f"{face_name(declared_face)}", "melds.set.one_colour")
        if params.distinct_suits:
            if not suit or suit in used_suits:
                raise MeldError(f"a wild must stand for a suit missing from the set, "
                                f"not {face_name(declared_face)}", "melds.set.distinct_suits")
            used_suits.append(suit)
        faces[i] = (rank, suit)
    missing = [s for s in (COLOUR_SUITS[tint or "black"] if params.set_colour else SUITS)
               if s not in used_suits]
    for i in range(len(cards)):
        if faces[i] is not None:
            continue
        if params.distinct_suits:
            if not missing:
                if params.set_colour:
                    raise MeldError("a set of one colour and distinct suits has at most 2 "
                                    "cards", "melds.set.one_colour")
                raise MeldError("a set of distinct suits has at most 4 cards",
                                "melds.set.distinct_suits")
            faces[i] = (rank, missing.pop(0))
        else:
            faces[i] = (rank, "")
    check_counts(naturals, len(cards) - naturals, params, "set")
    return Meld("set", tuple(cards), tuple(faces))  # type: ignore[arg-type]
