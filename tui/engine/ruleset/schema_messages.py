"""Schema errors told in the player's words: where (`rounds[3].contract.runs`), what was
wanted and what was found, a close key name for a typo, and an example of the right form.

jsonschema's own messages speak of instances and validators; a player editing a file
needs the key's place in the file and what to write there instead.
"""

from __future__ import annotations

import difflib
from typing import Any

import yaml
from jsonschema.exceptions import ValidationError

from .errors import LocatedError
from .marked_yaml import KeyPath, LocatedDoc


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


_BOUNDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than"}


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


def error_messages(error: ValidationError, doc: LocatedDoc,
                   file_keys: dict[str, Any]) -> list[LocatedError]:
    """One schema error told in the player's words, located; `file_keys`: the schema of
    the file's own keys (a missing one is reported by a rule with no keys of its own)."""
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
            {} if path else file_keys)  # the file's keys: required in `else`
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
    if kind in _BOUNDS:
        return [at.error(f"{where} must be {_BOUNDS[kind]} {error.validator_value}, "
                         f"not {instance}")]
    if kind == "minItems":
        return [at.error(f"{where} needs at least {error.validator_value} entry")]
    if kind == "maxItems":
        return [at.error(f"{where} has more than {error.validator_value} entries")]
    if kind == "minLength":
        return [at.error(f"{where} must not be empty")]
    return [at.error(f"{where}: {error.message}")]
