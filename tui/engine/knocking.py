"""Knocking (Gin): going out keeping a few points outside melds, under
`going_out.deadwood_limit`, and what follows it at the count: the others lay off onto the
knocker's melds (`lay_off.onto_knocker`), a defender holding no more than the knocker
undercuts (`scoring.undercut_bonus`), and going out keeping nothing is gin
(`going_out.gin_bonus`; `big_gin_bonus` with every card melded and no discard).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .meld import Meld
from .meld_rules import MeldError, card_penalty, extend_meld
from .rules import Ruleset
from .view import Event


def knocked(rules: Ruleset, went_out: int, kept: Sequence[Card]) -> bool:
    """Whether the player who went out knocked: went out under a laying-down limit keeping
    cards outside melds (a player keeping none went gin)."""
    return went_out >= 0 and rules.going_out.deadwood_limit > 0 and bool(kept)


def gin_bonus(rules: Ruleset, went_out: int, kept: Sequence[Card], discarded: bool) -> int:
    """The gin (or big gin) bonus of the player who went out, 0 if they did not go gin."""
    g = rules.going_out
    if went_out < 0 or g.deadwood_limit <= 0 or kept:
        return 0
    if not discarded and g.big_gin_bonus is not None:
        return g.big_gin_bonus
    return g.gin_bonus


def discarded_going_out(log: Sequence[Event], deal: int, seat: int) -> bool:
    """Whether `seat`, the player who went out of deal `deal`, ended with a discard (read
    from the log: the going out is followed by that discard)."""
    for event in reversed(log):
        if event.deal != deal:
            break
        if event.seat == seat and event.kind == "discard":
            return True
        if event.seat == seat and event.kind == "go_out":
            return False
    return False


def lay_off_onto(deadwood: Sequence[Card], melds: Sequence[Meld], rules: Ruleset,
                 round_no: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(laid off, still held): the `deadwood` cards a defender lays off onto the knocker's
    `melds`, dearest first, again and again while any fits (a card laid off may make room
    for the next: 8H then 7H below a 9H-JH run)."""
    held = sorted(deadwood, key=lambda c: (-card_penalty(c, rules, round_no), c.sort_key()))
    table = list(melds)
    laid: list[Card] = []
    placed = True
    while placed:
        placed = False
        for card in held:
            for index, meld in enumerate(table):
                grown = _extended(meld, card, rules, round_no)
                if grown is not None:
                    table[index] = grown
                    laid.append(card)
                    held.remove(card)
                    placed = True
                    break
            if placed:
                break
    return tuple(laid), tuple(sorted(held, key=Card.sort_key))


def _extended(meld: Meld, card: Card, rules: Ruleset, round_no: int) -> Meld | None:
    for end in ("", "low") if meld.kind == "run" else ("",):
        try:
            return extend_meld(meld, [card], rules, round_no, end)
        except MeldError:
            continue
    return None


def undercut(points: Sequence[int], went_out: int, kept: int, bonus: int) -> list[int] | None:
    """The round's scores when the knocker is undercut, else None: `points` are each
    defender's count (the knocker's own entry is ignored), `kept` the knocker's.  The
    lowest defender (of equal ones, the first after the knocker) collects the difference
    plus `bonus`; everyone else scores 0."""
    players = len(points)
    order = [(went_out + step) % players for step in range(1, players)]
    if not order:
        return None
    low = min(order, key=lambda seat: points[seat])  # min keeps the first of equals
    if points[low] > kept:
        return None
    return [kept - points[low] + bonus if seat == low else 0 for seat in range(players)]
