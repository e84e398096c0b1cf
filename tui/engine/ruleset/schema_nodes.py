"""The few shapes most ruleset keys take in the schema (a mapping of keys, a whole number,
a flag, a choice of words, a rank or null), so that each section of the schema states
only what differs: a key's description, bounds and default.

A mapping allows no keys beyond its own (a typo is an error, not a silent default), and a
choice's description lists what every value means, which is what the generated reference
shows for it.
"""

from __future__ import annotations

from typing import Any

RANK_DESCRIPTION = (
    "A rank: a number 2-10, or A, J, Q, K (T is accepted for 10). "
    "Numbers may be written with or without quotes."
)


def obj_node(description: str, properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "additionalProperties": False,
        **extra,
    }


def int_node(description: str, minimum: int | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "description": description, **extra}
    if minimum is not None:
        schema["minimum"] = minimum
    return schema


def count_or_null(description: str, example: int) -> dict[str, Any]:
    """A most-cards bound: a whole number from 1, or null for no limit (the default)."""
    return {"type": ["integer", "null"], "minimum": 1, "description": description,
            "default": None, "examples": [example]}


def bool_node(description: str, default: bool) -> dict[str, Any]:
    return {"type": "boolean", "description": description, "default": default}


def enum_node(description: str, values: dict[str, str], default: str | None) -> dict[str, Any]:
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


def rank_or_null(description: str) -> dict[str, Any]:
    return {
        "type": ["integer", "string", "null"],
        "description": f"{description} {RANK_DESCRIPTION}",
        "default": None,
        "examples": [3],
    }
