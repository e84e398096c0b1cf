"""The lessons, read from their files: a guided deal per bundled game.

Lessons are data, kept in ``lessons/`` at the top of the repository beside ``rulesets/``
(installed: the package data of `tui.lessons`), one file a lesson, named after the ruleset
it plays; the keys are explained at the top of ``three_thirteen.yaml``.  A file that does
not read as a lesson is refused with `LessonError` naming it, never half-loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tui.engine.prepared import PreparedDeal
from tui.paths import bundled_folder

from .lesson import Expect, Lesson, Step


class LessonError(ValueError):
    """A lesson file that cannot be read, with the file named."""


def lessons_dir() -> Path:
    """The folder of lesson files (source checkout first, then installed data)."""
    return bundled_folder("lessons")


def lesson_keys() -> list[str]:
    """The rulesets that have a lesson, in name order."""
    folder = lessons_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def load_lesson(key: str) -> Lesson:
    """The lesson for the ruleset `key` (`LessonError` if there is none or it is damaged)."""
    if key not in lesson_keys():
        have = ", ".join(lesson_keys()) or "none"
        raise LessonError(f"there is no lesson for {key!r} (lessons: {have})")
    path = lessons_dir() / f"{key}.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        return _lesson(data)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, KeyError, TypeError,
            ValueError, AttributeError) as exc:
        raise LessonError(f"{path}: not a lesson ({type(exc).__name__}: {exc})") from exc


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return " ".join(value.split())


def _expect(value: Any) -> Expect:
    kind, *cards = _text(value).split()
    return Expect(kind, tuple(cards))


def _step(data: dict[str, Any]) -> Step:
    return Step(_text(data["title"]), _text(data["say"]), _expect(data["expect"]),
                _text(data["nudge"]), tuple(_text(o) for o in data.get("others", ())))


def _lesson(data: dict[str, Any]) -> Lesson:
    deal = data["deal"]
    turn, number = deal.get("turn"), deal.get("number")
    prepared = PreparedDeal(tuple(_text(h) for h in deal["hands"]),
                            _text(deal.get("discard", "")), _text(deal.get("stock_top", "")),
                            None if turn is None else int(turn),
                            None if number is None else int(number))
    steps = tuple(_step(s) for s in data["steps"])
    if not steps:
        raise ValueError("a lesson needs at least one step")
    return Lesson(_text(data["rules"]), _text(data["title"]),
                  tuple(_text(n) for n in data["players"]), prepared, steps,
                  _text(data["done"]))
