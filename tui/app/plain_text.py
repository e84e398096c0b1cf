"""Text from a file or a person as the app shows it: plain `rich.text.Text`, never markup,
with every control character written as a visible escape.

A ruleset's file name, like its contents, is its author's: on a shared server it may hold
an escape sequence that would clear a player's screen or retitle the window.  The escaping
is `tui.terminal_text.printable`, the one the commands use; this only makes it a `Text`.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from tui.terminal_text import printable


def plain_text(text: str, style: str | Style = "") -> Text:
    """`text` as plain `Text` in `style`, its control characters escaped."""
    return Text(printable(text), style)
