"""The schema of a ruleset's first keys: what it is called and starts from, who may sit
down, the cards in play and their order, who deals, and how players move through the
rounds.

These are the keys every whole ruleset must settle before a card is dealt; the
rest of the file says how a deal is played.
"""

from __future__ import annotations

from typing import Any

from .schema_nodes import bool_node, enum_node, int_node, obj_node

# Upper bounds that keep every game finite and small enough to deal and play at once: a
# file (perhaps written by a player on a shared server) cannot ask for a billion decks.
MAX_PLAYERS = 16
MAX_DECKS = 16
MAX_JOKERS = 64


def setup_keys() -> dict[str, Any]:
    """The keys from `extends` to `progression`, in the order the reference lists them."""
    return {
        "extends": {
            "type": "string",
            "description": (
                "Start from another ruleset: a bundled or user ruleset key (file name "
                "without .yaml) or a path relative to this file. This file then states "
                "only changes: mappings merge key by key, lists (such as `rounds` or "
                "`decks`) replace the inherited list whole."
            ),
            "examples": ["three_thirteen", "../base.yaml"],
        },
        "name": {
            "type": "string",
            "minLength": 1,
            "description": "The game's name as shown to players.",
            "examples": ["Three Thirteen to 150"],
        },
        "description": {
            "type": "string",
            "description": "One or two sentences shown when choosing a ruleset.",
            "default": "",
            "examples": ["Our kitchen-table rules: 2s are wild in every round."],
        },
        "players": obj_node(
            "How many players may sit at the table.",
            {
                "min": int_node("Fewest players.", 2, maximum=MAX_PLAYERS, examples=[2]),
                "max": int_node("Most players.", 2, maximum=MAX_PLAYERS, examples=[4]),
            },
            required=["min", "max"],
        ),
        "decks": {
            "type": "array",
            "minItems": 1,
            "description": (
                "Cards in play by number of players. Each entry holds from its `players` "
                "upward until the next entry; the first entry must start at or below "
                "`players.min`. Every allowed player count must be able to deal the "
                "largest round, turn up a discard and leave a stock."
            ),
            "items": obj_node(
                "Decks and jokers from a number of players upward.",
                {
                    "players": int_node(
                        "The smallest player count this entry is for.", 2, maximum=MAX_PLAYERS
                    ),
                    "decks": int_node(
                        "Standard 52-card decks shuffled together.", 1, maximum=MAX_DECKS
                    ),
                    "jokers": int_node(
                        "Jokers added to the decks.", 0, maximum=MAX_JOKERS, default=0
                    ),
                },
                required=["players", "decks"],
            ),
            "examples": [[{"players": 2, "decks": 1}, {"players": 3, "decks": 2}]],
        },
        "ranks": obj_node(
            "Rank order in runs. Kings are above queens; the ace is placed by `ace`.",
            {
                "ace": enum_node(
                    "Where the ace goes in runs.",
                    {
                        "low": "A-2-3 only",
                        "high": "Q-K-A only",
                        "both": "A-2-3 or Q-K-A, never both ends of one run",
                    },
                    "low",
                ),
                "wrap": bool_node("Runs may turn the corner, such as Q-K-A-2.", False),
            },
            default={"ace": "low", "wrap": False},
        ),
        "jokers_wild": bool_node(
            "Jokers (from `decks`) are wild cards. Whoever melds a joker declares the "
            "card it stands for, and that never changes.",
            True,
        ),
        "dealer": enum_node(
            "Who deals first; the deal then passes to the left each round.",
            {
                "random": "chosen at random",
                "lowest_card": "everyone draws a card, lowest deals",
                "highest_card": "everyone draws a card, highest deals",
            },
            "random",
        ),
        "dealer_ace": enum_node(
            "How an ace counts when everyone draws for the first deal (with `dealer: "
            "lowest_card` or `highest_card`).",
            {
                "ranks": "high if `ranks.ace` is high, else low",
                "low": "lowest card",
                "high": "above the king",
            },
            "ranks",
        ),
        "progression": enum_node(
            "How players move through `rounds`.",
            {
                "schedule": "every deal plays the next round, the same for everyone",
                "per_player": (
                    "the rounds are phases and each player is on their own (Phase 10): "
                    "a player's contract in a deal is that of their phase, and they "
                    "move on to the next phase only by laying it down in a deal; the "
                    "game ends after the deal in which someone lays down the last phase, "
                    "the winner among them by `end.winner` (then `end.tie_break`), or "
                    "after `end.max_rounds` deals with the furthest phase winning. Every "
                    "phase deals alike: the rounds may differ only in `contract` and "
                    "`melds`"
                ),
            },
            "schedule",
        ),
    }
