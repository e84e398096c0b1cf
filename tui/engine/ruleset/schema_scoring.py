"""The schema of scoring and the game's end: penalty points for the cards left in hand,
melds scoring plus (Rummy 500), the undercut, and when the game ends and who wins.

Defaults score as most rummy games do (penalty points, the lowest total wins); each key
here turns one game's way of counting on, composing with the others.
"""

from __future__ import annotations

from typing import Any

from .schema_nodes import bool_node, enum_node, int_node, obj_node

MAX_GAME_ROUNDS = 1000  # a bound like every count in the schema: each game ends, and soon

VALUE_LABELS: dict[str, str] = (
    {"A": "an ace"}
    | {str(n): f"a {n}" for n in range(2, 11)}
    | {"J": "a jack", "Q": "a queen", "K": "a king", "JK": "a joker"}
)


def scoring_keys() -> dict[str, Any]:
    """The `scoring` and `end` keys."""
    return {
        "scoring": obj_node(
            "Penalty points for cards left in hand at the end of a round.",
            {
                "values": obj_node(
                    "Points per card rank (JK: joker). Ranks left out score the "
                    "standard values: A 1, 2-10 face value, J/Q/K 10, joker 0.",
                    {
                        key: {"type": "integer", "description": f"Points for {label}."}
                        for key, label in VALUE_LABELS.items()
                    },
                    default={},
                    examples=[{"A": 15, "JK": 25}],
                ),
                "wild_unmelded": enum_node(
                    "How a wild card left in hand scores.",
                    {"face": "its value in `values`", "fixed": "`wild_value`"},
                    "face",
                ),
                "wild_value": int_node(
                    "Points for a wild card left in hand with `wild_unmelded: fixed`.",
                    default=0,
                    examples=[20],
                ),
                "score_best_arrangement": bool_node(
                    "At the end of a round each hand is arranged into melds to leave the "
                    "fewest points; only cards outside melds score.",
                    False,
                ),
                "out_player_collects": bool_node(
                    "The player who went out scores the points of every other hand "
                    "(less the points of the cards they kept under "
                    "`going_out.deadwood_limit`), and the others score 0; usually with "
                    "`end.winner: highest`. A round nobody went out of scores 0 for all.",
                    False,
                ),
                "melded": {
                    "type": "string",
                    "enum": ["none", "plus"],
                    "default": "none",
                    "description": (
                        "What the cards put on the table score. `none`: nothing, only the cards "
                        "left in hand score (as penalty points). `plus`: every card a player "
                        "melded or laid off during the round (onto anyone's meld) scores its value "
                        "for that player, and the cards left in hand count minus (Rummy 500); use "
                        "it with `end.winner: highest` and an `end.point_limit` such as 500. Not "
                        "with `out_player_collects`."
                    ),
                },
                "low_ace_value": {
                    "type": ["integer", "null"],
                    "default": None,
                    "examples": [1],
                    "description": (
                        "With `melded: plus`: what a melded ace scores when it sits low in a run "
                        "(A-2-3), where an ace anywhere else (Q-K-A, a set of aces, in hand) "
                        "scores its value in `values` (Rummy 500: 1 low, 15 elsewhere). null: its "
                        "value in `values` wherever it sits."
                    ),
                },
                "undercut_bonus": {
                    "type": ["integer", "null"],
                    "default": None,
                    "examples": [25],
                    "description": (
                        "With `out_player_collects` and a `going_out.deadwood_limit` (knocking): "
                        "the undercut. When a player goes out keeping cards outside melds, and "
                        "another player's hand (after arranging it and any `lay_off.onto_knocker`) "
                        "scores the same or fewer points, the knocker is undercut: that player "
                        "(the lowest; of equal ones, the first after the knocker) collects the "
                        "difference plus this bonus, and the knocker scores 0. Equal counts "
                        "undercut, as in most Gin rules. null: no undercut, the knocker always "
                        "collects (the difference may then be negative)."
                    ),
                },
            },
        ),
        "end": obj_node(
            "How the game ends and who wins.",
            {
                "point_limit": {
                    "type": ["integer", "null"],
                    "exclusiveMinimum": 0,
                    "examples": [100],
                    "description": (
                        "The game ends after the round in which a player's total reaches "
                        "this many points; the round schedule repeats from the first "
                        "round until then (up to `max_rounds`). null: the game ends "
                        "after the last round of `rounds`."
                    ),
                    "default": None,
                },
                "max_rounds": int_node(
                    "With a `point_limit`, the game ends after this many rounds even if "
                    "nobody reached the limit.",
                    1,
                    maximum=MAX_GAME_ROUNDS,
                    default=100,
                    examples=[30],
                ),
                "winner": enum_node(
                    "Who wins; equal best totals share the win unless `tie_break` "
                    "settles it.",
                    {"lowest": "the lowest total", "highest": "the highest total"},
                    "lowest",
                ),
                "tie_break": enum_node(
                    "Between equal best totals.",
                    {
                        "share": "they share the win",
                        "last_round": "the best score in the last round wins (then the "
                        "round before, and so on; still equal: they share)",
                        "most_outs": "whoever went out in the most rounds wins (still "
                        "equal: they share)",
                    },
                    "share",
                ),
            },
        ),
    }
