"""Text from a file or a person, made safe to print on a terminal.

A ruleset's name, a record's player names, a file path: anything that came from outside
may hold an escape sequence that would clear the screen, retitle the window or worse the
moment it reaches a terminal.  `printable` shows every control character as a visible
escape instead (``ESC`` becomes the four characters ``\\x1b``); the text stays readable and
nothing in it can drive the terminal (`masked` puts one mark in each one's place instead,
for text edited where it is shown).  `SafeOutput` does this to everything a command
writes, and replaces characters the terminal's encoding cannot show (``PYTHONIOENCODING=
ascii``) instead of failing on them.
"""

from __future__ import annotations

import contextlib
import functools
import io
import sys
import unicodedata
from collections.abc import Iterator
from typing import TextIO

# Controls (C0, DEL, C1), invisible formatting (bidi overrides, zero-width joiners),
# lone surrogates, and the line/paragraph separators some terminals treat as newlines.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def printable(text: str, keep: str = "") -> str:
    """`text` with every unsafe character written as a visible escape; characters in
    `keep` (e.g. ``"\\n"`` for text that runs over several lines) are left as they are."""
    if text.isprintable() or (keep and text.translate(_dropped(keep)).isprintable()):
        return text  # (the common case, a line of plain text and its newline, stays in C)
    return "".join(ch if ch in keep or _safe(ch) else _escaped(ch) for ch in text)


def masked(text: str, mark: str = "\ufffd", keep: str = "\t") -> str:
    """`text` with every unsafe character replaced by `mark`, one for one: for text that
    is edited where it is shown (the rules editor), whose columns must not move."""
    if text.isprintable():
        return text
    return "".join(ch if ch in keep or _safe(ch) else mark for ch in text)


@functools.cache
def _dropped(chars: str) -> dict[int, None]:
    """A `str.translate` table deleting `chars`."""
    return dict.fromkeys(map(ord, chars))


def _safe(ch: str) -> bool:
    return ch.isprintable() or unicodedata.category(ch) not in _UNSAFE_CATEGORIES


def _escaped(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


class SafeOutput(io.TextIOBase):
    """A text stream that writes to `stream` only what is safe to show: unsafe characters
    escaped (newlines and tabs kept), unencodable ones replaced with ``?``."""

    def __init__(self, stream: TextIO, keep: str = "\n\t") -> None:
        super().__init__()
        self.stream = stream
        self.keep = keep

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        safe = printable(text, self.keep)
        encoding = self.encoding
        try:
            safe.encode(encoding)
        except UnicodeEncodeError:
            safe = safe.encode(encoding, errors="replace").decode(encoding)
        except LookupError:  # an encoding Python does not know: ASCII is always shown
            safe = safe.encode("ascii", errors="replace").decode("ascii")
        self.stream.write(safe)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True


@contextlib.contextmanager
def safe_standard_streams() -> Iterator[None]:
    """Within the block, `print` to stdout or stderr cannot drive the terminal or fail on
    an unencodable character (the streams are put back afterwards)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = SafeOutput(out)
    sys.stderr = SafeOutput(err)
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        sys.stdout, sys.stderr = out, err
