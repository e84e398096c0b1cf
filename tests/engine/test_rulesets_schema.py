"""The JSON Schema: valid, complete (every knob described, defaults as the dataclasses)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from tui.engine import rules
from tui.engine.ruleset.dump import standalone_yaml
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.ruleset.schema import rules_schema

REPO = Path(__file__).resolve().parents[2]
BUNDLED = sorted(p.stem for p in (REPO / "rulesets").glob("*.yaml"))


def _walk(schema: dict[str, Any], path: str = ""):  # noqa: ANN202 - generator of pairs
    yield path, schema
    for key, child in schema.get("properties", {}).items():
        yield from _walk(child, f"{path}.{key}" if path else key)
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"], f"{path}[]")


def test_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(rules_schema())


def test_every_key_is_described_and_closed() -> None:
    for path, node in _walk(rules_schema()):
        assert node.get("description"), f"{path or 'top'} has no description"
        if node.get("type") == "object":
            assert node.get("additionalProperties") is False, path


def test_optional_keys_have_defaults() -> None:
    schema = rules_schema()
    for path, node in _walk(schema):
        required = set(node.get("required", [])) | set(node.get("else", {}).get("required", []))
        for key, child in node.get("properties", {}).items():
            # `cards` is required per round, but may come from `round_defaults` instead
            if key in required or key in ("extends", "name", "cards") or path.endswith("values"):
                continue
            if path.startswith(("rounds[].melds", "round_defaults.melds")):
                continue  # a round's meld keys left out are the game's: no defaults there
            if child.get("type") == "object" and "default" not in child:
                continue  # its keys carry the defaults
            assert "default" in child, f"{path}.{key} has no default"


def test_rules_schema_returns_a_copy() -> None:
    rules_schema()["properties"].clear()
    assert "rounds" in rules_schema()["properties"]


# schema section -> the dataclass its keys fill
SECTIONS: dict[str, type] = {
    "melds.set": rules.SetRule,
    "melds.run": rules.RunRule,
    "melds": rules.MeldRules,
    "contract": rules.ContractRules,
    "draw": rules.DrawRules,
    "buying": rules.BuyingRules,
    "lay_off": rules.LayOffRules,
    "joker_swap": rules.JokerSwapRules,
    "going_out": rules.GoingOutRules,
    "stock": rules.StockRules,
    "scoring": rules.ScoringRules,
    "end": rules.EndRules,
    "rounds[]": rules.Round,
    "decks[]": rules.DeckSpec,
    "rounds[].contract": rules.Contract,
}


# fields a key's list form fills: `cards: [{players, cards}]`, `sets: [3, 4]`, `runs: [4]`
WRITTEN_INSIDE = {"cards_by_players", "set_sizes", "run_sizes", "colour_sizes", "set_ranks",
                  "alternatives"}  # (`contract.any_of`)


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_schema_covers_every_field_with_the_same_default(section: str) -> None:
    nodes = dict(_walk(rules_schema()))
    props = nodes[section]["properties"]
    for field in dataclasses.fields(SECTIONS[section]):
        if field.name in WRITTEN_INSIDE:
            continue
        assert field.name in props, f"{section}.{field.name} is not in the schema"
        default = props[field.name].get("default", dataclasses.MISSING)
        if field.default is not dataclasses.MISSING:
            expected = list(field.default) if isinstance(field.default, tuple) else field.default
            if field.name != "values":
                assert default == expected, f"{section}.{field.name}"


def test_top_level_keys_cover_the_ruleset() -> None:
    props = rules_schema()["properties"]
    grouped = {
        "players_min": "players",
        "players_max": "players",
        "ace": "ranks",
        "wrap": "ranks",
        "key": None,
        "source": None,
    }
    for field in dataclasses.fields(rules.Ruleset):
        key = grouped.get(field.name, field.name)
        assert key is None or key in props, field.name
    assert props["ranks"]["properties"]["ace"]["default"] == "low"


@pytest.mark.parametrize("key", BUNDLED)
def test_schema_accepts_bundled_files(key: str) -> None:
    validator = Draft202012Validator(rules_schema())
    data = yaml.safe_load((REPO / "rulesets" / f"{key}.yaml").read_text(encoding="utf-8"))
    assert list(validator.iter_errors(data)) == []  # also the partial files using `extends`
    whole = yaml.safe_load(standalone_yaml(load_ruleset(key)))
    assert list(validator.iter_errors(whole)) == []


def test_schema_needs_whole_ruleset_keys_only_without_extends() -> None:
    validator = Draft202012Validator(rules_schema())
    assert list(validator.iter_errors({"extends": "three_thirteen", "dealer": "random"})) == []
    errors = list(validator.iter_errors({"name": "Lonely", "dealer": "random"}))
    assert {e.validator for e in errors} == {"required"}
    assert {e.message.split("'")[1] for e in errors} == {"players", "decks", "rounds"}


def test_schema_rejects_a_typo() -> None:
    validator = Draft202012Validator(rules_schema())
    data = yaml.safe_load(standalone_yaml(load_ruleset("three_thirteen")))
    data["rounds"][0]["wild_rnak"] = [3]
    [error] = validator.iter_errors(data)
    assert "wild_rnak" in error.message
