"""The rules text is generated from the data: a changed rule changes the text."""

from __future__ import annotations

from dataclasses import replace

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.engine.ruleset.dump import standalone_yaml
from tui.engine.ruleset.errors import RulesetError
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text
from tui.engine.ruleset.text import describe_rules


def _flat(text: str) -> str:
    """The text with line breaks and indents folded, so phrases can be found across lines."""
    return " ".join(text.split())


def _variant(base: str, change: str):  # noqa: ANN202 - a Ruleset
    return load_ruleset_text(f"extends: {base}\n{change}\n", file="variant.yaml")


def test_three_thirteen_text() -> None:
    text = describe_rules(load_ruleset("three_thirteen"))
    for title in (
        "Players and cards",
        "Rounds",
        "Melds",
        "Your turn",
        "Laying off",
        "Going out",
        "Scoring",
        "End of the game",
    ):
        assert f"\n{title}\n" in text
    assert "Contracts" not in text and "Buying" not in text
    assert "The game has 11 rounds" in text
    rows = [line.split() for line in text.splitlines() if line.strip()[:2].strip().isdigit()]
    assert ["9", "11", "J"] in rows and ["1", "3", "3"] in rows
    assert "3–4 players: 2 decks (104 cards)" in text
    assert "exactly one more turn" in text and "Nobody ever adds cards" in text


def test_contract_rummy_text() -> None:
    text = describe_rules(load_ruleset("contract_rummy"))
    assert "1 set + 2 runs" in text and "all at once" in text
    assert "3 players: 1 deck and 1 joker (53 cards)" in text
    assert "A 15" in text and "joker 15" in text
    assert "deeper card" in text and "Taking jokers" in text


@pytest.mark.parametrize(
    ("base", "change", "appears", "gone"),
    [
        (
            "contract_rummy",
            "lay_off: {when: after_contract_turn}",
            "from your next turn on",
            "(from the same turn)",
        ),
        ("contract_rummy", "lay_off: {onto: own}", "onto your own melds", "another player's"),
        (
            "contract_rummy",
            "buying: {enabled: true, penalty_cards: 2, limit_per_deal: null}",
            "takes 2 penalty cards",
            None,
        ),
        ("liverpool", "buying: {limit_per_deal: 1}", "at most 1 time per round", "at most 3 times"),
        (
            "three_thirteen",
            "melds: {set: {distinct_suits: true, max: 4}}",
            "3 to 4 cards of one rank; no two cards",
            "3 or more cards of one rank",
        ),
        ("three_thirteen", "melds: {min_natural: 0}", "wild cards only", "at least 1 natural"),
        (
            "three_thirteen",
            "melds: {wilds_may_outnumber_naturals: false}",
            "may not hold more wild cards",
            "no limit on wild cards",
        ),
        ("three_thirteen", "melds: {run: {min: 4}}", "A run is 4 or more", "A run is 3 or more"),
        ("three_thirteen", "going_out: {bonus: -10}", "takes 10 points off", "scores 0."),
        ("three_thirteen", "end: {point_limit: 200}", "reaches 200 points", "After round 11"),
        ("three_thirteen", "end: {winner: highest}", "highest total wins", "lowest total"),
        ("contract_rummy", "draw: {discard: top}", "top card of the discard pile", "deeper card"),
        (
            "contract_rummy",
            "draw: {no_immediate_rediscard: false}",
            None,
            "may not discard the single card",
        ),
        ("three_thirteen", "ranks: {ace: high, wrap: true}", "Aces are high", "Aces are low"),
        (
            "three_thirteen",
            "stock: {when_empty: end_round}",
            "runs out, the round ends",
            "shuffled into",
        ),
        ("three_thirteen", "stock: {max_rebuilds: 5}", "rebuilt 5 times", "rebuilt 2 times"),
        # the turn cap follows the stocks a deal may draw from
        ("three_thirteen", "stock: {max_rebuilds: 5}", "cards in play times 6",
         "cards in play times 3"),
        ("three_thirteen", "stock: {when_empty: end_round}",
         "as many turns as there are cards in play (players", "cards in play times"),
        ("three_thirteen", "stock: {max_rebuilds: null}", None, "cards in play"),
        ("three_thirteen", "scoring: {values: {K: 25}}", "J 10, Q 10, K 25", "J, Q, K 10"),
        ("three_thirteen", "scoring: {score_best_arrangement: false}", None, "arranged into melds"),
        (
            "three_thirteen",
            "scoring: {wild_unmelded: fixed, wild_value: 50}",
            "wild card left in hand scores 50",
            "scores its face value",
        ),
        ("contract_rummy", "joker_swap: {enabled: false}", None, "Taking jokers"),
        (
            "contract_rummy",
            "joker_swap: {runs_only: false}",
            "a joker in a meld",
            "Jokers in sets stay",
        ),
        (
            "contract_rummy",
            "going_out: {final_turns: true}",
            "one more turn",
            "ends the round at once",
        ),
        (
            "contract_rummy",
            "contract: {runs_same_suit: allowed}",
            "may be of any suits",
            "different suits",
        ),
        (
            "contract_rummy",
            "contract: {sets_same_rank: true}",
            "may be of the same rank",
            "must be of different ranks",
        ),
        ("contract_rummy", "dealer: random", "chosen at random", "lowest deals"),
        (
            "contract_rummy",
            "jokers_wild: false\njoker_swap: {enabled: false}",
            "no wild cards",
            "Wild cards (jokers)",
        ),
        (
            "three_thirteen",
            "going_out: {discard: optional}",
            "discarding a card or not",
            "discards that last card",
        ),
        ("contract_rummy", "players: {max: 4}", "4 players: 2 decks", "4–5 players"),
    ],
)
def test_a_changed_rule_changes_the_text(
    base: str, change: str, appears: str | None, gone: str | None
) -> None:
    before = _flat(describe_rules(load_ruleset(base)))
    after = _flat(describe_rules(_variant(base, change)))
    if appears is not None:
        assert appears not in before, f"{appears!r} already describes the base rule"
        assert appears in after, f"{appears!r} missing after {change}"
    if gone is not None:
        assert gone in before, f"{gone!r} should describe the base rule"
        assert gone not in after


_BASES = ["three_thirteen", "contract_rummy", "liverpool", "three_thirteen_jokers"]
_KNOBS = st.fixed_dictionaries(
    {},
    optional={
        "ranks": st.fixed_dictionaries(
            {}, optional={"ace": st.sampled_from(["low", "high", "both"]), "wrap": st.booleans()}
        ),
        "jokers_wild": st.booleans(),
        "dealer": st.sampled_from(["random", "lowest_card", "highest_card"]),
        "dealer_ace": st.sampled_from(["ranks", "low", "high"]),
        "melds": st.fixed_dictionaries(
            {},
            optional={
                "set": st.fixed_dictionaries(
                    {},
                    optional={
                        "min": st.integers(1, 5),
                        "max": st.none() | st.integers(3, 8),
                        "distinct_suits": st.booleans(),
                    },
                ),
                "run": st.fixed_dictionaries({}, optional={
                    "min": st.integers(2, 6),
                    "lowest": st.none() | st.sampled_from([2, 3, "A"]),
                    "highest": st.none() | st.sampled_from(["K", "A", 10]),
                    "same_suit": st.booleans(),
                }),
                "min_natural": st.integers(0, 3),
                "wilds_may_outnumber_naturals": st.booleans(),
                "wild_rank_natural": st.booleans(),
                "wild_ratio_on_lay_off": st.booleans(),
            },
        ),
        "contract": st.fixed_dictionaries(
            {},
            optional={
                "runs_same_suit": st.sampled_from(["forbidden", "separate", "allowed"]),
                "sets_same_rank": st.booleans(),
                "same_suit_gap": st.integers(0, 3),
                "exact_size": st.booleans(),
            },
        ),
        "draw": st.fixed_dictionaries(
            {},
            optional={
                "discard": st.sampled_from(["top", "deep", "none"]),
                "deep_must_meld": st.booleans(),
                "no_immediate_rediscard": st.booleans(),
                "stock_only_after_contract": st.booleans(),
            },
        ),
        "buying": st.fixed_dictionaries(
            {},
            optional={
                "enabled": st.booleans(),
                "penalty_cards": st.integers(0, 3),
                "limit_per_deal": st.none() | st.integers(0, 5),
                "priority": st.sampled_from(["nearest", "first_to_ask"]),
                "after_contract": st.booleans(),
            },
        ),
        "lay_off": st.fixed_dictionaries(
            {},
            optional={
                "when": st.sampled_from(
                    ["never", "after_contract", "after_contract_turn", "always"]),
                "onto": st.sampled_from(["any", "own"]),
            },
        ),
        "joker_swap": st.fixed_dictionaries(
            {},
            optional={
                "enabled": st.booleans(),
                "when": st.sampled_from(["after_contract", "before_contract", "any"]),
                "play_same_turn": st.booleans(),
            },
        ),
        "going_out": st.fixed_dictionaries(
            {},
            optional={
                "discard": st.sampled_from(["required", "optional", "forbidden"]),
                "final_turns": st.booleans(),
                "final_turns_from_stock": st.booleans(),
                "bonus": st.integers(-50, 50),
                "one_turn_bonus": st.integers(-50, 50),
                "deadwood_limit": st.integers(0, 10),
            },
        ),
        "stock": st.fixed_dictionaries(
            {},
            optional={
                "when_empty": st.sampled_from(["reshuffle", "end_round"]),
                "max_rebuilds": st.none() | st.integers(0, 4),
                "rebuild": st.sampled_from(["shuffle", "turn_over"]),
            },
        ),
        "scoring": st.fixed_dictionaries(
            {},
            optional={
                "values": st.dictionaries(
                    st.sampled_from(["A", "2", "9", "J", "Q", "K", "JK"]), st.integers(-5, 60)
                ),
                "wild_unmelded": st.sampled_from(["face", "fixed"]),
                "wild_value": st.integers(0, 50),
                "out_player_collects": st.booleans(),
            },
        ),
        "end": st.fixed_dictionaries(
            {},
            optional={
                "point_limit": st.none() | st.integers(1, 500),
                "winner": st.sampled_from(["lowest", "highest"]),
                "tie_break": st.sampled_from(["share", "last_round", "most_outs"]),
            },
        ),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(_BASES), knobs=_KNOBS)
def test_any_house_rule_loads_describes_and_round_trips(base: str, knobs: dict) -> None:
    text = f"extends: {base}\n" + (yaml.safe_dump(knobs) if knobs else "")
    try:
        ruleset = load_ruleset_text(text, file="house.yaml")
    except RulesetError as error:  # some combinations are refused, always with a location
        assert all(e.line >= 1 for e in error.errors), str(error)
        return
    described = describe_rules(ruleset)
    assert described.startswith(ruleset.name)
    again = load_ruleset_text(standalone_yaml(ruleset))
    assert replace(again, key=ruleset.key, source=ruleset.source) == ruleset


_JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
_KEYS = [
    "name",
    "players",
    "decks",
    "ranks",
    "rounds",
    "round_defaults",
    "melds",
    "draw",
    "buying",
    "lay_off",
    "joker_swap",
    "going_out",
    "scoring",
    "end",
    "contract",
    "extends",
]


@settings(max_examples=80, deadline=None)
@given(
    base=st.sampled_from(_BASES), junk=st.dictionaries(st.sampled_from(_KEYS), _JUNK, max_size=3)
)
def test_garbage_is_refused_with_located_errors_never_a_crash(base: str, junk: dict) -> None:
    text = f"extends: {base}\n" + yaml.safe_dump({k: v for k, v in junk.items() if k != "extends"})
    try:
        load_ruleset_text(text, file="junk.yaml")
    except RulesetError as error:
        assert error.errors and all(e.file for e in error.errors)
