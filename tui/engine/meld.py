"""A meld on the table: a set, a run or a group of one colour, with what every wild card in
it stands for.

Whoever melds or lays off a wild card declares the card it stands for, and that never
changes; so a meld records, for every card, the face it represents.  For a run that face's
rank is a *position*: 1…13, or 14 for an ace played high.  In a group of one colour a wild
stands for rank 0 in a suit of the group's colour (hearts for red, spades for black): any
card of that colour.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, get_args

from .cards import HIGH_ACE, RANK_NAMES, Card
from .meld_params import colour

MeldKind = Literal["set", "run", "colour"]
MELD_KINDS: tuple[MeldKind, ...] = get_args(MeldKind)
Face = tuple[int, str]  # (rank or run position, suit); a wild in a set may have suit ""


@dataclass(frozen=True)
class Meld:
    kind: MeldKind
    cards: tuple[Card, ...]  # runs in order, low to high
    stands_for: tuple[Face, ...]  # one per card
    owner: int = -1  # seat that laid it down
    id: int = -1  # table-wide number, given by the game

    @property
    def rank(self) -> int:
        """The rank of a set."""
        return self.stands_for[0][0]

    @property
    def suit(self) -> str:
        """The suit of a run."""
        return self.stands_for[0][1]

    @property
    def colour(self) -> str:
        """The colour of a group of one colour ("red", "black"; "" while it has none)."""
        suit = next((face[1] for face in self.stands_for if face[1]), "")
        return colour(suit) if suit else ""

    @property
    def low(self) -> int:
        return min(face[0] for face in self.stands_for)

    @property
    def high(self) -> int:
        return max(face[0] for face in self.stands_for)

    def wild_cards(self) -> list[tuple[Card, Face]]:
        """Cards standing for something other than themselves."""
        return [
            (card, face)
            for card, face in zip(self.cards, self.stands_for, strict=True)
            if not _is_itself(card, face)
        ]

    def with_identity(self, owner: int, meld_id: int) -> Meld:
        return replace(self, owner=owner, id=meld_id)

    def describe(self) -> str:
        """`run 5H-8H` / `set of 7s` with wilds shown as `JK=6H`."""
        shown = []
        for card, face in zip(self.cards, self.stands_for, strict=True):
            if _is_itself(card, face):
                shown.append(str(card))
            elif self.kind == "colour":
                shown.append(f"{card}={self.colour}")
            else:
                shown.append(f"{card}={face_name(face)}")
        return " ".join(shown)


def face_name(face: Face) -> str:
    rank, suit = face
    return f"{RANK_NAMES[1 if rank == 14 else rank]}{suit}"


def _is_itself(card: Card, face: Face) -> bool:
    rank = 1 if face[0] == HIGH_ACE else face[0]
    return card.rank == rank and (face[1] in ("", card.suit))
