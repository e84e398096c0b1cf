"""Errors in a ruleset file, each pointing at the place to fix.

A player editing YAML needs every mistake at once, each with the file, line and column an
editor can jump to; so loading collects `LocatedError`s and raises one `RulesetError` that
holds them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...terminal_text import printable


@dataclass(frozen=True, order=True)
class LocatedError:
    """One mistake.  `line` and `column` count from 1; 0 means "the file as a whole"."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        """One line to show anywhere: a file name or a value quoted from the file cannot
        drive the terminal (control characters are written as visible escapes)."""
        if self.line <= 0:
            return printable(f"{self.file}: {self.message}")
        return printable(f"{self.file}:{self.line}:{self.column}: {self.message}")


class RulesetError(Exception):
    """A ruleset could not be loaded; `errors` lists every mistake found, in file order."""

    def __init__(self, errors: list[LocatedError]) -> None:
        self.errors: list[LocatedError] = sorted(set(errors), key=_order(errors))
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


def _order(errors: list[LocatedError]) -> Callable[[LocatedError], tuple[str, int, int, int]]:
    """Sort by file position, keeping the order found for errors on one spot."""
    first_seen = {error: index for index, error in reversed(list(enumerate(errors)))}
    return lambda error: (error.file, error.line, error.column, first_seen[error])
