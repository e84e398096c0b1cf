"""Textual's footer, without the keys it used to show kept alive for the screen's lifetime.

Textual's `Footer` rebuilds its keys whenever the screen's bindings change (every time a
screen above it closes, every focus move).  Each `FooterKey` binds `compact` to the
footer's, which files a watcher on the *footer*; Textual drops watchers of removed widgets
only when the watched value changes, and `compact` never does (Textual 8.2, issue #6666).
So a long-lived screen (the lobby, the main menu) kept every key it had ever shown, each
with its styles and rendered lines: about 2,000 objects for each screen a player opened
and closed over it, for as long as the session lasted.

After each rebuild this footer "mutates" `compact` (the public way to re-run its watchers),
which is when Textual sweeps out the watchers of removed keys.  Every screen uses this
footer instead of Textual's (ruff's banned-api rule keeps it so).
"""

from __future__ import annotations

from textual.widgets import Footer as TextualFooter  # noqa: TID251 (the one subclass)


class Footer(TextualFooter):
    async def recompose(self) -> None:
        await super().recompose()
        self.mutate_reactive(TextualFooter.compact)
