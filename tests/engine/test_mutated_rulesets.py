"""Mutated bundled rulesets are either refused with located errors or play a whole game.

Each example takes a bundled ruleset written out in full, changes one value (a number
pushed to an edge, a float, a boolean, text, null), and loads it.  A refusal must say
where (FILE:LINE:COL, or the file for file-wide limits); a ruleset that loads must play a
whole game between bots, ending within the move bound `rules check` promises (one that
with unlimited stock rebuilds included: a deal then ends after ten stocks' worth of turns).
The fault campaign found 25 of 55 such number edges accepted and then crashing or never
ending.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.bots import make_bot
from tui.engine.game import MAX_GAME_MOVES, Game
from tui.engine.ruleset import RulesetError, load_ruleset, load_ruleset_text, standalone_yaml
from tui.engine.ruleset.schema_rounds import MAX_CONTRACT_MELDS

BUNDLED = ("three_thirteen", "contract_rummy", "liverpool", "three_thirteen_jokers")
@cache
def full_text(key: str) -> str:
    return standalone_yaml(load_ruleset(key))


def leaves(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place holding a number, a boolean or null (the values worth pushing)."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in leaves(v, (*path, i))]
    return [path] if value is None or isinstance(value, int | float | bool) else []


@cache
def places(key: str) -> list[tuple]:
    return leaves(yaml.safe_load(full_text(key)))


EDGES = st.one_of(
    st.sampled_from([0, 1, 2, -1, 13, 14, 20, 21, 52, 100, 10**6, 2**31, 2**63]),
    st.integers(-50, 300),
    st.sampled_from([0.0, 1.0, 2.5, 3.0, float("inf")]),
    st.booleans(),
    st.none(),
    st.sampled_from(["", "x", "3"]),
)


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, str]:
    key = draw(st.sampled_from(BUNDLED))
    data = yaml.safe_load(full_text(key))
    where = draw(st.sampled_from(places(key)))
    parent = data
    for step in where[:-1]:
        parent = parent[step]
    parent[where[-1]] = draw(EDGES)
    return key, yaml.safe_dump(data, sort_keys=False)


def check(key: str, text: str) -> None:
    try:
        rules = load_ruleset_text(text, file="<mutated>", key=key)
    except RulesetError as exc:
        assert exc.errors
        for error in exc.errors:
            assert error.file == "<mutated>" and error.message, str(error)
        return
    players = max(rules.players_min, min(3, rules.players_max))
    game = Game(rules, [f"P{i}" for i in range(players)], 1)
    bots = [make_bot("random", i) for i in range(players)]
    for _ in range(MAX_GAME_MOVES):
        if game.phase == "game_over":
            break
        if game.phase == "round_over":
            game.next_round()
            continue
        game.apply(bots[game.actor].choose(game.view(game.actor)))
    assert game.phase == "game_over", "the game did not end within the moves a game may take"
    game.check_conservation()


QUICK = settings(max_examples=12, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@QUICK
@given(mutations())
def test_a_mutated_bundled_ruleset_is_refused_where_it_is_wrong_or_plays(
        mutation: tuple[str, str]) -> None:
    check(*mutation)


@pytest.mark.slow
@settings(QUICK, max_examples=400)
@given(mutations())
def test_many_mutated_bundled_rulesets_are_refused_or_play(mutation: tuple[str, str]) -> None:
    check(*mutation)


@pytest.mark.parametrize(("key", "change"), [
    ("three_thirteen", ("rounds", 0, "cards", 3.0)),
    ("three_thirteen", ("decks", 0, "decks", 1.0)),
    ("contract_rummy", ("scoring", "values", "K", 250_000)),
    ("contract_rummy", ("melds", "set", "min", 1)),
    ("contract_rummy", ("melds", "min_natural", 65)),
    ("three_thirteen", ("rounds", 0, "cards", 60)),
])
def test_the_edges_the_fault_campaign_found_are_refused(key: str, change: tuple) -> None:
    data = yaml.safe_load(full_text(key))
    *path, last, value = change
    parent = data
    for step in path:
        parent = parent[step]
    parent[last] = value
    with pytest.raises(RulesetError) as caught:
        load_ruleset_text(yaml.safe_dump(data, sort_keys=False), file="<edge>", key=key)
    assert all(e.line > 0 for e in caught.value.errors), str(caught.value)


@pytest.mark.parametrize(("kind", "count"), [
    ("sets", 2**63), ("runs", 10**6), ("sets", [3] * 500)])
def test_a_contract_of_more_melds_than_a_hand_holds_is_refused_at_the_count(
        kind: str, count: object) -> None:
    """The checks multiplied a contract's count out into a list of meld sizes: `sets:
    2147483648` asked for 16 GB (the slow soak's worker was killed for it), `2**63` raised
    OverflowError.  The schema bounds the count, and the refusal points at it."""
    data = yaml.safe_load(full_text("contract_rummy"))
    data["rounds"][0]["contract"][kind] = count
    text = yaml.safe_dump(data, sort_keys=False)
    with pytest.raises(RulesetError) as caught:
        load_ruleset_text(text, file="<huge>", key="contract_rummy")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.strip().startswith(kind))
    line += isinstance(count, list)  # a block list is located at its first entry
    assert [(e.line, e.message) for e in caught.value.errors] == [
        (line, f"`rounds[1].contract.{kind}` " + (
            f"must be at most {MAX_CONTRACT_MELDS}, not {count}" if isinstance(count, int)
            else f"has more than {MAX_CONTRACT_MELDS} entries"))], str(caught.value)


def test_unlimited_rebuilds_still_end_every_deal() -> None:
    """The slow soak drew `max_rebuilds: null` for Liverpool and waited 200,000 moves for
    an end (random bots never go out of the last deal): each deal now ends after ten
    stocks' worth of turns, and so does the game."""
    data = yaml.safe_load(full_text("liverpool"))
    data["stock"]["max_rebuilds"] = None
    check("liverpool", yaml.safe_dump(data, sort_keys=False))
