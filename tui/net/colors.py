"""Pick a session's colour depth from what its SSH client told us.

Every session shares one process, so the server's own TERM says nothing about a
player's terminal: the PTY request's terminal type (and COLORTERM, when the client
forwards it) is all we have.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.color import ColorSystem

# Terminal types whose terminals draw 24-bit colour even when COLORTERM is not forwarded
# (OpenSSH forwards no COLORTERM by default).
_TRUECOLOR_TERMS = frozenset(
    {"xterm-kitty", "xterm-ghostty", "wezterm", "alacritty", "foot", "contour", "iterm2"}
)


def color_system_for(term_type: str | None, env: Mapping[str, str] | None = None) -> str:
    """Return "truecolor", "256" or "standard" for a client terminal.

    COLORTERM=truecolor/24bit or a *-truecolor / *-direct / *-24bit terminal type means
    24-bit colour; a *256color* type means the xterm 256-colour palette; anything else
    (xterm, vt100, screen, linux, missing) gets the 16 standard colours, which every
    terminal understands.
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
