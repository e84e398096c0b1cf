"""What a player's terminal can show, read from what the terminal says about itself.

Over SSH the client's terminal type (from its PTY request) and the locale variables it
sends are all the server knows; locally the same variables come from the environment.
One reading serves both, so `rummy` in a C locale and `ssh -t` from a Linux console get
the same table: plain ASCII where UTF-8 is not spoken, 16 colours where the terminal
type promises no more, and a one-line explanation instead of escape codes where no full
screen can be drawn at all.

`to_ascii` is the last line of the plain table: whatever a widget (ours or Textual's)
still draws outside ASCII is written as an ASCII character of the same width, so the
layout holds and the terminal never receives a byte it would print as garbage.
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from rich.cells import cell_len
from rich.color import ColorSystem
from textual.driver import Driver

# Terminal types that draw no Unicode whatever the locale says: the DEC terminals and
# what emulates them, PC consoles (the Linux console's font lacks most of what the table
# draws), plain ANSI.
# (screen and tmux inside one say so: `screen.linux`).
_ASCII_TERMS = re.compile(r"(?:screen\.|tmux\.)?(?:vt\d|linux|ansi|cons\d|pcansi|at386|scoansi"
                          r"|wy\d|adm\d|sun)")
# Terminal types that cannot take a full screen: no cursor addressing, or no terminal.
_NO_SCREEN_TERMS = frozenset({"", "dumb", "unknown", "emacs", "network", "lpr", "glasstty",
                              "printer", "tty33", "tty43"})
# Terminal types whose terminals draw 24-bit colour even when COLORTERM is not forwarded
# (OpenSSH forwards no COLORTERM by default).
_TRUECOLOR_TERMS = frozenset(
    {"xterm-kitty", "xterm-ghostty", "wezterm", "alacritty", "foot", "contour", "iterm2"}
)


@dataclass(frozen=True)
class TerminalCaps:
    """What one terminal can show."""

    term: str = "xterm-256color"
    unicode: bool = True
    """It shows UTF-8 (box drawing, suit symbols); False: ASCII only."""
    colors: str = "256"
    """"standard" (16 colours), "256" or "truecolor"."""
    full_screen: bool = True
    """It can take a full-screen app; False: it gets `refusal` and nothing else."""

    @property
    def refusal(self) -> str:
        """The one line a terminal that cannot show the table is told instead."""
        shown = self.term or "not set"
        return f"rummy-tui needs a full-screen terminal (TERM={shown} cannot show the table)."


def color_system_for(term_type: str | None, env: Mapping[str, str] | None = None) -> str:
    """Return "truecolor", "256" or "standard" for a terminal.

    COLORTERM=truecolor/24bit or a *-truecolor / *-direct / *-24bit terminal type means
    24-bit colour; a *256color* type means the xterm 256-colour palette; anything else
    (xterm, vt100, vt220, screen, linux, missing) gets the 16 standard colours, which
    every colour terminal understands.
    """
    env = env or {}
    term = (term_type or "").strip().lower()
    colorterm = env.get("COLORTERM", "").strip().lower()
    if colorterm in ("truecolor", "24bit"):
        return "truecolor"
    if term in _TRUECOLOR_TERMS or term.endswith(("-truecolor", "-direct", "-24bit")):
        return "truecolor"
    if "256color" in term or "256colour" in term:
        return "256"
    return "standard"


_RICH_SYSTEMS = {
    "truecolor": ColorSystem.TRUECOLOR,
    "256": ColorSystem.EIGHT_BIT,
    "standard": ColorSystem.STANDARD,
}


def rich_color_system(name: str) -> ColorSystem:
    """The Rich enumeration for a name returned by `color_system_for`."""
    return _RICH_SYSTEMS[name]


def speaks_utf8(term_type: str | None, env: Mapping[str, str]) -> bool:
    """Whether the terminal shows UTF-8: never for the ASCII terminal types; else as the
    locale says (LC_ALL, then LC_CTYPE, then LANG: the first one set), and yes when no
    locale was sent (a modern terminal that does not say is a UTF-8 one)."""
    term = (term_type or "").strip().lower()
    if _ASCII_TERMS.match(term):
        return False
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name, "").strip()
        if value:
            codeset = value.partition(".")[2].partition("@")[0].lower().replace("-", "")
            return codeset == "utf8"
    return True


def terminal_caps(term_type: str | None, env: Mapping[str, str] | None = None) -> TerminalCaps:
    """What the terminal of type `term_type`, with the environment `env` (what an SSH
    client sent, or the local environment), can show."""
    env = env or {}
    term = (term_type or "").strip()
    return TerminalCaps(
        term=term,
        unicode=speaks_utf8(term, env),
        colors=color_system_for(term, env),
        full_screen=term.lower() not in _NO_SCREEN_TERMS,
    )


def local_terminal(environ: Mapping[str, str] | None = None) -> TerminalCaps | None:
    """The terminal `rummy` runs in, from the environment; None when TERM is not set
    (Windows consoles, some IDEs: they say nothing, and Textual's own detection serves
    them)."""
    environ = os.environ if environ is None else environ
    term = environ.get("TERM")
    if not term or os.name == "nt":
        return None
    return terminal_caps(term, environ)


# ---------------------------------------------------------------------------- ASCII

_SHAPES = {
    "▲": "^", "△": "^", "▴": "^", "↑": "^", "⇧": "^", "▼": "v", "▽": "v", "▾": "v", "↓": "v",
    "◀": "<", "◁": "<", "◂": "<", "←": "<", "«": "<", "‹": "<", "≤": "<",
    "▶": ">", "▷": ">", "▸": ">", "→": ">", "»": ">", "›": ">", "❯": ">", "≥": ">",
    "●": "o", "○": "o", "◯": "o", "⭘": "o", "◉": "o", "•": "*", "◦": "o", "·": "-",
    "■": "#", "□": "#", "◆": "*", "◇": "*", "★": "*", "☆": "*", "✱": "*",
    "—": "-", "–": "-", "‒": "-", "―": "-", "−": "-", "…": ".", "⋯": ".",
    "‘": "'", "’": "'", "‚": ",", "“": '"', "”": '"', "„": '"', "×": "x", "÷": "/",
    "✓": "v", "✔": "v", "✗": "x", "✘": "x", "✕": "x", "✖": "x", "⏎": "<", "␣": "_",
    "♠": "S", "♣": "C", "♥": "H", "♦": "D", "♤": "S", "♧": "C", "♡": "H", "♢": "D",
    "Σ": "E", "°": "o", "\u00a0": " ", "░": "#", "▒": "#", "▓": "#", "█": "#",
}


def _box(name: str) -> str:
    """Box drawing (U+2500-U+257F) by what the glyph draws."""
    if "DIAGONAL" in name:
        return "\\" if "UPPER LEFT TO LOWER RIGHT" in name else "/"
    horizontal = "HORIZONTAL" in name or " LEFT" in name or " RIGHT" in name
    vertical = "VERTICAL" in name or " UP" in name or " DOWN" in name
    if horizontal and vertical or "ARC" in name:
        return "+"
    if horizontal:
        return "=" if "DOUBLE" in name else "-"
    return "|"


def _block(name: str) -> str:
    """Block elements (U+2580-U+259F): halves and eighths (scroll bars, tall borders)
    are drawn by their colour alone, so a space of the same colour keeps them."""
    if "LEFT" in name or "RIGHT" in name:
        return "|" if "QUADRANT" not in name else " "
    return " "


def _ascii_of(char: str) -> str:
    """`char` as the ASCII a plain terminal is sent: a character of the same width."""
    width = cell_len(char)
    if width != 1:
        return "?" * width
    if char in _SHAPES:
        return _SHAPES[char]
    code = ord(char)
    name = unicodedata.name(char, "")
    if 0x2500 <= code <= 0x257F:
        return _box(name)
    if 0x2580 <= code <= 0x259F:
        return _block(name)
    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if c.isascii()
                    and c.isprintable())
    return plain[0] if plain else "?"


class _AsciiTable(dict[int, str]):
    """`str.translate`'s table, filled in as characters are met."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        value = char if code < 128 else _ascii_of(char)
        self[code] = value
        return value


_TABLE = _AsciiTable()


def to_ascii(text: str) -> str:
    """`text` with every character outside ASCII written as ASCII of the same width
    (`╭─╮` as `+-+`, `7♥` as `7H`, `é` as `e`, a wide character as `??`)."""
    if text.isascii():
        return text
    return text.translate(_TABLE)


@functools.cache
def plain_driver(base: type[Driver]) -> type[Driver]:
    """`base` (a Textual driver class), writing ASCII only while its app's
    `plain_output` says so: the local terminal's counterpart of an SSH session's
    `RemoteTerminal.plain`."""

    class PlainDriver(base):  # type: ignore[valid-type,misc]
        def write(self, data: str) -> None:
            if getattr(self._app, "plain_output", False):
                data = to_ascii(data)
            super().write(data)

    return PlainDriver
