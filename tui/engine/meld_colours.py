"""Reading cards as a group of one colour: cards all red (hearts, diamonds) or all black
(clubs, spades) in any ranks, as a contract asks (`contract.colours`, sized by
`melds.colour`).

A wild in such a group stands for "a card of the group's colour": its face is rank 0 in
that colour's suit (hearts for red, spades for black).  A card of the wild rank in the
group's colour stands for itself, as in a set (`melds.wild_rank_natural`)."""

from __future__ import annotations

from .cards import Card
from .meld import Face, Meld
from .meld_params import UNLIMITED, MeldError, MeldParams, check_counts, colour, one_colour

# the suit a wild's face names in a group of each colour
COLOUR_FACE_SUIT = {"red": "H", "black": "S"}
WHAT = "group of one colour"


def validate_colour(cards: list[Card], fixed: list[Face | None], params: MeldParams) -> Meld:
    if not params.colours:
        raise MeldError("a group of one colour is laid down only where the contract asks "
                        "for one", "contract.colours")
    wild = params.wild_ranks
    true_nat = [i for i, c in enumerate(cards) if c.rank not in wild]
    for i in true_nat:
        f = fixed[i]
        if f is not None and (f[0] != cards[i].rank or f[1] not in ("", cards[i].suit)):
            raise MeldError(f"{cards[i]} is not wild and can only stand for itself", "declare")
    tint = one_colour([cards[i].suit for i in true_nat], WHAT, "melds.colour")
    declared = [f for i, f in enumerate(fixed) if i not in true_nat and f is not None and f[1]]
    if tint is None and declared:
        tint = colour(declared[0][1])
    if tint is None:  # wilds only: the colour most wild-rank cards stand for themselves in
        tints = [colour(c.suit) for c in cards if not c.is_joker]
        tint = max(("black", "red"), key=tints.count) if tints else "black"
    for f in declared:
        if colour(f[1]) != tint:
            raise MeldError(f"a wild in this group stands for a {tint} card", "melds.colour")
    if len(cards) < params.colour_min:
        raise MeldError(f"a {WHAT} needs at least {params.colour_min} cards", "melds.colour.min")
    if len(cards) > params.colour_max and params.colour_max < UNLIMITED:
        raise MeldError(f"a {WHAT} has at most {params.colour_max} cards", "melds.colour.max")
    wild_face = (0, COLOUR_FACE_SUIT[tint])
    faces: list[Face] = []
    naturals = 0
    for i, card in enumerate(cards):
        f = fixed[i]
        itself = i in true_nat or (
            params.wild_natural and not card.is_joker and colour(card.suit) == tint
            and (f is None or f == (card.rank, card.suit)))
        faces.append((card.rank, card.suit) if itself else wild_face)
        naturals += itself
    check_counts(naturals, len(cards) - naturals, params, WHAT)
    return Meld("colour", tuple(cards), tuple(faces))
