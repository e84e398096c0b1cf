"""Textual's footer, made to fit one line, and without the keys it used to show kept alive
for the screen's lifetime.

Fitting: Textual's footer lays its keys out in one row and cuts whatever passes the right
edge (at 80 columns the records screen lost its way back, the lobby its "How to play").
This footer always draws its keys in Textual's compact style (one space less each; turning
it on only when short of room changed a reactive's value at run time, and that kept the
screen just left alive: test_table_off_loop); when they still do not fit, it leaves out
keys from the right, never the way out of the screen (a key bound to Esc or `q`).  What
is left out still works, and the command palette (Ctrl+P, which stays shown) lists it.

Keys kept alive: Textual's `Footer` rebuilds its keys whenever the screen's bindings
change (every time a screen above it closes, every focus move).  Each `FooterKey` binds
`compact` to the footer's, which files a watcher on the *footer*; Textual drops watchers
of removed widgets only when the watched value changes, and `compact` never does (Textual
8.2, issue #6666).  So a long-lived screen (the lobby, the main menu) kept every key it had
ever shown, each with its styles and rendered lines: about 2,000 objects for each screen a
player opened and closed over it, for as long as the session lasted.  After each rebuild
this footer "mutates" `compact` (the public way to re-run its watchers), which is when
Textual sweeps out the watchers of removed keys.  Every screen uses this footer instead of
Textual's (ruff's banned-api rule keeps it so).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.widgets import Footer as TextualFooter  # noqa: TID251 (the one subclass)
from textual.widgets._footer import FooterKey

WAYS_OUT = frozenset({"escape", "q"})


def key_width(key: FooterKey) -> int:
    """The cells a key takes in the row (Textual's compact footer CSS: `k label` and a
    margin of one)."""
    return cell_len(key.key_display) + (cell_len(key.description) + 1 if key.description
                                        else 0) + 1


def palette_width(key: FooterKey) -> int:
    """The command palette's key, docked right: its bar, `^p palette` and a space."""
    return 1 + cell_len(key.key_display) + 1 + cell_len(key.description) + 1


def is_way_out(key: FooterKey) -> bool:
    return key.key in WAYS_OUT


class Footer(TextualFooter):
    def __init__(self) -> None:
        super().__init__(compact=True)

    async def recompose(self) -> None:
        await super().recompose()
        self._fit()
        self.mutate_reactive(TextualFooter.compact)

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        """Leave out keys from the right (never a way out) until the row fits the
        footer's width."""
        width = self.size.width or self.app.size.width
        keys = [k for k in self.query_children(FooterKey)
                if not k.has_class("-command-palette")]
        palettes = [k for k in self.query_children(FooterKey)
                    if k.has_class("-command-palette")]
        room = width - sum(palette_width(k) for k in palettes)
        shown = list(keys)
        used = sum(key_width(k) for k in shown)
        for key in reversed(keys):
            if used <= room:
                break
            if not is_way_out(key):
                shown.remove(key)
                used -= key_width(key)
        for key in keys:
            key.display = key in shown
        for key in palettes:
            key.display = used <= room
