"""Pick a session's colour depth from what its SSH client told us.

Every session shares one process, so the server's own TERM says nothing about a
player's terminal: the PTY request's terminal type (and COLORTERM, when the client
forwards it) is all we have.  The reading itself is `tui.app.terminal_caps`, the one
that local play uses too.
"""

from __future__ import annotations

from tui.app.terminal_caps import color_system_for, rich_color_system

__all__ = ["color_system_for", "rich_color_system"]
