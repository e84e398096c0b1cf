"""The JSON Schema of a ruleset file, and its errors told in the player's words.

The schema is the one description of every key: it validates files (Draft 2020-12, no
unknown keys anywhere, so a typo such as ``wild_rnak`` is caught), it feeds editors through
``# yaml-language-server: $schema=...``, and the reference documentation is generated from
its descriptions.  Defaults here equal the `tui.engine.rules` dataclass defaults (a test
holds them together).
"""

from __future__ import annotations

import copy
import difflib
from typing import Any

import yaml
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from .errors import LocatedError
from .limits import MAX_HAND
from .marked_yaml import KeyPath, LocatedDoc
from .schema_melds import (
    contract_any_of,
    meld_keys,
    round_exact_size,
    round_melds,
    run_keys,
    set_keys,
)
from .schema_scoring import going_out_keys, lay_off_keys, scoring_keys

SCHEMA_ID = "https://rummy-tui.invalid/ruleset.schema.json"

RANK_DESCRIPTION = (
    "A rank: a number 2-10, or A, J, Q, K (T is accepted for 10). "
    "Numbers may be written with or without quotes."
)


def _obj(description: str, properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "additionalProperties": False,
        **extra,
    }


def _int(description: str, minimum: int | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "description": description, **extra}
    if minimum is not None:
        schema["minimum"] = minimum
    return schema


def _bool(description: str, default: bool) -> dict[str, Any]:
    return {"type": "boolean", "description": description, "default": default}


def _enum(description: str, values: dict[str, str], default: str | None) -> dict[str, Any]:
    """An enum whose description lists what each value means."""
    meanings = "; ".join(f"`{value}`: {meaning}" for value, meaning in values.items())
    schema: dict[str, Any] = {
        "type": "string",
        "enum": list(values),
        "description": f"{description} {meanings}.",
    }
    if default is not None:
        schema["default"] = default
    return schema


WHOLE_RULESET_KEYS = ("name", "players", "decks", "rounds")

# Upper bounds that keep every game finite and small enough to deal and play at once: a
# file (perhaps written by a player on a shared server) cannot ask for a billion decks.
MAX_PLAYERS = 16
MAX_DECKS = 16
MAX_JOKERS = 64
MAX_GAME_ROUNDS = 1000
MAX_REBUILDS = 100
# Melds of one kind in a contract: every meld takes a card at least, so no hand of the
# `limits.MAX_HAND` cards dealt holds more (the checks then weigh the cards a contract needs
# against the hand; a count with no bound was once multiplied out into 16 GB of sizes).
MAX_CONTRACT_MELDS = MAX_HAND

VALUE_LABELS: dict[str, str] = (
    {"A": "an ace"}
    | {str(n): f"a {n}" for n in range(2, 11)}
    | {"J": "a jack", "Q": "a queen", "K": "a king", "JK": "a joker"}
)

DISCARD_VALUES = {
    "required": "the player must end by discarding one card",
    "optional": "the player may play the last card onto the table or discard it",
    "forbidden": "the whole hand must be melded; no card is discarded",
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


def _round_properties() -> dict[str, Any]:
    return {
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
            "items": _obj(
                "Cards dealt from a number of players upward.",
                {
                    "players": _int(
                        "The smallest player count this entry is for.", 2, maximum=MAX_PLAYERS
                    ),
                    "cards": _int("Cards dealt to each player.", 1),
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
        "contract": _obj(
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
        "all_at_once": _bool(
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


def _rank_or_null(description: str) -> dict[str, Any]:
    return {
        "type": ["integer", "string", "null"],
        "description": f"{description} {RANK_DESCRIPTION}",
        "default": None,
        "examples": [3],
    }


def _build_schema() -> dict[str, Any]:
    round_props = _round_properties()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "rummy-tui ruleset",
        "description": (
            "The complete rules of one rummy game. Keys left out take their default. "
            "A file may start from another ruleset with `extends` and state only changes."
        ),
        "type": "object",
        "additionalProperties": False,
        # A file that `extends` another states only changes; a whole ruleset needs these.
        "if": {"required": ["extends"]},
        "else": {"required": list(WHOLE_RULESET_KEYS)},
        "properties": {
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
            "players": _obj(
                "How many players may sit at the table.",
                {
                    "min": _int("Fewest players.", 2, maximum=MAX_PLAYERS, examples=[2]),
                    "max": _int("Most players.", 2, maximum=MAX_PLAYERS, examples=[4]),
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
                "items": _obj(
                    "Decks and jokers from a number of players upward.",
                    {
                        "players": _int(
                            "The smallest player count this entry is for.", 2, maximum=MAX_PLAYERS
                        ),
                        "decks": _int(
                            "Standard 52-card decks shuffled together.", 1, maximum=MAX_DECKS
                        ),
                        "jokers": _int(
                            "Jokers added to the decks.", 0, maximum=MAX_JOKERS, default=0
                        ),
                    },
                    required=["players", "decks"],
                ),
                "examples": [[{"players": 2, "decks": 1}, {"players": 3, "decks": 2}]],
            },
            "ranks": _obj(
                "Rank order in runs. Kings are above queens; the ace is placed by `ace`.",
                {
                    "ace": _enum(
                        "Where the ace goes in runs.",
                        {
                            "low": "A-2-3 only",
                            "high": "Q-K-A only",
                            "both": "A-2-3 or Q-K-A, never both ends of one run",
                        },
                        "low",
                    ),
                    "wrap": _bool("Runs may turn the corner, such as Q-K-A-2.", False),
                },
                default={"ace": "low", "wrap": False},
            ),
            "jokers_wild": _bool(
                "Jokers (from `decks`) are wild cards. Whoever melds a joker declares the "
                "card it stands for, and that never changes.",
                True,
            ),
            "dealer": _enum(
                "Who deals first; the deal then passes to the left each round.",
                {
                    "random": "chosen at random",
                    "lowest_card": "everyone draws a card, lowest deals",
                    "highest_card": "everyone draws a card, highest deals",
                },
                "random",
            ),
            "dealer_ace": _enum(
                "How an ace counts when everyone draws for the first deal (with `dealer: "
                "lowest_card` or `highest_card`).",
                {
                    "ranks": "high if `ranks.ace` is high, else low",
                    "low": "lowest card",
                    "high": "above the king",
                },
                "ranks",
            ),
            "progression": _enum(
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
            "round_defaults": _obj(
                "Keys merged into every entry of `rounds` (an entry's own keys win).",
                copy.deepcopy(round_props),
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
                "items": _obj("One round of the schedule.", round_props),
                "examples": [[{"cards": 3, "wild": [3]}, {"cards": 10, "contract": {"sets": 2}}]],
            },
            "melds": _obj(
                "What counts as a meld. A card belongs to one meld only.",
                {
                    "set": _obj(
                        "A set: cards of one rank.",
                        {
                            "min": _int("Fewest cards in a set.", 1, default=3),
                            "max": {
                                "type": ["integer", "null"],
                                "minimum": 1,
                                "description": "Most cards in a set; null for no limit.",
                                "default": None,
                                "examples": [4],
                            },
                            "distinct_suits": _bool(
                                "No two cards of a set may share a suit (matters with more "
                                "than one deck).",
                                False,
                            ),
                            **set_keys(),
                        },
                        default={"min": 3, "max": None, "distinct_suits": False,
                                 "allowed": True, "one_colour": False},
                    ),
                    "run": _obj(
                        "A run: cards of one suit in sequence.",
                        {
                            "min": _int("Fewest cards in a run (at most 13).", 1, default=3),
                            "max": {
                                "type": ["integer", "null"],
                                "minimum": 1,
                                "description": "Most cards in a run; null for no limit.",
                                "default": None,
                                "examples": [7],
                            },
                            "lowest": _rank_or_null(
                                "The lowest rank a run may use (such as 3: nothing below 3; "
                                "A means the low ace); null: as `ranks.ace` allows. It narrows "
                                "what `ranks.ace` allows: with `ace: both` and `lowest: 2`, "
                                "Q-K-A is a run and A-2-3 is not. Not with `ranks.wrap`."
                            ),
                            "highest": _rank_or_null(
                                "The highest rank a run may use (such as K: no high ace; A "
                                "means the high ace); null: as `ranks.ace` allows. With "
                                "`ace: both` and `highest: K`, A-2-3 is a run and Q-K-A is "
                                "not. Not with `ranks.wrap`."
                            ),
                            "same_suit": _bool(
                                "A run is of one suit. false: runs may mix suits (5H-6S-7H), "
                                "and `contract.runs_same_suit` no longer applies.",
                                True,
                            ),
                            **run_keys(),
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
                    "min_natural": _int(
                        "Fewest natural (non-wild) cards in every meld; 0 allows melds of "
                        "wild cards only (even when `wilds_may_outnumber_naturals` is false, "
                        "which then limits only melds holding a natural card: JK JK JK is a "
                        "meld, 7H JK JK is not). A wild-rank card standing for itself is "
                        "natural (see `wild_rank_natural`).",
                        0,
                        default=1,
                    ),
                    "wilds_may_outnumber_naturals": _bool(
                        "A meld may hold more wild cards than natural ones. false: a meld "
                        "with natural cards holds at most as many wilds (with "
                        "`min_natural: 0` a meld of wild cards only is still allowed). It "
                        "holds for laying off too unless `wild_ratio_on_lay_off` is false.",
                        True,
                    ),
                    "wild_rank_natural": _bool(
                        "A card of the round's wild rank may stand for itself and then "
                        "counts as natural. false: it is always a wild, so 2C 2D 2H with 2s "
                        "wild is a meld of three wilds (allowed only with `min_natural: 0`), "
                        "and 2S-3S-4S-5S holds three naturals and a wild (which "
                        "`wilds_may_outnumber_naturals: false` counts).",
                        True,
                    ),
                    "wild_ratio_on_lay_off": _bool(
                        "`wilds_may_outnumber_naturals: false` also holds when laying off. "
                        "false: it is checked when melds are laid down only, and laying off "
                        "may add any number of wilds (7H 8H 9H JK goes down, then JK JK JK may be "
                        "laid off onto it). No effect while `wilds_may_outnumber_naturals` is "
                        "true.",
                        True,
                    ),
                    **meld_keys(),
                },
            ),
            "contract": _obj(
                "How the melds of one contract relate to each other.",
                {
                    "runs_same_suit": _enum(
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
                    "sets_same_rank": _bool(
                        "Two sets of one contract may be of the same rank.", False
                    ),
                    "same_suit_gap": _int(
                        "With `runs_same_suit: separate`: fewest ranks that must lie between "
                        "two runs of one suit in a contract (1: they may not touch, so "
                        "3C-6C and 8C-JC are fine but not 3C-6C and 7C-10C; 0: they may touch; "
                        "2: two ranks between).  Runs that overlap (two decks: 3C-6C and "
                        "4C-7C) are always separate melds.",
                        0,
                        maximum=11,
                        default=1,
                    ),
                    "exact_size": _bool(
                        "Contract melds are laid down at exactly their smallest size "
                        "(`melds.*.min`, or the sizes given in the round's contract: with "
                        "`sets: [3, 4]` a set of exactly 3 and one of exactly 4); longer ones "
                        "are built by laying off later.",
                        False,
                    ),
                },
            ),
            "draw": _obj(
                "Where a player may draw from at the start of a turn (the stock always).",
                {
                    "discard": _enum(
                        "What may be taken from the discard pile.",
                        {
                            "top": "the top card",
                            "deep": "the top card, or a deeper card taking every card above",
                            "none": "nothing; draw from the stock only",
                        },
                        "top",
                    ),
                    "deep_must_meld": _bool(
                        "With `discard: deep`, a card taken from below the top must be "
                        "melded in the same turn.",
                        True,
                    ),
                    "no_immediate_rediscard": _bool(
                        "A player may not discard the single card just taken from the "
                        "discard pile (of several taken, any one may be discarded).",
                        False,
                    ),
                    "rediscard_to_go_out": _bool(
                        "With `no_immediate_rediscard`: the single card just taken may still "
                        "be discarded when it is the last card in hand, to go out (take the "
                        "top discard, meld the rest, throw it back).  Off, that card must "
                        "be melded or laid off like the others.",
                        False,
                    ),
                    "stock_only_after_contract": _bool(
                        "Once a player's contract is down, that player draws from the stock "
                        "only (buying the discard is `buying.after_contract`).",
                        False,
                    ),
                },
            ),
            "buying": _obj(
                'Buying ("May I?"): when the player in turn does not take the top discard, '
                "another player may claim it with penalty cards from the stock; the nearest "
                "in turn order wins.",
                {
                    "enabled": _bool("Buying is allowed.", False),
                    "penalty_cards": _int("Cards a buyer also takes from the stock.", 0, default=1),
                    "limit_per_deal": {
                        "type": ["integer", "null"],
                        "minimum": 0,
                        "description": "Most buys per player per deal; null for no limit.",
                        "default": 3,
                        "examples": [1],
                    },
                    "priority": _enum(
                        "Who gets the card when several players want it.",
                        {
                            "nearest": "the nearest in turn order after the player in turn",
                            "first_to_ask": "whoever asks first (every player still asked "
                            "may claim it at once)",
                        },
                        "nearest",
                    ),
                    "after_contract": _bool(
                        "A player whose contract is down may still buy. false: only players "
                        "still without their contract buy.",
                        True,
                    ),
                },
            ),
            "lay_off": _obj(
                "Laying off: adding cards from hand to melds already on the table.",
                {
                    "when": _enum(
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
                    "onto": _enum(
                        "Whose melds a player may lay off onto.",
                        {"any": "anyone's", "own": "only the player's own"},
                        "any",
                    ),
                    **lay_off_keys(),
                },
            ),
            "joker_swap": _obj(
                "Taking a joker from a meld on the table by putting the natural card it "
                "stands for in its place.",
                {
                    "enabled": _bool("Joker swaps are allowed.", False),
                    "runs_only": _bool(
                        "Only jokers in runs may be taken; jokers in sets are dead.", True
                    ),
                    "contract_on_earlier_turn": _bool(
                        "The player's contract must have gone down on an earlier turn.", True
                    ),
                    "play_same_turn": _bool("A joker taken must be played in the same turn.", True),
                    "when": _enum(
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
            "going_out": _obj(
                "Going out: getting rid of the last card ends the round.",
                {
                    "melding_during_play": _bool(
                        "Melds are laid on the table during play. false: nothing is laid "
                        "down until a player goes out by declaring the whole hand (but the "
                        "discard) as melds.",
                        True,
                    ),
                    "discard": _enum(
                        "Whether going out ends with a discard.", DISCARD_VALUES, "optional"
                    ),
                    "final_turns": _bool(
                        "After someone goes out, every other player gets one more turn.", False
                    ),
                    "final_turns_from_stock": _bool(
                        "A final turn (`final_turns: true`) draws from the stock only, not "
                        "the discard pile.",
                        False,
                    ),
                    "bonus": _int(
                        "Points added to the round score of the player who went out "
                        "(negative: a reward when the lowest total wins).",
                        default=0,
                        examples=[-10],
                    ),
                    "one_turn_bonus": _int(
                        'Points added, on top of `bonus`, for going out "rummy": melding the '
                        "whole hand in one turn, with nothing melded on an earlier turn of "
                        "the round. With `melding_during_play: false` every going out is in "
                        "one turn, so it simply adds to `bonus` (-5 and -20: -25).",
                        default=0,
                        examples=[-20],
                    ),
                    "deadwood_limit": _int(
                        "Laying-down limit, with `melding_during_play: false`: a player may go "
                        "out holding cards outside melds (besides the discard) worth up to "
                        "this many points; they score for that player (with 5: melding "
                        "5H 6H 7H, keeping AC 2D, discarding KS scores 3; with "
                        "`scoring.out_player_collects` those 3 come off what they collect).",
                        0,
                        default=0,
                        examples=[5],
                    ),
                    **going_out_keys(),
                },
            ),
            "stock": _obj(
                "What happens when the stock runs out.",
                {
                    "when_empty": _enum(
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
                    "rebuild": _enum(
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
            "scoring": _obj(
                "Penalty points for cards left in hand at the end of a round.",
                {
                    "values": _obj(
                        "Points per card rank (JK: joker). Ranks left out score the "
                        "standard values: A 1, 2-10 face value, J/Q/K 10, joker 0.",
                        {
                            key: {"type": "integer", "description": f"Points for {label}."}
                            for key, label in VALUE_LABELS.items()
                        },
                        default={},
                        examples=[{"A": 15, "JK": 25}],
                    ),
                    "wild_unmelded": _enum(
                        "How a wild card left in hand scores.",
                        {"face": "its value in `values`", "fixed": "`wild_value`"},
                        "face",
                    ),
                    "wild_value": _int(
                        "Points for a wild card left in hand with `wild_unmelded: fixed`.",
                        default=0,
                        examples=[20],
                    ),
                    "score_best_arrangement": _bool(
                        "At the end of a round each hand is arranged into melds to leave the "
                        "fewest points; only cards outside melds score.",
                        False,
                    ),
                    "out_player_collects": _bool(
                        "The player who went out scores the points of every other hand "
                        "(less the points of the cards they kept under "
                        "`going_out.deadwood_limit`), and the others score 0; usually with "
                        "`end.winner: highest`. A round nobody went out of scores 0 for all.",
                        False,
                    ),
                    **scoring_keys(),
                },
            ),
            "end": _obj(
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
                    "max_rounds": _int(
                        "With a `point_limit`, the game ends after this many rounds even if "
                        "nobody reached the limit.",
                        1,
                        maximum=MAX_GAME_ROUNDS,
                        default=100,
                        examples=[30],
                    ),
                    "winner": _enum(
                        "Who wins; equal best totals share the win unless `tie_break` "
                        "settles it.",
                        {"lowest": "the lowest total", "highest": "the highest total"},
                        "lowest",
                    ),
                    "tie_break": _enum(
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
        },
    }


def _with_round_melds(schema: dict[str, Any]) -> dict[str, Any]:
    """A round (and `round_defaults`) may set any key of `melds` for itself, and give
    alternative contracts."""
    props = schema["properties"]
    for where in (props["rounds"]["items"], props["round_defaults"]):
        where["properties"]["melds"] = round_melds(props["melds"])
        contract = where["properties"]["contract"]
        contract["properties"]["any_of"] = contract_any_of(contract)
        contract["properties"]["exact_size"] = round_exact_size()
    return schema


_SCHEMA = _with_round_melds(_build_schema())


def _whole_number(checker: Any, instance: Any) -> bool:
    """An integer is an `int`: JSON Schema would take 3.0 (and YAML's `3.0` is a float,
    which the engine cannot count with), and true/false are not numbers here."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_STRICT = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number),
)
_VALIDATOR = _STRICT(_SCHEMA)


def rules_schema() -> dict[str, Any]:
    """The JSON Schema of a ruleset file (a fresh copy the caller may change)."""
    return copy.deepcopy(_SCHEMA)


# --- errors in the player's words ------------------------------------------------------


def dotted(path: KeyPath) -> str:
    """`rounds[3].contract.runs`: list entries counted from 1, like rounds are."""
    text = ""
    for part in path:
        text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "the file"


def _what(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"`{str(value).lower()}` (true/false)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    return f"`{value}`"


_TYPE_WORDS = {
    "integer": "a whole number",
    "string": "text",
    "boolean": "true or false",
    "object": "a mapping of keys",
    "array": "a list",
    "null": "null",
}


def suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""


def for_example(key: str | int | None, schema: dict[str, Any]) -> str:
    """` (for example `decks: [{players: 2, decks: 1}]`)`: the right form of a key, from
    the first example its schema gives ("" if it gives none)."""
    sample = _sample(schema)
    if sample is None:
        return ""
    value = yaml.safe_dump(sample, default_flow_style=True, width=1_000_000,
                           sort_keys=False).strip().removesuffix("...").strip()
    written = f"{key}: {value}" if isinstance(key, str) else f"- {value}"
    return f" (for example `{written}`)"


def _sample(schema: dict[str, Any]) -> Any:
    """A value of the right form: the schema's first example, else a mapping of samples of
    its required keys, else its default or least value; None if it gives no clue."""
    if schema.get("examples"):
        return schema["examples"][0]
    properties = schema.get("properties", {})
    if schema.get("type") == "object" and schema.get("required"):
        parts = {key: _sample(properties.get(key, {})) for key in schema["required"]}
        return parts if all(v is not None for v in parts.values()) else None
    if schema.get("default") not in (None, [], {}):
        return schema["default"]
    return schema.get("minimum")


def _messages(error: ValidationError, doc: LocatedDoc) -> list[LocatedError]:
    path = tuple(error.absolute_path)
    where = f"`{dotted(path)}`"
    kind = error.validator
    instance = error.instance
    at = doc.value_loc(path)
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extras = [key for key in instance if key not in allowed]
        inside = f" in `{dotted(path)}`" if path else ""
        return [
            doc.key_loc((*path, key)).error(
                f"unknown key `{key}`{inside}{suggest(key, allowed)}"
                + ("" if suggest(key, allowed) else f" (allowed: {', '.join(allowed)})")
            )
            for key in extras
        ]
    if kind == "required":
        missing = [key for key in error.validator_value if key not in instance]
        inside = f" in `{dotted(path)}`" if path else ""
        properties = error.schema.get("properties") or (
            {} if path else _SCHEMA["properties"])  # the file's keys: required in `else`
        return [at.error(f"missing key `{key}`{inside}"
                         f"{for_example(key, properties.get(key, {}))}") for key in missing]
    if kind == "type":
        types = error.validator_value
        types = [types] if isinstance(types, str) else types
        wanted = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        example = for_example(path[-1] if path else None, error.schema)
        return [at.error(f"{where} must be {wanted}, not {_what(instance)}{example}")]
    if kind == "enum":
        options = [str(v) if v is not None else "null" for v in error.validator_value]
        hint = suggest(str(instance), options) if isinstance(instance, str) else ""
        return [
            at.error(f"{where} must be one of {', '.join(options)}, not {_what(instance)}{hint}")
        ]
    if kind == "minimum":
        return [at.error(f"{where} must be at least {error.validator_value}, not {instance}")]
    if kind == "maximum":
        return [at.error(f"{where} must be at most {error.validator_value}, not {instance}")]
    if kind == "exclusiveMinimum":
        return [at.error(f"{where} must be more than {error.validator_value}, not {instance}")]
    if kind == "minItems":
        return [at.error(f"{where} needs at least {error.validator_value} entry")]
    if kind == "maxItems":
        return [at.error(f"{where} has more than {error.validator_value} entries")]
    if kind == "minLength":
        return [at.error(f"{where} must not be empty")]
    return [at.error(f"{where}: {error.message}")]


def schema_errors(doc: LocatedDoc) -> list[LocatedError]:
    """Every schema violation of the (merged) document, located and worded for players."""
    errors: list[LocatedError] = []
    for error in _VALIDATOR.iter_errors(doc.data):
        errors.extend(_messages(error, doc))
    return list(dict.fromkeys(errors))  # `required` reports each missing key once per key


def prune_invalid(doc: LocatedDoc) -> tuple[dict[str, Any], set[KeyPath]] | None:
    """The data with every schema-invalid value removed, and the paths removed.

    The rule checks then still run and report their errors together with the schema's;
    they skip whatever is missing.  An invalid list entry becomes None (so the positions of
    the others stay right).  None when the document is not a mapping at all.
    """
    data = copy.deepcopy(doc.data)
    if not isinstance(data, dict):
        return None
    pruned: set[KeyPath] = set()
    for _ in range(4):  # removing a value cannot create new errors; a pass or two settles
        changed = False
        for error in _VALIDATOR.iter_errors(data):
            path = tuple(error.absolute_path)
            if error.validator == "additionalProperties":
                parent = _at(data, path)
                allowed = error.schema.get("properties", {})
                for key in [k for k in parent if k not in allowed]:
                    del parent[key]
                    pruned.add((*path, key))
                    changed = True
                continue
            if error.validator in ("required", "minItems") or not path:
                continue
            parent = _at(data, path[:-1])
            if isinstance(path[-1], int) and isinstance(parent, list):
                if parent[path[-1]] is not None:
                    parent[path[-1]] = None
                    changed = True
            elif isinstance(parent, dict) and path[-1] in parent:
                del parent[path[-1]]
                changed = True
            pruned.add(path)
        if not changed:
            break
    return data, pruned


def _at(data: Any, path: KeyPath) -> Any:
    for part in path:
        data = data[part]
    return data
