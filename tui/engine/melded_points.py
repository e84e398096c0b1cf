"""Melder scoring (`scoring.melded: plus`, Rummy 500): every card on the table scores for
the player who put it there, whoever owns the meld it sits in.

Who played a card is read from the deal's log of play, where every lay-down, lay-off,
going out and joker swap names its player and the cards it moved; so a saved game
replayed scores the same, and the deal's own state needs no second record of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ACE, Card
from .meld import Face, Meld
from .rules import Ruleset
from .view import Event

PLAYS = frozenset({"meld", "lay_off", "go_out"})  # events putting cards on the table


def played_by(log: Sequence[Event], deal: int) -> dict[int, int]:
    """Card uid -> the seat that put it on the table in deal `deal`, from the log (a joker
    taken back by a swap no longer counts for whoever played it)."""
    start = 0
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if event.deal == deal and event.kind == "deal":
            start = index  # a deal stacked over another starts afresh
            break
        if event.deal < deal:
            start = index + 1
            break
    owner: dict[int, int] = {}
    for event in log[start:]:
        if event.deal != deal:
            continue
        if event.kind in PLAYS:
            for card in event.cards:
                owner[card.uid] = event.seat
        elif event.kind == "swap" and event.cards:
            owner[event.cards[0].uid] = event.seat
            for joker in event.cards[1:]:
                owner.pop(joker.uid, None)
    return owner


def melded_value(card: Card, face: Face, kind: str, rules: Ruleset) -> int:
    """What `card`, sitting in a meld of `kind` as `face`, scores for whoever played it:
    its value, but `scoring.low_ace_value` for a natural ace low in a run (A-2-3)."""
    low = rules.scoring.low_ace_value
    if low is not None and card.rank == ACE and kind == "run" and face == (1, card.suit):
        return low
    return rules.value(card.rank)


def melded_points(table: Sequence[Meld], log: Sequence[Event], deal: int, players: int,
                  rules: Ruleset) -> list[int]:
    """Per seat, the points of the cards it put on the table this deal."""
    owner = played_by(log, deal)
    points = [0] * players
    for meld in table:
        for card, face in zip(meld.cards, meld.stands_for, strict=True):
            seat = owner.get(card.uid, meld.owner)
            if 0 <= seat < players:
                points[seat] += melded_value(card, face, meld.kind, rules)
    return points
