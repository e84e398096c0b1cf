"""The schema of how a round ends: going out (with or without a discard, knocking, the
bonuses for it), and what happens when the stock runs out.

Every round must end, so `stock` bounds how often the stock is rebuilt; going out is the
other way a round ends, and the bonuses and multipliers are the going out's own.
"""

from __future__ import annotations

from typing import Any

from .schema_nodes import bool_node, enum_node, int_node, obj_node

MAX_REBUILDS = 100  # a bound like every count in the schema: each round ends, and soon

DISCARD_VALUES = {
    "required": "the player must end by discarding one card",
    "optional": "the player may play the last card onto the table or discard it",
    "forbidden": "the whole hand must be melded; no card is discarded",
}


def round_end_keys() -> dict[str, Any]:
    """The `going_out` and `stock` keys."""
    return {
        "going_out": obj_node(
            "Going out: getting rid of the last card ends the round.",
            {
                "melding_during_play": bool_node(
                    "Melds are laid on the table during play. false: nothing is laid "
                    "down until a player goes out by declaring the whole hand (but the "
                    "discard) as melds.",
                    True,
                ),
                "discard": enum_node(
                    "Whether going out ends with a discard.", DISCARD_VALUES, "optional"
                ),
                "final_turns": bool_node(
                    "After someone goes out, every other player gets one more turn.", False
                ),
                "final_turns_from_stock": bool_node(
                    "A final turn (`final_turns: true`) draws from the stock only, not "
                    "the discard pile.",
                    False,
                ),
                "bonus": int_node(
                    "Points added to the round score of the player who went out "
                    "(negative: a reward when the lowest total wins).",
                    default=0,
                    examples=[-10],
                ),
                "one_turn_bonus": int_node(
                    'Points added, on top of `bonus`, for going out "rummy": melding the '
                    "whole hand in one turn, with nothing melded on an earlier turn of "
                    "the round. With `melding_during_play: false` every going out is in "
                    "one turn, so it simply adds to `bonus` (-5 and -20: -25).",
                    default=0,
                    examples=[-20],
                ),
                "deadwood_limit": int_node(
                    "Laying-down limit, with `melding_during_play: false`: a player may go "
                    "out holding cards outside melds (besides the discard) worth up to "
                    "this many points; they score for that player (with 5: melding "
                    "5H 6H 7H, keeping AC 2D, discarding KS scores 3; with "
                    "`scoring.out_player_collects` those 3 come off what they collect).",
                    0,
                    default=0,
                    examples=[5],
                ),
                "one_turn_multiplier": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 100,
                    "default": 1,
                    "examples": [2],
                    "description": (
                        'Going out "rummy" (the whole hand melded in one turn, nothing melded on '
                        "an earlier turn of the round) multiplies the points of the cards left in "
                        "every other player's hand by this (2: they pay double), on top of any "
                        "`one_turn_bonus`. With `scoring.out_player_collects` the player who went "
                        "out collects the multiplied points; with `scoring.melded: plus` only the "
                        "cards left in hand are multiplied, not the melds. With "
                        "`melding_during_play: false` every going out is in one turn, so it always "
                        "applies."
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
                        "With a `deadwood_limit` and `discard: optional`: points added, in place "
                        "of "
                        '`gin_bonus`, for "big gin": going out with every card in hand melded, the '
                        "one just drawn too, and no discard. null: such a going out scores "
                        "`gin_bonus` like any other gin."
                    ),
                },
            },
        ),
        "stock": obj_node(
            "What happens when the stock runs out.",
            {
                "when_empty": enum_node(
                    "Action on an empty stock.",
                    {
                        "reshuffle": "the discards except the top card become a new stock",
                        "end_round": "the round ends and is scored as it stands",
                    },
                    "reshuffle",
                ),
                "max_rebuilds": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "maximum": MAX_REBUILDS,
                    "description": (
                        "After this many rebuilds the round ends and is scored as it "
                        "stands (so every round ends). null: no limit, but the round still "
                        "ends as it stands after ten stocks' worth of turns (ten times "
                        "the cards in play), which no table going out ever reaches. "
                        "Only with `when_empty: reshuffle`.  A turn that finds the stock "
                        "out and one card in the pile draws that card, and counts as a "
                        "rebuild.  The round also ends as it stands after as many turns "
                        "as the first stock and its rebuilds could supply draws for "
                        "(one more than this, times the cards in play), so players who "
                        "only take discards cannot keep it going for ever."
                    ),
                    "default": 2,
                    "examples": [5],
                },
                "rebuild": enum_node(
                    "How the discards become a new stock (with `when_empty: reshuffle`).",
                    {
                        "shuffle": "they are shuffled",
                        "turn_over": "the pile is turned over as it lies, without "
                        "shuffling (the first card discarded is drawn first)",
                    },
                    "shuffle",
                ),
            },
        ),
    }
