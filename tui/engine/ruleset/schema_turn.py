"""The schema of a turn's moves: the contract's melds together, drawing, buying the discard
out of turn, laying off and taking jokers from the table.

The keys of each move are read where that move is judged (`engine/deal/`), so they are
kept together here as the player meets them in a turn.
"""

from __future__ import annotations

from typing import Any

from .schema_nodes import bool_node, enum_node, int_node, obj_node


def turn_keys() -> dict[str, Any]:
    """The keys from `contract` to `joker_swap`."""
    return {
        "contract": obj_node(
            "How the melds of one contract relate to each other.",
            {
                "runs_same_suit": enum_node(
                    "Whether two runs of one contract may share a suit.",
                    {
                        "forbidden": "every run of the contract has its own suit",
                        "separate": "same suit allowed as separate melds: they may "
                        "overlap (two decks: 2-5 and 3-6 of clubs) but not join end to "
                        "end into one run (2-5 and 6-9 of clubs)",
                        "allowed": "any suits",
                    },
                    "forbidden",
                ),
                "sets_same_rank": bool_node(
                    "Two sets of one contract may be of the same rank.", False
                ),
                "same_suit_gap": int_node(
                    "With `runs_same_suit: separate`: fewest ranks that must lie between "
                    "two runs of one suit in a contract (1: they may not touch, so "
                    "3C-6C and 8C-JC are fine but not 3C-6C and 7C-10C; 0: they may touch; "
                    "2: two ranks between).  Runs that overlap (two decks: 3C-6C and "
                    "4C-7C) are always separate melds.",
                    0,
                    maximum=11,
                    default=1,
                ),
                "exact_size": bool_node(
                    "Contract melds are laid down at exactly their smallest size "
                    "(`melds.*.min`, or the sizes given in the round's contract: with "
                    "`sets: [3, 4]` a set of exactly 3 and one of exactly 4); longer ones "
                    "are built by laying off later.",
                    False,
                ),
            },
        ),
        "draw": obj_node(
            "Where a player may draw from at the start of a turn (the stock always).",
            {
                "discard": enum_node(
                    "What may be taken from the discard pile.",
                    {
                        "top": "the top card",
                        "deep": "the top card, or a deeper card taking every card above",
                        "none": "nothing; draw from the stock only",
                    },
                    "top",
                ),
                "deep_must_meld": bool_node(
                    "With `discard: deep`, a card taken from below the top must be "
                    "melded in the same turn.",
                    True,
                ),
                "no_immediate_rediscard": bool_node(
                    "A player may not discard the single card just taken from the "
                    "discard pile (of several taken, any one may be discarded).",
                    False,
                ),
                "rediscard_to_go_out": bool_node(
                    "With `no_immediate_rediscard`: the single card just taken may still "
                    "be discarded when it is the last card in hand, to go out (take the "
                    "top discard, meld the rest, throw it back).  Off, that card must "
                    "be melded or laid off like the others.",
                    False,
                ),
                "stock_only_after_contract": bool_node(
                    "Once a player's contract is down, that player draws from the stock "
                    "only (buying the discard is `buying.after_contract`).",
                    False,
                ),
            },
        ),
        "buying": obj_node(
            'Buying ("May I?"): when the player in turn does not take the top discard, '
            "another player may claim it with penalty cards from the stock; the nearest "
            "in turn order wins.",
            {
                "enabled": bool_node("Buying is allowed.", False),
                "penalty_cards": int_node("Cards a buyer also takes from the stock.", 0, default=1),
                "limit_per_deal": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "Most buys per player per deal; null for no limit.",
                    "default": 3,
                    "examples": [1],
                },
                "priority": enum_node(
                    "Who gets the card when several players want it.",
                    {
                        "nearest": "the nearest in turn order after the player in turn",
                        "first_to_ask": "whoever asks first (every player still asked "
                        "may claim it at once)",
                    },
                    "nearest",
                ),
                "after_contract": bool_node(
                    "A player whose contract is down may still buy. false: only players "
                    "still without their contract buy.",
                    True,
                ),
            },
        ),
        "lay_off": obj_node(
            "Laying off: adding cards from hand to melds already on the table.",
            {
                "when": enum_node(
                    "When a player may lay off.",
                    {
                        "never": "nobody ever lays off",
                        "after_contract": "from the turn the contract goes down",
                        "after_contract_turn": "only on turns after the contract went down",
                        "always": "from the first turn, the player's contract down or not "
                                  "(in a game without contracts: the same as "
                                  "`after_contract`)",
                    },
                    "never",
                ),
                "onto": enum_node(
                    "Whose melds a player may lay off onto.",
                    {"any": "anyone's", "own": "only the player's own"},
                    "any",
                ),
                "onto_knocker": {
                    "type": "boolean",
                    "default": False,
                    "description": (
                        "With `going_out.deadwood_limit` (knocking): when a player goes out "
                        "keeping cards outside melds, every other player lays off what they can "
                        "onto that player's melds before their hand is scored; the engine does it "
                        "for them: the cards left outside their own best melds (with "
                        "`scoring.score_best_arrangement`; else every card in hand), dearest "
                        "first, as long as any fits. Not after a gin: a player who went out "
                        "keeping nothing cannot be laid off onto."
                    ),
                },
            },
        ),
        "joker_swap": obj_node(
            "Taking a joker from a meld on the table by putting the natural card it "
            "stands for in its place.",
            {
                "enabled": bool_node("Joker swaps are allowed.", False),
                "runs_only": bool_node(
                    "Only jokers in runs may be taken; jokers in sets are dead.", True
                ),
                "contract_on_earlier_turn": bool_node(
                    "The player's contract must have gone down on an earlier turn.", True
                ),
                "play_same_turn": bool_node("A joker taken must be played in the same turn.", True),
                "when": enum_node(
                    "Whose contract decides who may swap (`contract_on_earlier_turn` "
                    "applies with `after_contract` only).",
                    {
                        "after_contract": "only a player whose contract is down",
                        "before_contract": "only a player whose contract is not down yet "
                        "(with `play_same_turn`, the joker must go into the contract laid "
                        "down that turn)",
                        "any": "any player",
                    },
                    "after_contract",
                ),
            },
        ),
    }
