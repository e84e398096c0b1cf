"""The page the rules text is written on: paragraphs and items filled to the width being
written, section titles, and the small phrasings every section uses ("3 decks", "2–4").

The width is a context variable set by `at_width` for one `describe_rules` call, not a
parameter of every helper, and safe for many apps on one event loop.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

WIDTH = 78
MIN_WIDTH = 30
_width: ContextVar[int] = ContextVar("rules_text_width", default=WIDTH)


@contextmanager
def at_width(width: int) -> Iterator[None]:
    """Fill the text written inside to `width` columns (at least `MIN_WIDTH`)."""
    token = _width.set(max(width, MIN_WIDTH))
    try:
        yield
    finally:
        _width.reset(token)


def counted(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def para(text: str, indent: str = "  ") -> str:
    return textwrap.fill(
        " ".join(text.split()), _width.get(), initial_indent=indent, subsequent_indent=indent
    )


def item(mark: str, text: str, indent: str = "  ") -> str:
    """A bullet or numbered item with its continuation lines hanging under the text."""
    first = f"{indent}{mark} "
    return textwrap.fill(
        " ".join(text.split()),
        _width.get(),
        initial_indent=first,
        subsequent_indent=" " * len(first),
    )


def section(title: str, lines: list[str]) -> str:
    return "\n".join([title, "-" * len(title), *lines])


def span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"
