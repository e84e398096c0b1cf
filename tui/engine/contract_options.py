"""A round's contract may be any one of several patterns (`rounds[].contract.any_of`).

The contract search, its check and the bots' counting each judge one pattern; for a
contract of several patterns they judge each through a ruleset whose round holds that
pattern alone, made once per ruleset and round (the solver's caches are kept per ruleset
object, so these must stay the same objects)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from .rules import Contract, Ruleset

T = TypeVar("T")
_OPTIONS: dict[tuple[int, int], tuple[Ruleset, tuple[Ruleset, ...]]] = {}


def option_rulesets(rules: Ruleset, round_no: int) -> tuple[Ruleset, ...]:
    """One ruleset per pattern of round `round_no`'s contract, in the contract's order;
    `(rules,)` itself when the contract has a single pattern."""
    contract = rules.round(round_no).contract
    if not contract.alternatives:
        return (rules,)
    return made_once(_OPTIONS, rules, round_no, lambda: tuple(
        with_contract(rules, round_no, option) for option in contract.options()))


def with_contract(rules: Ruleset, round_no: int, contract: Contract) -> Ruleset:
    """`rules` with round `round_no` asking for `contract` instead."""
    rounds = list(rules.rounds)
    rounds[round_no - 1] = replace(rounds[round_no - 1], contract=contract)
    return replace(rules, rounds=tuple(rounds))


def made_once(store: dict[tuple[int, int], tuple[Ruleset, T]], rules: Ruleset,
              round_no: int, make: Callable[[], T]) -> T:
    """`make()`, made once per ruleset object and round and kept in `store` (emptied
    past 64 entries)."""
    key = (id(rules), round_no)
    hit = store.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    out = make()
    if len(store) > 64:
        store.clear()
    store[key] = (rules, out)
    return out
