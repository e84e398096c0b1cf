"""How a house ruleset differs from the game it extends, on one screen.

A house file holds only its changes, but a player reading it wants the game's rules that
changed, in words.  Both rulesets are loaded whole and compared key by key (every key, as
`ruleset_data` writes it), and the sections of the rules text (`describe_rules`) that read
differently are shown as the house ruleset has them.  Nothing here knows a game by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..rules import Ruleset
from .dump import ruleset_data
from .errors import RulesetError
from .loader import find_ruleset, load_ruleset
from .text import describe_rules
from .text_page import WIDTH

# Said by the title and description, not compared as rules.
_NOT_RULES = ("name", "description")


@dataclass(frozen=True)
class KeyChange:
    """One key whose value differs: `key` is its dotted path (`rounds.3.contract.runs`);
    a key only one side has is None on the other."""

    key: str
    was: Any
    now: Any


def _diff(was: Any, now: Any, key: str) -> list[KeyChange]:
    """The changes between two values of `key`: mappings key by key, lists of mappings
    item by item (an item only one side has is one change, shown whole)."""
    if isinstance(was, dict) and isinstance(now, dict):
        keys = list(now) + [k for k in was if k not in now]
        return [change for k in keys
                for change in _diff(was.get(k), now.get(k), f"{key}.{k}" if key else str(k))]
    if isinstance(was, list) and isinstance(now, list) and any(
            isinstance(item, dict | list) for item in [*was, *now]):
        out = []
        for index in range(max(len(was), len(now))):
            before = was[index] if index < len(was) else None
            after = now[index] if index < len(now) else None
            out += _diff(before, after, f"{key}.{index + 1}")
        return out
    return [] if was == now else [KeyChange(key, was, now)]


def changed_keys(parent: Ruleset, child: Ruleset) -> list[KeyChange]:
    """Every rule key whose value differs between `parent` and `child`, in the order the
    keys are written."""
    was, now = ruleset_data(parent), ruleset_data(child)
    for key in _NOT_RULES:
        was.pop(key, None)
        now.pop(key, None)
    return _diff(was, now, "")


def _sections(text: str) -> dict[str, str]:
    """The rules text's sections by title (a title line underlined with dashes)."""
    lines = text.splitlines()
    starts = [i for i in range(len(lines) - 1)
              if lines[i] and lines[i + 1] == "-" * len(lines[i])]
    return {lines[start]: "\n".join(lines[start:end]).rstrip()
            for start, end in zip(starts, [*starts[1:], len(lines)], strict=True)}


def _shown(value: Any) -> str:
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value) or "(none)"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_shown(v)}" for k, v in value.items()) or "(none)"
    return str(value)


def _change_lines(changes: list[KeyChange]) -> list[str]:
    """One line a change; a run of list items only one side has is one line, and so is
    one change made to the same key of list items in a row."""
    out: list[str] = []
    index = 0
    while index < len(changes):
        first = changes[index]
        end = _one_side_in_a_row(changes, index)
        if end - index > 2:
            head, _, number = first.key.rpartition(".")
            final = changes[end - 1].key.rpartition(".")[2]
            out.append(f"{head}.{number}–{final}: {end - index} "
                       f"{'removed' if first.now is None else 'added'}")
            index = end
            continue
        end = _same_in_a_row(changes, index)
        if end - index > 2:
            head, number, tail = first.key.split(".", 2)
            final = changes[end - 1].key.split(".")[1]
            out.append(f"{head}.{number}–{final}.{tail}: {_shown(first.was)} → "
                       f"{_shown(first.now)}")
            index = end
            continue
        out.append(f"{first.key}: {_shown(first.was)} → {_shown(first.now)}")
        index += 1
    return out


def _one_side_in_a_row(changes: list[KeyChange], index: int) -> int:
    """Where the run starting at `index` ends of whole list items only one side has
    (`decks.3`, `decks.4`, … added)."""
    head, _, number = changes[index].key.rpartition(".")
    gone, added = changes[index].now is None, changes[index].was is None
    end = index + 1
    if not number.isdigit() or not (gone or added):
        return end
    while end < len(changes):
        change = changes[end]
        next_head, _, next_number = change.key.rpartition(".")
        if (next_head != head or not next_number.isdigit()
                or (change.now is None) != gone or (change.was is None) != added):
            break
        end += 1
    return end


def _same_in_a_row(changes: list[KeyChange], index: int) -> int:
    """Where the run starting at `index` ends of one change made to one key of list
    items numbered one after another (`rounds.1.wild`, `rounds.2.wild`, …)."""
    def parts(change: KeyChange) -> tuple[str, int, str] | None:
        pieces = change.key.split(".", 2)
        if len(pieces) < 3 or not pieces[1].isdigit():
            return None
        return pieces[0], int(pieces[1]), pieces[2]

    first = parts(changes[index])
    end = index + 1
    if first is None:
        return end
    while end < len(changes):
        now = parts(changes[end])
        if (now is None or (now[0], now[2]) != (first[0], first[2])
                or now[1] != first[1] + (end - index)
                or (changes[end].was, changes[end].now)
                != (changes[index].was, changes[index].now)):
            break
        end += 1
    return end


def describe_differences(parent: Ruleset, child: Ruleset, width: int = WIDTH) -> str:
    """The changed keys, then each section of the rules that reads differently, as the
    house ruleset has it: what a player reads to learn the house rule."""
    title = f"How {child.name} differs from {parent.name}"
    parts = [f"{title}\n{'=' * len(title)}"]
    changes = changed_keys(parent, child)
    if not changes:
        parts.append(f"  No rule differs: this is {parent.name} under another name.")
        return "\n\n".join(parts) + "\n"
    lines = ["Keys changed", "-" * len("Keys changed")]
    lines += [f"  {line}" for line in _change_lines(changes)]
    parts.append("\n".join(lines))
    before = _sections(describe_rules(parent, width))
    after = _sections(describe_rules(child, width))
    for heading, text in after.items():
        if before.get(heading) != text:
            parts.append(text)
    for heading in before:
        if heading not in after:
            parts.append(f"{heading}\n{'-' * len(heading)}\n  (none in {child.name})")
    return "\n\n".join(parts) + "\n"


def extended_ruleset(name_or_path: str | Path, user_dir: Path | None = None,
                     confine: bool = False) -> Ruleset | None:
    """The ruleset the file of `name_or_path` names in `extends` (loaded whole), or None
    when it extends nothing.  Raises `RulesetError` as `load_ruleset` does (`confine` as
    there)."""
    path = find_ruleset(name_or_path, user_dir=user_dir)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None  # loading the file itself reports what is wrong with it
    target = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(target, str) or not target.strip():
        return None
    try:
        parent_path = find_ruleset(target.strip(), path.parent, user_dir)
    except RulesetError:
        return None
    return load_ruleset(parent_path, user_dir, confine)
