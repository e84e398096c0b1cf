"""The ruleset reference and the schema file in docs/ are generated, never edited: the
committed files must equal what the generators print now."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tui.cli import main
from tui.engine.ruleset.loader import bundled_rulesets_dir
from tui.engine.ruleset.marked_yaml import compose_located, merge_docs
from tui.engine.ruleset.reference import example_value, reference_markdown, type_text
from tui.engine.ruleset.schema import rules_schema, schema_errors

DOCS = Path(__file__).resolve().parents[2] / "docs"
REGENERATE = "regenerate: rummy rules reference > docs/ruleset-reference.md"


def test_committed_reference_is_the_generated_one() -> None:
    assert (DOCS / "ruleset-reference.md").read_text(encoding="utf-8") == reference_markdown(), (
        REGENERATE
    )


def test_committed_schema_is_the_schema() -> None:
    committed = json.loads((DOCS / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert committed == rules_schema(), "regenerate: rummy rules schema > docs/ruleset.schema.json"


def test_rules_reference_command_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "reference"]) == 0
    assert capsys.readouterr().out == reference_markdown()


def _leaf_paths(schema: dict, prefix: str = "") -> list[str]:
    """Dotted names of every key, the way the reference writes them."""
    names = []
    for key, sub in schema.get("properties", {}).items():
        name = f"{prefix}{key}"
        names.append(name)
        if key in ("round_defaults", "values") or name == "rounds[].melds":
            continue  # (described once: a `rounds` entry's keys, `melds`' keys)
        names += _leaf_paths(sub, f"{name}.")
        if "properties" in sub.get("items", {}):
            names += _leaf_paths(sub["items"], f"{name}[].")
    return names


def test_reference_has_a_section_for_every_key() -> None:
    page = reference_markdown()
    headings = re.findall(r"^#{2,3} `([^`]+)`$", page, re.M)
    assert headings == _leaf_paths(rules_schema())
    for name in headings:
        section = page.split(f"`{name}`\n", 1)[1].split("\n#", 1)[0]
        assert "- **Type:**" in section and "- **Default:**" in section, name
        assert "```yaml" in section, name


def test_every_example_in_the_reference_is_a_valid_change() -> None:
    """Each example, written into a file over a whole ruleset, passes the schema."""
    base_path = bundled_rulesets_dir() / "three_thirteen.yaml"
    base, errors = compose_located(base_path.read_text(encoding="utf-8"), str(base_path))
    assert not errors and "extends" not in base.data
    blocks = re.findall(r"```yaml\n(.*?)```", reference_markdown(), re.S)
    assert len(blocks) >= len(_leaf_paths(rules_schema()))
    for block in blocks:
        example, errors = compose_located(block, "example")
        assert not errors, block
        assert schema_errors(merge_docs(base, example)) == [], block


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ({"type": "integer", "minimum": 2, "maximum": 16}, "whole number, 2 to 16"),
        ({"type": ["integer", "null"], "minimum": 1}, "whole number or null, at least 1"),
        ({"type": "string", "enum": ["a", "b"]}, "one of `a`, `b`"),
        ({"type": "array", "items": {"type": "object"}}, "list of mappings"),
        ({"type": ["integer", "null"], "exclusiveMinimum": 0}, "whole number or null, more than 0"),
    ],
)
def test_type_text(schema: dict, words: str) -> None:
    assert type_text(schema) == words


def test_example_value_changes_the_default() -> None:
    assert example_value({"type": "boolean", "default": False}) is True
    assert example_value({"type": "string", "enum": ["x", "y"], "default": "x"}) == "y"
    assert example_value({"type": "integer", "default": 3}) == 4
    assert example_value({"type": "integer", "default": 3, "examples": [9]}) == 9
