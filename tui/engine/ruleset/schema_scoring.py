"""The schema of the scoring keys beyond penalty points: going "rummy" multiplied, melder
scoring (Rummy 500) and knocking (Gin).

Kept apart from `schema` (which merges these into its sections) so that each family of
keys is described in one place; each is a key composing with the others, not a game mode.
"""

from __future__ import annotations

from typing import Any


def going_out_keys() -> dict[str, Any]:
    """Keys of `going_out`."""
    return {
        "one_turn_multiplier": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 1,
            "examples": [2],
            "description": (
                'Going out "rummy" (the whole hand melded in one turn, nothing melded on an '
                "earlier turn of the round) multiplies the points of the cards left in every "
                "other player's hand by this (2: they pay double), on top of any "
                "`one_turn_bonus`. With `scoring.out_player_collects` the player who went out "
                "collects the multiplied points; with `scoring.melded: plus` only the cards "
                "left in hand are multiplied, not the melds. With `melding_during_play: false` "
                "every going out is in one turn, so it always applies."
            ),
        },
        "gin_bonus": {
            "type": "integer",
            "default": 0,
            "examples": [25],
            "description": (
                "With a `deadwood_limit` (knocking): points added to the round score of a "
                'player who goes out keeping no card outside melds ("gin"). The others may '
                "not lay off onto a gin hand, and a gin cannot be undercut."
            ),
        },
        "big_gin_bonus": {
            "type": ["integer", "null"],
            "default": None,
            "examples": [31],
            "description": (
                "With a `deadwood_limit` and `discard: optional`: points added, in place of "
                '`gin_bonus`, for "big gin": going out with every card in hand melded, the '
                "one just drawn too, and no discard. null: such a going out scores "
                "`gin_bonus` like any other gin."
            ),
        },
    }


def lay_off_keys() -> dict[str, Any]:
    """Keys of `lay_off`."""
    return {
        "onto_knocker": {
            "type": "boolean",
            "default": False,
            "description": (
                "With `going_out.deadwood_limit` (knocking): when a player goes out keeping "
                "cards outside melds, every other player lays off what they can onto that "
                "player's melds before their hand is scored; the engine does it for them: "
                "the cards left outside their own best melds (with "
                "`scoring.score_best_arrangement`; else every card in hand), dearest first, "
                "as long as any fits. Not after a gin: a player who went out keeping "
                "nothing cannot be laid off onto."
            ),
        },
    }


def scoring_keys() -> dict[str, Any]:
    """Keys of `scoring`."""
    return {
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
                "(A-2-3), where an ace anywhere else (Q-K-A, a set of aces, in hand) scores "
                "its value in `values` (Rummy 500: 1 low, 15 elsewhere). null: its value "
                "in `values` wherever it sits."
            ),
        },
        "undercut_bonus": {
            "type": ["integer", "null"],
            "default": None,
            "examples": [25],
            "description": (
                "With `out_player_collects` and a `going_out.deadwood_limit` (knocking): the "
                "undercut. When a player goes out keeping cards outside melds, and another "
                "player's hand (after arranging it and any `lay_off.onto_knocker`) scores "
                "the same or fewer points, the knocker is undercut: that player (the lowest; "
                "of equal ones, the first after the knocker) collects the difference plus "
                "this bonus, and the knocker scores 0. Equal counts undercut, as in most "
                "Gin rules. null: no undercut, the knocker always collects (the difference "
                "may then be negative)."
            ),
        },
    }
