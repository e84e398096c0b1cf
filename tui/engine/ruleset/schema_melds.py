"""The schema of the meld keys that let a ruleset say more of the rummy family: which kinds
of meld a round allows, a cap on wilds per meld, and meld rules set per round.

Kept apart from `schema` (which merges these into its sections) so that each family of
keys is described in one place; each is a key composing with the others, not a game mode.
"""

from __future__ import annotations

import copy
from typing import Any


def meld_keys() -> dict[str, Any]:
    """Keys of `melds`."""
    return {
        "max_wilds": {
            "type": ["integer", "null"],
            "minimum": 0,
            "default": None,
            "examples": [1],
            "description": (
                "Most wild cards one meld may hold, laid down or grown by laying off (1: at "
                "most one wild per meld, as in Carioca; 0: no wild card in any meld). A "
                "wild-rank card standing for itself is natural and does not count. null: "
                "no limit."
            ),
        },
        "colour": {
            "type": "object",
            "description": (
                "A group of one colour: cards all red (hearts, diamonds) or all black "
                "(clubs, spades), in any ranks, as 3H 9D QH 5D (Phase 10's \"7 cards of one "
                "colour\"). Laid down only where the round's contract asks for one "
                "(`contract.colours`); anyone may then lay off onto it a card of its colour "
                "or a wild (a wild in it is always a wild: `min_natural`, "
                "`wilds_may_outnumber_naturals` and `max_wilds` count it)."
            ),
            "properties": {
                "min": {"type": "integer", "minimum": 1, "default": 3,
                        "description": "Fewest cards in a group of one colour (the contract "
                                       "may ask for more: `contract.colours: [7]`)."},
                "max": {"type": ["integer", "null"], "minimum": 1, "default": None,
                        "examples": [8],
                        "description": "Most cards in a group of one colour, laid down or "
                                       "grown by laying off; null for no limit."},
            },
            "additionalProperties": False,
            "default": {"min": 3, "max": None},
            "examples": [{"min": 7}],
        },
    }


def set_keys() -> dict[str, Any]:
    """Keys of `melds.set`."""
    return {
        "allowed": {
            "type": "boolean",
            "default": True,
            "description": (
                "Sets may be melded. false: no sets at all, runs only (set in a round's "
                "`melds` for a round of runs only, as in Continental); a contract of that "
                "round may not ask for sets."
            ),
        },
        "one_colour": {
            "type": "boolean",
            "default": False,
            "examples": [True],
            "description": (
                "A set is of one colour: all its natural cards red (hearts, diamonds) or "
                "all black (clubs, spades), as 7H 7D 7H; wilds fill in for either colour, "
                "and laying off keeps the set's colour. With `distinct_suits` a set then "
                "has at most 2 cards."
            ),
        },
    }


def run_keys() -> dict[str, Any]:
    """Keys of `melds.run`."""
    return {
        "allowed": {
            "type": "boolean",
            "default": True,
            "description": (
                "Runs may be melded. false: no runs at all, sets only; a contract of that "
                "round may not ask for runs."
            ),
        },
        "one_colour": {
            "type": "boolean",
            "default": False,
            "examples": [True],
            "description": (
                "With `same_suit: false`: a run mixes suits of one colour only, all red "
                "(5H-6D-7H) or all black; wilds fill in for either colour, and laying off "
                "keeps the run's colour. A run of one suit is always of one colour."
            ),
        },
    }


ROUND_MELDS_NOTE = "For this round only: as the game's `{key}`, which it overrides."


def round_melds(melds: dict[str, Any]) -> dict[str, Any]:
    """`rounds[].melds`: every key of `melds`, set for one round.

    Its keys have no defaults of their own (a key left out is the game's), so each says
    which game key it overrides instead of repeating that key's description."""
    node = copy.deepcopy(melds)

    def restate(schema: dict[str, Any], path: str) -> None:
        schema.pop("default", None)
        if path != "melds":
            schema["description"] = ROUND_MELDS_NOTE.format(key=path)
        for key, child in schema.get("properties", {}).items():
            restate(child, f"{path}.{key}")

    restate(node, "melds")
    node["type"] = ["object", "null"]
    node["default"] = None
    node["description"] = (
        "Meld rules for this round only: any key of `melds` (such as `run: {same_suit: "
        "false}` for a round of runs of mixed suits, `max_wilds: 0` for a round without "
        "wilds, `set: {allowed: false}` for a round of runs only), overriding the game's "
        "`melds` key by key; keys left out are the game's. null: the game's `melds`."
    )
    node["examples"] = [{"run": {"same_suit": False}}, {"max_wilds": 0},
                        {"set": {"allowed": False}}]
    return node


def round_exact_size() -> dict[str, Any]:
    """`rounds[].contract.exact_size`: the game's `contract.exact_size` for one round."""
    return {
        "type": ["boolean", "null"],
        "default": None,
        "examples": [False],
        "description": (
            "For this round only: as the game's `contract.exact_size`, which it overrides "
            "(false in an `all_at_once` round whose hand is longer than its contract's "
            "smallest melds, which could otherwise never go out). null: the game's."
        ),
    }


def contract_any_of(contract: dict[str, Any]) -> dict[str, Any]:
    """`rounds[].contract.any_of`: more patterns, any one of which makes the contract."""
    pattern = {
        "type": "object",
        "description": "One pattern that makes the contract: its sets and runs.",
        "properties": copy.deepcopy(contract["properties"]),
        "additionalProperties": False,
    }
    return {
        "type": "array",
        "minItems": 1,
        "maxItems": 16,
        "items": pattern,
        "default": [],
        "examples": [[{"runs": [3, 3, 3, 3, 3]}, {"runs": [4, 4, 4, 3]}]],
        "description": (
            "Alternative contracts: a player lays down any one of these patterns (each "
            "`{sets, runs}` written as in the contract), as in Continental: five runs of "
            "3, or three runs of 4 and one of 3. The contract's own `sets` / `runs`, if "
            "it gives any, is one more pattern. A lay-down must match one pattern whole; "
            "the bots aim at whichever their hand is closest to."
        ),
    }
