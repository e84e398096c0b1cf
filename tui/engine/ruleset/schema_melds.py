"""The schema of `melds`: what counts as a set, a run and a group of one colour, which
kinds a game allows, and how many wild cards a meld may hold.

A round may override any of these for itself (`rounds[].melds`, built from this node in
`schema_rounds`), so each key here is stated once for the game and the rounds alike.
"""

from __future__ import annotations

from typing import Any

from .schema_nodes import bool_node, count_or_null, int_node, obj_node, rank_or_null


def melds_keys() -> dict[str, Any]:
    """The `melds` key."""
    return {
        "melds": obj_node(
            "What counts as a meld. A card belongs to one meld only.",
            {
                "set": obj_node(
                    "A set: cards of one rank.",
                    {
                        "min": int_node("Fewest cards in a set.", 1, default=3),
                        "max": count_or_null("Most cards in a set; null for no limit.", 4),
                        "distinct_suits": bool_node(
                            "No two cards of a set may share a suit (matters with more "
                            "than one deck).",
                            False,
                        ),
                        "allowed": {
                            "type": "boolean",
                            "default": True,
                            "description": (
                                "Sets may be melded. false: no sets at all, runs only (set in a "
                                "round's `melds` for a round of runs only, as in Continental); a "
                                "contract of that round may not ask for sets."
                            ),
                        },
                        "one_colour": {
                            "type": "boolean",
                            "default": False,
                            "examples": [True],
                            "description": (
                                "A set is of one colour: all its natural cards red (hearts, "
                                "diamonds) or all black (clubs, spades), as 7H 7D 7H; wilds fill "
                                "in for either colour, and laying off keeps the set's colour. With "
                                "`distinct_suits` a set then has at most 2 cards."
                            ),
                        },
                    },
                    default={"min": 3, "max": None, "distinct_suits": False,
                             "allowed": True, "one_colour": False},
                ),
                "run": obj_node(
                    "A run: cards of one suit in sequence.",
                    {
                        "min": int_node("Fewest cards in a run (at most 13).", 1, default=3),
                        "max": count_or_null("Most cards in a run; null for no limit.", 7),
                        "lowest": rank_or_null(
                            "The lowest rank a run may use (such as 3: nothing below 3; "
                            "A means the low ace); null: as `ranks.ace` allows. It narrows "
                            "what `ranks.ace` allows: with `ace: both` and `lowest: 2`, "
                            "Q-K-A is a run and A-2-3 is not. Not with `ranks.wrap`."
                        ),
                        "highest": rank_or_null(
                            "The highest rank a run may use (such as K: no high ace; A "
                            "means the high ace); null: as `ranks.ace` allows. With "
                            "`ace: both` and `highest: K`, A-2-3 is a run and Q-K-A is "
                            "not. Not with `ranks.wrap`."
                        ),
                        "same_suit": bool_node(
                            "A run is of one suit. false: runs may mix suits (5H-6S-7H), "
                            "and `contract.runs_same_suit` no longer applies.",
                            True,
                        ),
                        "allowed": {
                            "type": "boolean",
                            "default": True,
                            "description": (
                                "Runs may be melded. false: no runs at all, sets only; a contract "
                                "of that round may not ask for runs."
                            ),
                        },
                        "one_colour": {
                            "type": "boolean",
                            "default": False,
                            "examples": [True],
                            "description": (
                                "With `same_suit: false`: a run mixes suits of one colour only, "
                                "all red (5H-6D-7H) or all black; wilds fill in for either colour, "
                                "and laying off keeps the run's colour. A run of one suit is "
                                "always of one colour."
                            ),
                        },
                    },
                    default={
                        "min": 3,
                        "max": None,
                        "lowest": None,
                        "highest": None,
                        "same_suit": True,
                        "allowed": True,
                        "one_colour": False,
                    },
                ),
                "min_natural": int_node(
                    "Fewest natural (non-wild) cards in every meld; 0 allows melds of "
                    "wild cards only (even when `wilds_may_outnumber_naturals` is false, "
                    "which then limits only melds holding a natural card: JK JK JK is a "
                    "meld, 7H JK JK is not). A wild-rank card standing for itself is "
                    "natural (see `wild_rank_natural`).",
                    0,
                    default=1,
                ),
                "wilds_may_outnumber_naturals": bool_node(
                    "A meld may hold more wild cards than natural ones. false: a meld "
                    "with natural cards holds at most as many wilds (with "
                    "`min_natural: 0` a meld of wild cards only is still allowed). It "
                    "holds for laying off too unless `wild_ratio_on_lay_off` is false.",
                    True,
                ),
                "wild_rank_natural": bool_node(
                    "A card of the round's wild rank may stand for itself and then "
                    "counts as natural. false: it is always a wild, so 2C 2D 2H with 2s "
                    "wild is a meld of three wilds (allowed only with `min_natural: 0`), "
                    "and 2S-3S-4S-5S holds three naturals and a wild (which "
                    "`wilds_may_outnumber_naturals: false` counts).",
                    True,
                ),
                "wild_ratio_on_lay_off": bool_node(
                    "`wilds_may_outnumber_naturals: false` also holds when laying off. "
                    "false: it is checked when melds are laid down only, and laying off "
                    "may add any number of wilds (7H 8H 9H JK goes down, then JK JK JK may be "
                    "laid off onto it). No effect while `wilds_may_outnumber_naturals` is "
                    "true.",
                    True,
                ),
                "max_wilds": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "default": None,
                    "examples": [1],
                    "description": (
                        "Most wild cards one meld may hold, laid down or grown by laying off (1: "
                        "at most one wild per meld, as in Carioca; 0: no wild card in any meld). A "
                        "wild-rank card standing for itself is natural and does not count. null: "
                        "no limit."
                    ),
                },
                "colour": {
                    "type": "object",
                    "description": (
                        "A group of one colour: cards all red (hearts, diamonds) or all black "
                        "(clubs, spades), in any ranks, as 3H 9D QH 5D (Phase 10's \"7 cards of "
                        "one colour\"). Laid down only where the round's contract asks for one "
                        "(`contract.colours`); anyone may then lay off onto it a card of its "
                        "colour or a wild (a wild in it is always a wild: `min_natural`, "
                        "`wilds_may_outnumber_naturals` and `max_wilds` count it)."
                    ),
                    "properties": {
                        "min": {"type": "integer", "minimum": 1, "default": 3,
                                "description": "Fewest cards in a group of one colour (the "
                                               "contract may ask for more: "
                                               "`contract.colours: [7]`)."},
                        "max": count_or_null("Most cards in a group of one colour, laid down "
                                             "or grown by laying off; null for no limit.", 8),
                    },
                    "additionalProperties": False,
                    "default": {"min": 3, "max": None},
                    "examples": [{"min": 7}],
                },
            },
        ),
    }
