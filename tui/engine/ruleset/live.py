"""Check a ruleset while it is being written, and save it only when it is good.

The in-app editor calls `check_text` on every pause in typing: it loads the text exactly as
the file would load (``extends`` resolved from the file's folder and the player's rulesets
folder) without writing anything, and gives every located mistake or, when there is none,
the rules told in plain English.  `save_checked` writes the text only if it checks, and
atomically, so the last good file is what a game or another editor finds, never a half
written or broken one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...atomic import write_atomic
from ..rules import Ruleset
from .errors import LocatedError, RulesetError
from .loader import load_ruleset_text
from .text import describe_rules


@dataclass(frozen=True)
class LiveCheck:
    """The outcome of checking one text: mistakes, or the ruleset and its rules text."""

    file: str
    errors: tuple[LocatedError, ...] = ()
    ruleset: Ruleset | None = None
    rules_text: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors

    def errors_here(self) -> list[LocatedError]:
        """Mistakes in the edited text itself (with a line: the editor can mark them)."""
        return [e for e in self.errors if e.file == self.file and e.line > 0]

    def lines_with_errors(self) -> set[int]:
        """1-based line numbers of the edited text that hold a mistake."""
        return {e.line for e in self.errors_here()}


def check_text(
    text: str, path: Path, user_dir: Path | None = None, confine: bool = False
) -> LiveCheck:
    """Check `text` as the content of `path` (which need not exist); writes nothing.

    `confine`: ``extends`` may only reach into `user_dir` (see `ruleset_loader`)."""
    file = str(path)
    try:
        ruleset = load_ruleset_text(
            text, file=file, key=path.stem, base_dir=path.parent, user_dir=user_dir,
            confine=confine,
        )
    except RulesetError as exc:
        return LiveCheck(file, tuple(exc.errors))
    return LiveCheck(file, (), ruleset, describe_rules(ruleset))


def save_checked(
    path: Path, text: str, user_dir: Path | None = None, confine: bool = False
) -> LiveCheck:
    """Write `text` to `path` if it checks; otherwise leave the file as it was.

    The write goes to a temporary file in the same folder that then replaces `path`, so
    readers see the old file or the new one, whole.  Raises OSError if it cannot be written.
    """
    result = check_text(text, path, user_dir, confine)
    if not result.ok:
        return result
    write_atomic(path, text)
    return result
