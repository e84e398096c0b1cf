"""What several sections of the rules text ask of a ruleset before they speak of it: are
there jokers, are they wild, does any round have a contract.

A section that mentions jokers or contracts in a game without them would confuse a
player, so each asks the same question the same way.
"""

from __future__ import annotations

from ..rules import Ruleset


def has_jokers(r: Ruleset) -> bool:
    return any(spec.jokers for spec in r.decks if spec.players <= r.players_max)


def jokers_wild(r: Ruleset) -> bool:
    return r.jokers_wild and has_jokers(r)


def any_contract(r: Ruleset) -> bool:
    return any(rnd.contract.required for rnd in r.rounds)
