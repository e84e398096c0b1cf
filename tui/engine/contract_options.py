"""A round's contract may be any one of several patterns (`rounds[].contract.any_of`).

The contract search, its check and the bots' counting each judge one pattern; for a
contract of several patterns they judge each through a ruleset whose round holds that
pattern alone, made once per ruleset and round (the solver's caches are kept per ruleset
object, so these must stay the same objects)."""

from __future__ import annotations

from dataclasses import replace

from .rules import Ruleset

_OPTIONS: dict[tuple[int, int], tuple[Ruleset, tuple[Ruleset, ...]]] = {}


def option_rulesets(rules: Ruleset, round_no: int) -> tuple[Ruleset, ...]:
    """One ruleset per pattern of round `round_no`'s contract, in the contract's order;
    `(rules,)` itself when the contract has a single pattern."""
    contract = rules.round(round_no).contract
    if not contract.alternatives:
        return (rules,)
    key = (id(rules), round_no)
    hit = _OPTIONS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    out = []
    for option in contract.options():
        rounds = list(rules.rounds)
        rounds[round_no - 1] = replace(rounds[round_no - 1], contract=option)
        out.append(replace(rules, rounds=tuple(rounds)))
    if len(_OPTIONS) > 64:
        _OPTIONS.clear()
    _OPTIONS[key] = (rules, tuple(out))
    return tuple(out)
