"""The JSON Schema of a ruleset file: assembled from its sections, and the validator that
checks a file against it.

The schema is the one description of every key: it validates files (Draft 2020-12, no
unknown keys anywhere, so a typo such as ``wild_rnak`` is caught), it feeds editors through
``# yaml-language-server: $schema=...``, and the reference documentation is generated from
its descriptions.  Defaults here equal the `tui.engine.rules` dataclass defaults (a test
holds them together).  Each section of the file is described in its own module
(`schema_setup`, `schema_rounds`, `schema_melds`, `schema_turn`, `schema_round_end`,
`schema_scoring`), in the order the file and the reference list them.
"""

from __future__ import annotations

import copy
from typing import Any

from jsonschema import Draft202012Validator, validators

from .errors import LocatedError
from .marked_yaml import KeyPath, LocatedDoc
from .schema_melds import melds_keys
from .schema_messages import error_messages
from .schema_round_end import round_end_keys
from .schema_rounds import rounds_keys
from .schema_scoring import scoring_keys
from .schema_setup import setup_keys
from .schema_turn import turn_keys

SCHEMA_ID = "https://rummy-tui.invalid/ruleset.schema.json"

WHOLE_RULESET_KEYS = ("name", "players", "decks", "rounds")


def _build_schema() -> dict[str, Any]:
    melds = melds_keys()
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
            **setup_keys(),
            **rounds_keys(melds["melds"]),
            **melds,
            **turn_keys(),
            **round_end_keys(),
            **scoring_keys(),
        },
    }


_SCHEMA = _build_schema()


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



def schema_errors(doc: LocatedDoc) -> list[LocatedError]:
    """Every schema violation of the (merged) document, located and worded for players."""
    errors: list[LocatedError] = []
    for error in _VALIDATOR.iter_errors(doc.data):
        errors.extend(error_messages(error, doc, _SCHEMA["properties"]))
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
