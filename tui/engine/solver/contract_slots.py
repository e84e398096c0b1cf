"""The meld sizes (and named ranks) a round's contract asks for, as the lay-down check and
the contract search both read them: one place decides what a contract meld may be."""

from __future__ import annotations

from ..meld_rules import meld_params
from ..rules import Ruleset


def slot_sizes(rules: Ruleset, round_no: int, kind: str) -> list[tuple[int, int]]:
    """(fewest, most cards) of each `kind` meld of the round's contract, largest first:
    sizes given per meld or `melds.*.min`, and exactly that with `contract.exact_size`."""
    p = meld_params(rules, round_no)
    contract = rules.round(round_no).contract
    default, most = (p.set_min, p.set_max) if kind == "set" else (
        (p.run_min, p.run_max) if kind == "run" else (p.colour_min, p.colour_max))
    return [(size, size if rules.exact_size(round_no) else most)
            for size in contract.sizes(kind, default)]


def set_slots(rules: Ruleset, round_no: int) -> list[tuple[int, int, int | None]]:
    """(fewest, most cards, rank or None) of each set of the round's contract, largest
    first: like `slot_sizes`, with the rank a set must be of where the contract names one."""
    p = meld_params(rules, round_no)
    contract = rules.round(round_no).contract
    return [(size, size if rules.exact_size(round_no) else p.set_max, rank)
            for size, rank in contract.set_slots(p.set_min)]
