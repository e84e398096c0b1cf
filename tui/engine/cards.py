"""Playing cards, decks and the text notation used by the CLI, tests and save files.

With two or more decks a hand can hold two identical cards.  A `Card` therefore carries a
`uid` naming the physical card, which takes no part in comparison: two 7H compare equal by
face (so a hand is a multiset of faces) while the engine can still track every physical card.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_SYMBOLS: dict[str, str] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = frozenset({"D", "H"})

JOKER_RANK = 0
JOKER_SUIT = "*"

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
HIGH_ACE = 14  # the run position of an ace played above the king
RANKS: tuple[int, ...] = tuple(range(1, 14))
RANK_NAMES: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {
    n: str(n) for n in range(2, 11)
}
_RANK_BY_NAME: dict[str, int] = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}


class CardError(ValueError):
    """Bad card notation, naming the bad token."""


@dataclass(frozen=True, order=False)
class Card:
    """One physical card.  Equality and hashing are by face; `uid` tells copies apart."""

    rank: int
    suit: str
    uid: int = field(default=-1, compare=False, repr=False)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def face(self) -> tuple[int, str]:
        return (self.rank, self.suit)

    def __str__(self) -> str:
        return "JK" if self.is_joker else f"{RANK_NAMES[self.rank]}{self.suit}"

    def sort_key(self) -> tuple[int, int, int]:
        """Suit-major order for display: clubs, diamonds, hearts, spades, jokers last."""
        if self.is_joker:
            return (len(SUITS), 0, self.uid)
        return (SUITS.index(self.suit), self.rank, self.uid)


def joker(uid: int = -1) -> Card:
    return Card(JOKER_RANK, JOKER_SUIT, uid)


def parse_card(token: str, uid: int = -1) -> Card:
    """Parse `10H`, `th`, `QS`, `JK`…; a bad token raises `CardError` naming it."""
    text = token.strip().upper()
    if text in ("JK", "JOKER", "*"):
        return joker(uid)
    if len(text) < 2 or text[-1] not in SUITS or text[:-1] not in _RANK_BY_NAME:
        raise CardError(
            f"bad card {token!r}: expected rank (A 2-10 T J Q K) then suit (C D H S), "
            "e.g. 10H, QS, AC, or JK for a joker"
        )
    return Card(_RANK_BY_NAME[text[:-1]], text[-1], uid)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas (or an iterable of tokens)."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(token) for token in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def build_shoe(decks: int, jokers: int) -> list[Card]:
    """Every physical card of `decks` standard decks plus `jokers` jokers, uids 0…n-1."""
    cards: list[Card] = []
    for _ in range(decks):
        for suit in SUITS:
            for rank in RANKS:
                cards.append(Card(rank, suit, len(cards)))
    for _ in range(jokers):
        cards.append(joker(len(cards)))
    return cards


def shuffled(cards: list[Card], rng: random.Random) -> list[Card]:
    deck = list(cards)
    rng.shuffle(deck)
    return deck
