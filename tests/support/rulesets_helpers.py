"""Helpers shared by the ruleset tests: write YAML into a folder, collect located errors."""

from __future__ import annotations

import textwrap
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tui.engine.ruleset.errors import LocatedError, RulesetError
from tui.engine.ruleset.loader import load_ruleset

MINIMAL = """\
name: Test game
players: {min: 2, max: 4}
decks:
  - {players: 2, decks: 1}
rounds:
  - {cards: 7}
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def errors_of(path: Path) -> list[LocatedError]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    return caught.value.errors


def position(path: Path, line_text: str, token: str) -> tuple[int, int]:
    """1-based line and column of `token` on the first line containing `line_text`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line_text in line:
            return number, line.index(token, line.index(line_text)) + 1
    raise AssertionError(f"{line_text!r} not in {path}")


def only_error(path: Path, *words: str) -> LocatedError:
    """The single error whose message contains every word (failing if none or several)."""
    errors = errors_of(path)
    matching = [e for e in errors if all(w in e.message for w in words)]
    assert len(matching) == 1, f"wanted one error with {words}, got: {errors}"
    return matching[0]


def at(error: LocatedError) -> tuple[int, int]:
    return error.line, error.column


@dataclass
class RuleReads:
    """The threads that listed the rulesets and loaded one (see `watch_rule_reads`)."""

    listed: list[int] = field(default_factory=list)
    loaded: list[int] = field(default_factory=list)

    @property
    def every(self) -> list[int]:
        return self.listed + self.loaded


def watch_rule_reads(monkeypatch: pytest.MonkeyPatch) -> RuleReads:
    """Record the thread of every listing and loading of rulesets through the package's
    public face (what the screens call), still doing the real work."""
    import tui.engine.ruleset as ruleset

    reads = RuleReads()
    real_list, real_load = ruleset.list_rulesets, ruleset.load_ruleset

    def listed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        reads.listed.append(threading.get_ident())
        return real_list(*args, **kwargs)

    def loaded(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        reads.loaded.append(threading.get_ident())
        return real_load(*args, **kwargs)

    monkeypatch.setattr(ruleset, "list_rulesets", listed)
    monkeypatch.setattr(ruleset, "load_ruleset", loaded)
    return reads
