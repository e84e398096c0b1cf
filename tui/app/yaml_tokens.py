"""Colour classes for the lines of a YAML file, for the in-app ruleset editor.

Textual highlights code through tree-sitter, which is an optional extra and often missing
on the server a player reaches over SSH.  Ruleset files use a small part of YAML (block
mappings, flow lists and mappings, scalars, comments, folded descriptions), so a few
regular expressions colour them well, everywhere, with no extra dependency.  Pure
functions, no Textual: `line_spans` gives (start, end, kind) spans per line.
"""

from __future__ import annotations

import re

Span = tuple[int, int, str]  # start column, end column (exclusive), kind

KINDS = ("key", "comment", "string", "number", "constant", "punctuation", "anchor")

_KEY = re.compile(
    r"""(?P<lead>\s*(?:-\s+)*)(?P<key>"[^"]*"|'[^']*'|[^\s#'"{}\[\],:&*!|>%@`-][^#:]*?"""
    r"""|-[^\s#:][^#:]*?)\s*(?P<colon>:)(?=\s|$)"""
)
_DASHES = re.compile(r"\s*((?:-\s+)+)")
_NUMBER = re.compile(r"[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$")
_CONSTANTS = {"true", "false", "null", "~", "yes", "no", "on", "off", "True", "False", "Null",
              "TRUE", "FALSE", "NULL"}
_BLOCK = re.compile(r"[|>][-+0-9]*\s*(?:#.*)?$")
_FLOW_KEY = re.compile(r"""([^\s#'"{}\[\],:]+|"[^"]*"|'[^']*')\s*:(?=[\s,}\]]|$)""")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _scalar_kind(word: str) -> str:
    if word in _CONSTANTS:
        return "constant"
    if _NUMBER.match(word):
        return "number"
    if word[:1] in "&*!":
        return "anchor"
    return "string"


def _value_spans(line: str, start: int) -> list[Span]:
    """Spans of a value (plain, quoted or flow) from column `start` to the end of `line`."""
    spans: list[Span] = []
    i = start
    n = len(line)
    depth = 0
    while i < n:
        ch = line[i]
        if ch in " \t":
            i += 1
            continue
        if ch == "#" and (i == 0 or line[i - 1] in " \t"):
            spans.append((i, n, "comment"))
            break
        if depth > 0:
            key = _FLOW_KEY.match(line, i)
            if key:
                spans.append((key.start(1), key.end(1), "key"))
                colon = line.index(":", key.end(1))
                spans.append((colon, colon + 1, "punctuation"))
                i = colon + 1
                continue
        if ch in "\"'":
            end = line.find(ch, i + 1)
            while ch == "'" and end != -1 and end + 1 < n and line[end + 1] == "'":
                end = line.find(ch, end + 2)  # '' is a quote inside a single-quoted string
            end = n if end == -1 else end + 1
            spans.append((i, end, "string"))
            i = end
            continue
        if ch in "{}[],":
            depth += 1 if ch in "{[" else -1 if ch in "}]" else 0
            spans.append((i, i + 1, "punctuation"))
            i += 1
            continue
        stop = i
        stops = " \t,{}[]" if depth > 0 else ""
        while stop < n and line[stop] not in stops and not (
            line[stop] == "#" and stop > 0 and line[stop - 1] in " \t"
        ):
            stop += 1
        word = line[i:stop].rstrip()
        if word:
            spans.append((i, i + len(word), _scalar_kind(word)))
        i = max(stop, i + 1)
    return spans


def _dash_spans(line: str) -> tuple[list[Span], int]:
    """The `- ` list markers at the start of a line, and the column after them."""
    dashes = _DASHES.match(line)
    if not dashes or not dashes.group(1):
        return [], 0
    first = dashes.start(1)
    marks = [(first + k, first + k + 1, "punctuation")
             for k, ch in enumerate(dashes.group(1)) if ch == "-"]
    return marks, dashes.end(1)


def line_spans(lines: list[str]) -> list[list[Span]]:
    """Colour spans for every line of a YAML document, in order."""
    out: list[list[Span]] = []
    block_parent: int | None = None  # indent of the key owning a `>`/`|` block, while in it
    for line in lines:
        stripped = line.strip()
        if block_parent is not None:
            if not stripped or _indent(line) > block_parent:
                out.append([(_indent(line), len(line.rstrip()), "string")] if stripped else [])
                continue
            block_parent = None
        if not stripped:
            out.append([])
            continue
        if stripped.startswith("#"):
            out.append([(_indent(line), len(line), "comment")])
            continue
        if stripped in ("---", "..."):
            out.append([(_indent(line), len(line.rstrip()), "punctuation")])
            continue
        spans, after_dashes = _dash_spans(line)
        key = _KEY.match(line)
        if key is None:
            out.append(sorted(spans + _value_spans(line, after_dashes)))
            continue
        spans.append((key.start("key"), key.end("key"), "key"))
        spans.append((key.start("colon"), key.end("colon"), "punctuation"))
        rest = key.end("colon")
        value = line[rest:].strip()
        if _BLOCK.match(value):
            block_parent = _indent(line)
            at = line.index(value[0], rest)
            spans.append((at, at + 1, "punctuation"))
            if "#" in value:
                spans.append((line.index("#", rest), len(line), "comment"))
        else:
            spans += _value_spans(line, rest)
        out.append(sorted(spans))
    return out
