"""The schema of the rounds: `rounds` (the deals in order) and `round_defaults`, each
round's cards, wild ranks and contract, and the meld rules a round may set for itself.

A round's keys are stated once and used for both; a round may override any key of the
game's `melds` and give alternative contracts (`contract.any_of`), which is why the game's
`melds` node is handed in rather than restated.
"""

from __future__ import annotations

import copy
from typing import Any

from .limits import MAX_HAND
from .schema_nodes import RANK_DESCRIPTION, bool_node, int_node, obj_node
from .schema_round_end import DISCARD_VALUES
from .schema_setup import MAX_PLAYERS

# Melds of one kind in a contract: every meld takes a card at least, so no hand of the
# `limits.MAX_HAND` cards dealt holds more (the checks then weigh the cards a contract needs
# against the hand; a count with no bound was once multiplied out into 16 GB of sizes).
MAX_CONTRACT_MELDS = MAX_HAND


def rounds_keys(melds: dict[str, Any]) -> dict[str, Any]:
    """`round_defaults` and `rounds`; `melds`: the game's `melds` node."""
    return {
        "round_defaults": obj_node(
            "Keys merged into every entry of `rounds` (an entry's own keys win).",
            _round_properties(melds),
            default={},
            examples=[{"wild": [2]}],
        ),
        "rounds": {
            "type": "array",
            "minItems": 1,
            "description": (
                "The rounds (deals) in order; the game ends after the last one "
                "unless `end.point_limit` ends it sooner."
            ),
            "items": obj_node("One round of the schedule.", _round_properties(melds)),
            "examples": [[{"cards": 3, "wild": [3]}, {"cards": 10, "contract": {"sets": 2}}]],
        },
    }


def _contract_colours() -> dict[str, Any]:
    """`contract.colours`: groups of one colour, as `sets` and `runs` are given."""
    return {
        "type": ["integer", "array"],
        "minimum": 0,
        "maximum": MAX_CONTRACT_MELDS,
        "items": {"type": "integer", "minimum": 1,
                  "description": "Fewest cards in this group of one colour."},
        "maxItems": MAX_CONTRACT_MELDS,
        "description": (
            "Number of groups of one colour in the contract (cards all red or all black, "
            "in any ranks: see `melds.colour`), each of at least `melds.colour.min` cards; "
            "or a list of sizes, one per group ([7]: Phase 10's \"7 cards of one colour\"). "
            "They compose with `sets` and `runs` ([4] with `sets: [3]`: a set of 3 and 4 "
            "cards of one colour)."
        ),
        "default": 0,
        "examples": [[7], 1],
    }


def _contract_melds(kind: str) -> dict[str, Any]:
    size = {"type": "integer", "minimum": 1, "description": f"Fewest cards in this {kind}."}
    items: dict[str, Any] = size
    of_rank = ""
    examples: list[Any] = [2, [3, 4]]
    if kind == "set":
        items = {
            "type": ["integer", "object"],
            "minimum": 1,
            "description": f"Fewest cards in this {kind}, or `{{size: N, rank: R}}`.",
            "properties": {
                "size": size,
                "rank": {
                    "type": ["integer", "string"],
                    "description": "The rank this set must be of. " + RANK_DESCRIPTION,
                },
            },
            "required": ["size", "rank"],
            "additionalProperties": False,
        }
        of_rank = (
            "; an entry may also be `{size: N, rank: R}`: a set of at least N cards that "
            "must be of rank R (`[{size: 2, rank: A}, 3]`: a pair of aces and a set of 3 "
            "of any other rank; with `contract.sets_same_rank` false the other sets may "
            "not be of that rank either)"
        )
        examples.append([{"size": 2, "rank": "A"}, 3])
    return {
        "type": ["integer", "array"],
        "minimum": 0,
        "maximum": MAX_CONTRACT_MELDS,
        "items": items,
        "maxItems": MAX_CONTRACT_MELDS,
        "description": (
            f"Number of {kind}s in the contract, each of at least `melds.{kind}.min` cards; "
            f"or a list of sizes, one per {kind}: the fewest cards of each {kind} in this "
            f"contract (such as [3, 4]: a {kind} of 3 and a {kind} of 4; a size below "
            f"`melds.{kind}.min` is allowed in the contract only){of_rank}."
        ),
        "default": 0,
        "examples": examples,
    }


def _round_properties(melds: dict[str, Any]) -> dict[str, Any]:
    """The keys of one round (and of `round_defaults`); `melds`: the game's, which a round
    may override key by key."""
    props: dict[str, Any] = {
        "cards": {
            "type": ["integer", "array"],
            "minimum": 1,
            "minItems": 1,
            "description": (
                "Cards dealt to each player this round: a number, or a list of "
                "`{players: P, cards: N}` entries, each holding from P players upward "
                "(the first entry for every smaller count too), for a deal that depends on "
                "how many play."
            ),
            "items": obj_node(
                "Cards dealt from a number of players upward.",
                {
                    "players": int_node(
                        "The smallest player count this entry is for.", 2, maximum=MAX_PLAYERS
                    ),
                    "cards": int_node("Cards dealt to each player.", 1),
                },
                required=["players", "cards"],
            ),
            "examples": [7, [{"players": 2, "cards": 10}, {"players": 3, "cards": 7}]],
        },
        "wild": {
            "type": "array",
            "description": (
                "Ranks that are wild this round, in every suit: a wild card stands for any "
                "card in a set or run (and may also stand for itself). "
                "Jokers are wild by `jokers_wild`, not here."
            ),
            "items": {"type": ["integer", "string"], "description": RANK_DESCRIPTION},
            "default": [],
            "examples": [[3], ["J"], [2, "A"]],
        },
        "contract": obj_node(
            "The meld pattern a player must lay down first, all in one turn, before laying "
            "off. No sets and no runs means no contract: any melds may be laid down.",
            {
                "sets": _contract_melds("set"),
                "runs": _contract_melds("run"),
                "colours": _contract_colours(),
            },
            default={"sets": 0, "runs": 0, "colours": 0},
            examples=[{"sets": 1, "runs": 1}],
        ),
        "all_at_once": bool_node(
            "The contract may only be laid down by melding the whole hand in one turn "
            "(going out at once); with `going_out_discard: required`, every card but one, "
            "which is then discarded.",
            False,
        ),
        "going_out_discard": {
            "type": ["string", "null"],
            "enum": [*DISCARD_VALUES, None],
            "description": (
                "Overrides `going_out.discard` for this round; null uses `going_out.discard`."
            ),
            "default": None,
        },
    }
    contract = props["contract"]
    contract["properties"]["any_of"] = _contract_any_of(contract)
    contract["properties"]["exact_size"] = _round_exact_size()
    props["melds"] = _round_melds(melds)
    return props


_ROUND_MELDS_NOTE = "For this round only: as the game's `{key}`, which it overrides."


def _round_melds(melds: dict[str, Any]) -> dict[str, Any]:
    """`rounds[].melds`: every key of `melds`, set for one round.

    Its keys have no defaults of their own (a key left out is the game's), so each says
    which game key it overrides instead of repeating that key's description."""
    node = copy.deepcopy(melds)

    def restate(schema: dict[str, Any], path: str) -> None:
        schema.pop("default", None)
        if path != "melds":
            schema["description"] = _ROUND_MELDS_NOTE.format(key=path)
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


def _round_exact_size() -> dict[str, Any]:
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


def _contract_any_of(contract: dict[str, Any]) -> dict[str, Any]:
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
