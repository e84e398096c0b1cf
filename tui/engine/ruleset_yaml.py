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

from .ruleset_errors import LocatedError

KeyPath = tuple[str | int, ...]

# libyaml when present: about ten times faster, with the same positions.
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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
            doc.data = _walk(loader, node, (), doc, errors)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "cannot be read"
        if exc.context and exc.problem:
            started = exc.context_mark
            where = f" started at line {started.line + 1}" if started and started != mark else ""
            problem += f" ({exc.context.removeprefix('while ')}{where})"
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        errors.append(LocatedError(file, line, column, f"YAML syntax error: {problem}"))
    except yaml.YAMLError as exc:
        errors.append(LocatedError(file, 0, 0, f"YAML error: {exc}"))
    finally:
        loader.dispose()
    return doc, errors


def _loc(doc: LocatedDoc, node: yaml.Node) -> Loc:
    return Loc(doc.file, node.start_mark.line + 1, node.start_mark.column + 1)


def _walk(
    loader: Any,
    node: yaml.Node,
    path: KeyPath,
    doc: LocatedDoc,
    errors: list[LocatedError],
) -> Any:
    doc.values[path] = _loc(doc, node)
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # `<<: *anchor` merge keys
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
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
            result[key] = _walk(loader, value_node, (*path, key), doc, errors)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _walk(loader, item, (*path, index), doc, errors)
            for index, item in enumerate(node.value)
        ]
    return loader.construct_object(node, deep=True)


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
