"""Read YAML while remembering where every key and value is written.

`yaml.safe_load` forgets positions, but an error message must say "line 12, column 5".  We
compose the node tree, build plain Python data from it ourselves, and keep a map from each
key path (``("rounds", 2, "wild")``) to the position of the key and of its value.  Files
joined by ``extends`` are merged together with their maps, so a merged value still points
at the file that wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from .errors import LocatedError

KeyPath = tuple[str | int, ...]

# libyaml when present: about ten times faster, with the same positions.
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# A ruleset has a few hundred values; aliases (`*name`) repeating an anchored value may
# not blow that up past this (a file of nested aliases could otherwise take minutes).
MAX_VALUES = 20_000
MAX_DEPTH = 40  # rulesets nest four or five levels; far deeper is a typo (or an attack)


class _TooBig(Exception):
    """The document expands to more values than `MAX_VALUES`, an alias holds itself, or a
    number is too long for Python to read."""

    def __init__(self, message: str, node: yaml.Node) -> None:
        super().__init__(message)
        self.message = message
        self.node = node


@dataclass(frozen=True)
class Loc:
    """A position in a file, line and column counted from 1."""

    file: str
    line: int
    column: int

    def error(self, message: str) -> LocatedError:
        return LocatedError(self.file, self.line, self.column, message)


@dataclass
class LocatedDoc:
    """Plain data (dicts, lists, scalars) plus where each part of it was written."""

    data: Any
    file: str
    values: dict[KeyPath, Loc] = field(default_factory=dict)
    keys: dict[KeyPath, Loc] = field(default_factory=dict)

    def start(self) -> Loc:
        return Loc(self.file, 1, 1)

    def value_loc(self, *paths: KeyPath) -> Loc:
        """Where the first of `paths` that was written has its value (else the file start)."""
        for path in paths:
            if path in self.values:
                return self.values[path]
        return self.start()

    def key_loc(self, *paths: KeyPath) -> Loc:
        """Where the first of `paths` that was written has its key (else its value)."""
        for path in paths:
            if path in self.keys:
                return self.keys[path]
            if path in self.values:
                return self.values[path]
        return self.start()


def compose_located(text: str, file: str) -> tuple[LocatedDoc, list[LocatedError]]:
    """Parse `text`; a syntax error comes back located, never raised."""
    loader = _Loader(text)
    doc = LocatedDoc(data=None, file=file)
    errors: list[LocatedError] = []
    try:
        node = loader.get_single_node()
        if node is not None:
            doc.data = _walk(loader, node, (), doc, errors, _Budget())
    except _TooBig as exc:
        errors.append(_loc(doc, exc.node).error(exc.message))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "cannot be read"
        started = exc.context_mark if exc.context and exc.problem else None
        since = (started.line + 1 if started is not None and started != mark
                 and mark is not None and started.line != mark.line else None)
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        errors.append(LocatedError(file, line, column,
                                   f"YAML syntax error: {plain_words(problem, since)}"))
    except yaml.YAMLError as exc:
        errors.append(LocatedError(file, 0, 0, f"YAML error: {exc}"))
    except RecursionError:  # the pure-Python parser (no libyaml) recurses per level
        message = f"lists and mappings nest more than {MAX_DEPTH} deep"
        errors.append(LocatedError(file, 0, 0, message))
    finally:
        loader.dispose()
    return doc, errors


# The parser's words for a syntax error -> the same in a player's words (the form to write)
_PLAIN = (
    ("did not find expected ',' or '}'",
     "a `{...}` mapping is not closed with `}`, or two of its entries have no comma "
     "between them (write `{min: 2, max: 4}`)"),
    ("did not find expected ',' or ']'",
     "a `[...]` list is not closed with `]`, or two of its entries have no comma between "
     "them (write `[2, A]`)"),
    ("mapping values are not allowed",
     "a second `:` on one line: one key per line (`name: x`, then the next key below it), "
     "and a text holding `: ` in quotes (`name: \"Rummy: our way\"`)"),
    ("found a tab character",
     "a tab: indent with spaces only"),
    ("found character '\\t'",
     "a tab: indent with spaces only"),
    ("found unexpected end of stream",
     "the file ends inside a quoted text: a quote is not closed"),
    ("did not find expected key",
     "this line is indented differently from the keys above it: the keys of one mapping "
     "start in the same column"),
    ("did not find expected '-' indicator",
     "this line is indented like a list entry but does not start with `- `"),
    ("could not find expected ':'",
     "a key without a `:` (write `key: value`)"),
    ("found undefined alias",
     "`*name` refers to no `&name` written above it"),
)


def plain_words(problem: str, since: int | None = None) -> str:
    """A syntax error of the YAML parser in a player's words (the parser's own, when no
    plainer ones are known), with the line the unfinished part started on."""
    text = next((plain for words, plain in _PLAIN if problem.startswith(words)), problem)
    unclosed = text.startswith(("a `{", "a `[", "the file ends"))
    return text + (f" (it started at line {since})" if since is not None and unclosed else "")


def _loc(doc: LocatedDoc, node: yaml.Node) -> Loc:
    return Loc(doc.file, node.start_mark.line + 1, node.start_mark.column + 1)


@dataclass
class _Budget:
    """Values walked so far, and the collections being walked (to catch `&a [*a]`)."""

    values: int = 0
    open: set[int] = field(default_factory=set)

    def enter(self, node: yaml.Node, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _TooBig(f"lists and mappings nest more than {MAX_DEPTH} deep here", node)
        self.values += 1
        if self.values > MAX_VALUES:
            raise _TooBig(
                f"the file holds more than {MAX_VALUES} values once aliases (*name) are "
                "expanded; write the values out instead",
                node,
            )
        if id(node) in self.open:
            raise _TooBig("an alias (*name) refers to the value that contains it", node)


def _walk(
    loader: Any,
    node: yaml.Node,
    path: KeyPath,
    doc: LocatedDoc,
    errors: list[LocatedError],
    budget: _Budget,
) -> Any:
    budget.enter(node, len(path))
    doc.values[path] = _loc(doc, node)
    if isinstance(node, yaml.MappingNode):
        budget.open.add(id(node))
        try:
            return _walk_mapping(loader, node, path, doc, errors, budget)
        finally:
            budget.open.discard(id(node))
    if isinstance(node, yaml.SequenceNode):
        budget.open.add(id(node))
        try:
            return [
                _walk(loader, item, (*path, index), doc, errors, budget)
                for index, item in enumerate(node.value)
            ]
        finally:
            budget.open.discard(id(node))
    return _scalar(loader, node)


def _scalar(loader: Any, node: yaml.Node) -> Any:
    """A scalar's value; an integer of more digits than Python converts (4,300: its
    `ValueError`) is a located error like any other."""
    try:
        return loader.construct_object(node, deep=True)
    except ValueError:
        digits = sum(ch.isdigit() for ch in str(node.value))
        raise _TooBig(f"a number of {digits:,} digits is far too long (a ruleset's numbers "
                      "have a few digits)", node) from None


def _walk_mapping(
    loader: Any,
    node: yaml.MappingNode,
    path: KeyPath,
    doc: LocatedDoc,
    errors: list[LocatedError],
    budget: _Budget,
) -> dict[str, Any]:
    loader.flatten_mapping(node)  # `<<: *anchor` merge keys
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            errors.append(_loc(doc, key_node).error("a key must be a name, not a list or mapping"))
            continue
        key = _scalar(loader, key_node)
        if isinstance(key, int) and not isinstance(key, bool):
            key = str(key)  # `2: 2` in a table of card values
        if not isinstance(key, str):
            errors.append(_loc(doc, key_node).error(f"a key must be a name, not {key!r}"))
            continue
        if key in result:
            first = doc.keys[(*path, key)]
            errors.append(
                _loc(doc, key_node).error(
                    f"duplicate key `{key}` (first written at line {first.line})"
                )
            )
            continue
        doc.keys[(*path, key)] = _loc(doc, key_node)
        result[key] = _walk(loader, value_node, (*path, key), doc, errors, budget)
    return result


def merge_docs(base: LocatedDoc, child: LocatedDoc) -> LocatedDoc:
    """`child` on top of `base`: mappings merge key by key, anything else is replaced.

    Positions follow the values: a key the child writes points into the child's file, one
    it inherits keeps pointing into the base file.
    """
    replaced = {
        path for path in child.values if path and not isinstance(_get(child.data, path), dict)
    }

    def kept(path: KeyPath) -> bool:
        return not any(path[:n] in replaced for n in range(1, len(path) + 1))

    merged = LocatedDoc(data=_deep_merge(base.data, child.data), file=child.file)
    merged.values = {p: loc for p, loc in base.values.items() if kept(p)} | child.values
    merged.keys = {p: loc for p, loc in base.keys.items() if kept(p)} | child.keys
    return merged


def _get(data: Any, path: KeyPath) -> Any:
    for part in path:
        data = data[part]
    return data


def _deep_merge(base: Any, child: Any) -> Any:
    if isinstance(base, dict) and isinstance(child, dict):
        result = dict(base)
        for key, value in child.items():
            result[key] = _deep_merge(base[key], value) if key in base else value
        return result
    return child


def deep_merge(base: Any, child: Any) -> Any:
    """The merge used for `extends` and `round_defaults`, on plain data."""
    return _deep_merge(base, child)


def get_key(data: Any, *keys: str, default: Any = None) -> Any:
    """The value at `keys` in a ruleset's data, or `default` where any level is missing or
    not a mapping: the checks read files that are not yet known to be well formed."""
    value = data
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return default
        value = value[key]
    return value
