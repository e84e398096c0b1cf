"""Player names as they may appear on anyone's screen.

A name comes from a stranger (an SSH user name, a key's comment, a settings file) and is
drawn on other players' terminals, so it is cleaned once, where it enters: printable
characters only (no escape sequence can reach a terminal), whitespace collapsed, at most
`MAX_NAME` characters.  Rendering it as plain text (never markup) is the screens' half.
"""

from __future__ import annotations

from tui.service.chat import clean_text

MAX_NAME = 24


def clean_name(raw: str, fallback: str = "player") -> str:
    """`raw` made safe to show: printable, one line, at most `MAX_NAME` characters;
    `fallback` if nothing is left."""
    return clean_text(raw, MAX_NAME) or fallback
