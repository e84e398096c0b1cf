"""The ruleset reference (docs/ruleset-reference.md), generated from the JSON Schema.

Every key of a ruleset file is described once, in `ruleset_schema`; this module turns that
description into a Markdown page (type, default, allowed values, meaning and an example for
each key), so the reference cannot drift from what the loader accepts.  A test compares the
committed page with `reference_markdown()`; `rummy rules reference` prints it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

from .schema import WHOLE_RULESET_KEYS, rules_schema

GENERATOR = "rummy rules reference"

_INTRO = f"""\
# Ruleset reference

<!-- Generated from the ruleset JSON Schema by `{GENERATOR}`.  Do not edit by hand:
     change the schema (tui/engine/ruleset/schema.py) and regenerate. -->

A ruleset is a YAML file holding the complete rules of one rummy game.  The engine knows
no game by name: Three Thirteen, Contract Rummy, Liverpool and every house rule are files
like these.

- **Where files live.** Bundled rulesets are in `rulesets/`.  Your own go in your rulesets
  folder (`rummy rules list` prints where); a file's key is its name without `.yaml`.
  Players on a shared `rummy serve` table each have a folder of their own.
- **Starting from another ruleset.** A file with `extends: KEY` states only what it
  changes.  Mappings merge key by key; lists (`rounds`, `decks`, `wild`) replace the
  inherited list whole.  `rummy rules new NAME --from KEY` writes such a file with every
  inherited key shown in comments, and the rules screen's *Make a house variant* does the
  same in the app.
- **Checking.** `rummy rules check FILE` lists every mistake with its line and column; the
  in-app editor checks as you type.  `rummy rules show FILE` prints the rules as text.
- **Editors.** `rummy rules schema` prints the JSON Schema this page is made from.  Files
  made by `rummy rules new` start with `# yaml-language-server: $schema=./ruleset.schema.json`,
  so editors with a YAML language server complete keys and flag mistakes as you type.
- **Ranks** are written 2-10, A, J, Q, K (T for 10 is accepted); numbers need no quotes.
- A file without `extends` must give {", ".join(f"`{k}`" for k in WHOLE_RULESET_KEYS)};
  every other key may be left out and takes the default shown here.

See [the cookbook](cookbook.md) for whole house rules built from these keys.
"""

_TYPE_WORDS = {
    "integer": "whole number",
    "string": "text",
    "boolean": "true or false",
    "object": "mapping",
    "array": "list",
    "null": "null",
}


def _flow(value: Any) -> str:
    text: str = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10**6)
    return text.strip().removesuffix("...").strip()


def _types(schema: dict[str, Any]) -> list[str]:
    kinds = schema.get("type", [])
    return [kinds] if isinstance(kinds, str) else list(kinds)


def type_text(schema: dict[str, Any]) -> str:
    """The kind of value a key takes, in words (`whole number, 1 to 16`, `one of ...`)."""
    if "enum" in schema:
        values = ", ".join(f"`{_flow(v)}`" for v in schema["enum"])
        return f"one of {values}"
    words = []
    for kind in _types(schema):
        word = _TYPE_WORDS.get(kind, kind)
        if kind == "array" and "items" in schema:
            inner = schema["items"]
            item = "mapping" if _types(inner) == ["object"] else type_text(inner)
            word = f"list of {item}" + ("s" if item == "mapping" else " values")
        words.append(word)
    text = " or ".join(words)
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        text += f", {low} to {high}"
    elif low is not None:
        text += f", at least {low}"
    elif high is not None:
        text += f", at most {high}"
    if "exclusiveMinimum" in schema:
        text += f", more than {schema['exclusiveMinimum']}"
    if schema.get("minItems"):
        text += f", at least {schema['minItems']} entry"
    if schema.get("minLength"):
        text += ", not empty"
    return text


def example_value(schema: dict[str, Any]) -> Any:
    """A value worth showing: the schema's own example, else one that changes the default."""
    if schema.get("examples"):
        return schema["examples"][0]
    default = schema.get("default")
    if "enum" in schema:
        return next((v for v in schema["enum"] if v != default and v is not None), default)
    kinds = _types(schema)
    if "boolean" in kinds:
        return not default
    if "integer" in kinds:
        base = default if isinstance(default, int) else schema.get("minimum", 1)
        return base + 1
    if "object" in kinds and "properties" in schema:
        return _written_out(schema)
    return default


def _written_out(schema: dict[str, Any]) -> dict[str, Any]:
    """A mapping with every key at its default (an example where there is none)."""
    out: dict[str, Any] = {}
    for key, sub in schema["properties"].items():
        if "default" in sub:
            out[key] = sub["default"]
        else:
            out[key] = _written_out(sub) if "properties" in sub else example_value(sub)
    return out


class _Entry:
    """One key: its dotted name, its schema, and how to place an example of it in a file."""

    def __init__(self, name: str, schema: dict[str, Any], place: list[tuple[str, bool]],
                 required: bool, contexts: list[dict[str, Any]] | None = None) -> None:
        self.name = name
        self.schema = schema
        self.place = place  # (key, is a list of mappings) from the top of the file down
        self.required = required
        self.contexts = contexts or []  # per list entry on the way: keys shown beside it


def _entries(schema: dict[str, Any], place: list[tuple[str, bool]], prefix: str,
             required_here: set[str],
             in_item: list[dict[str, Any]] | None = None) -> Iterator[_Entry]:
    """Every key under `schema`, depth first.  `in_item` is set inside a list entry: per
    list on the way, the keys shown beside each example there.  A key of a list entry
    without a default must be given by the entry itself, so it counts as required."""
    for key, sub in schema.get("properties", {}).items():
        name = f"{prefix}{key}"
        here = [*place, (key, False)]
        if in_item is None:
            yield _Entry(name, sub, here, key in required_here)
        else:
            yield _Entry(name, sub, here, "default" not in sub, in_item)
        if key == "round_defaults" or name == "rounds[].melds":
            continue  # the same keys as a `rounds` entry / as `melds`: described there
        if "properties" in sub and key != "values":
            yield from _entries(sub, here, f"{name}.", set(sub.get("required", [])), in_item)
        items = sub.get("items", {})
        if "properties" in items:
            props = items["properties"]
            shown = items.get("required") or list(props)[:1]
            context = {k: example_value(props[k]) for k in props if k in shown}
            yield from _entries(items, [*place, (key, True)], f"{name}[].", set(),
                                [*(in_item or []), context])


def _value_at(place: list[tuple[str, bool]], contexts: list[dict[str, Any]],
              value: Any) -> dict[str, Any]:
    """`value` placed under the keys of `place`, a list entry (with its context keys)
    where a key holds a list of mappings."""
    key, is_list = place[0]
    if len(place) == 1:
        return {key: value}
    if is_list:
        item = dict(contexts[0])
        item.update(_value_at(place[1:], contexts[1:], value))
        return {key: [item]}
    return {key: _value_at(place[1:], contexts, value)}


def _example_yaml(entry: _Entry) -> str:
    """The entry's example value placed where it goes in a file."""
    value = example_value(entry.schema)
    lines: list[str] = []
    indent = ""
    for depth, (key, is_list) in enumerate(entry.place):
        if is_list:
            item = dict(entry.contexts[0])  # keeps the schema's order of keys
            item.update(_value_at(entry.place[depth + 1 :], entry.contexts[1:], value))
            lines.append(f"{indent}{key}:")
            lines.append(f"{indent}  - {_flow(item)}")
            break
        if depth < len(entry.place) - 1:
            lines.append(f"{indent}{key}:")
            indent += "  "
        elif isinstance(value, dict) and value:
            lines.append(f"{indent}{key}:")
            lines += [f"{indent}  {k}: {_flow(v)}" for k, v in value.items()]
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"{indent}{key}:")
            lines += [f"{indent}  - {_flow(item)}" for item in value]
        else:
            lines.append(f"{indent}{key}: {_flow(value)}")
    return "\n".join(lines)


def _anchor(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum() or ch in "-_")


def _default_text(entry: _Entry) -> str:
    schema = entry.schema
    if entry.required:
        if "." not in entry.name:
            return "none: required in a file without `extends`"
        return "none: required" + (
            " (or given in `round_defaults`)" if entry.name.startswith("rounds[]") else ""
        )
    if "default" not in schema:
        if "properties" in schema:
            return "each key at its own default"
        return "none"
    default = schema["default"]
    if isinstance(default, dict) and default and "properties" in schema:
        return "each key at its own default"
    return f"`{_flow(default)}`"


def _entry_markdown(entry: _Entry, level: str) -> list[str]:
    schema = entry.schema
    lines = [f"{level} `{entry.name}`", ""]
    lines.append(schema.get("description", "").strip())
    lines.append("")
    lines.append(f"- **Type:** {type_text(schema)}")
    lines.append(f"- **Default:** {_default_text(entry)}")
    if entry.name == "round_defaults":
        lines.append("- **Keys:** any key of a `rounds` entry (see the `rounds[]` keys below)")
    if entry.name == "rounds[].melds":
        lines.append("- **Keys:** any key of `melds` (see the `melds` keys below), for this "
                     "round; a key left out is the game's")
    if entry.name == "scoring.values":
        props = schema.get("properties", {})
        lines.append(f"- **Keys:** {', '.join(f'`{k}`' for k in props)} (each a whole number)")
    written_out = "properties" in schema and "default" in schema and not schema.get("examples")
    lines += ["", "Written out with its defaults:" if written_out else "Example:"]
    lines += ["", "```yaml", _example_yaml(entry), "```", ""]
    return lines


def reference_markdown() -> str:
    """The whole reference page as Markdown."""
    schema = rules_schema()
    required_top = set(WHOLE_RULESET_KEYS)
    entries = list(_entries(schema, [], "", required_top))
    tops = [e for e in entries if "." not in e.name and "[]" not in e.name]
    lines = [_INTRO, "## Contents", ""]
    for top in tops:
        summary = top.schema.get("description", "").split(". ")[0].rstrip(".")
        lines.append(f"- [`{top.name}`](#{_anchor(top.name)}): {summary}.")
    lines.append("")
    for top in tops:
        lines += _entry_markdown(top, "##")
        for entry in entries:
            if entry is not top and entry.name.split(".")[0].split("[")[0] == top.name:
                lines += _entry_markdown(entry, "###")
    return "\n".join(lines).rstrip() + "\n"
