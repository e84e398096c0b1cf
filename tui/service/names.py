"""Player names as they may appear on anyone's screen.

A name comes from a stranger (an SSH user name, a key's comment, a settings file) and is
drawn on other players' terminals, so it is cleaned once, where it enters: printable
characters only (no escape sequence can reach a terminal), whitespace collapsed, at most
`MAX_NAME` characters.  Rendering it as plain text (never markup) is the screens' half.

Two names that look alike on a screen (Cyrillic "а" for Latin "a") are told apart by
their `skeleton`, the UTS #39 one, from the Unicode confusables the
`confusable-homoglyphs` package ships.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from tui.service.chat import clean_text

MAX_NAME = 24


def clean_name(raw: str, fallback: str = "player") -> str:
    """`raw` made safe to show: printable, one line, at most `MAX_NAME` characters;
    `fallback` if nothing is left."""
    return clean_text(raw, MAX_NAME) or fallback


_DIRECTION_MARKS = "\u200e\u200f"


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> the prototype Unicode draws it as.

    The package lists, for a prototype, every character confused with it, and for any
    other character its one prototype; a pair that are each other's only look-alike
    both map to the smaller of the two, which keeps "looks the same" intact."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    out = {}
    for char, alikes in data.items():
        if len(alikes) != 1:
            continue  # a prototype (what several characters are confused with)
        target = alikes[0]["c"].strip(_DIRECTION_MARKS)
        if len(target) != 1 or len(data.get(target, ())) > 1 or target < char:
            out[char] = target
    return out


def skeleton(name: str) -> str:
    """What `name` looks like (UTS #39 skeleton, case folded): two names with the same
    skeleton are confusable on screen."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", name)
    drawn = "".join(prototypes.get(char, char) for char in decomposed)
    return unicodedata.normalize("NFD", drawn).casefold()


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that looks like `name` without being it (the same name in
    another case is the same name, not a look-alike), or None."""
    folded, drawn = name.casefold(), skeleton(name)
    for other in others:
        if other.casefold() != folded and skeleton(other) == drawn:
            return other
    return None
