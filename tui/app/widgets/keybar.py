"""The footer of the table: the keys that matter right now, unavailable ones dimmed.

Textual's own footer lists every binding; at a card table only a few keys make sense at
each moment, so this bar shows those, in the order of a turn.  It is always one line: when
the hints do not fit, the least needed go first (`Hint.rank`; `?` lists every key anyway).
Each hint is clickable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.widget import Widget

from ..messages import KeyHintClicked

KEY_ON = Style(color="#000000", bgcolor="#f1c40f", bold=True)
KEY_OFF = Style(color="#7f8490", bgcolor="#2c313a")
LABEL_ON = Style(color="#e6e6e6")
LABEL_OFF = Style(color="#6b717d")


@dataclass(frozen=True)
class Hint:
    key: str  # as shown
    label: str
    action: str  # the screen action it runs
    enabled: bool = True
    rank: int = 0  # 0: a move of the turn, kept first; higher: dropped sooner for room

    @property
    def width(self) -> int:
        return len(self.key) + 2 + len(self.label) + 1


def fitting(hints: Sequence[Hint], width: int) -> tuple[Hint, ...]:
    """The hints that fit one line of `width` cells, keeping the lowest ranks (and, among
    equal ranks, the earlier hints), in their original order."""
    order = sorted(range(len(hints)), key=lambda i: (hints[i].rank, i))
    kept: set[int] = set()
    used = 0
    for i in order:
        if used + hints[i].width <= width:
            kept.add(i)
            used += hints[i].width
    return tuple(h for i, h in enumerate(hints) if i in kept)


class KeyBar(Widget):
    DEFAULT_CSS = """
    KeyBar { height: 1; dock: bottom; background: $panel; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hints: tuple[Hint, ...] = ()
        self._spots: list[tuple[int, int, int, str]] = []  # y, x0, x1, action

    def show(self, hints: Sequence[Hint]) -> None:
        hints = tuple(hints)
        if hints != self.hints:
            self.hints = hints
            self.refresh()

    def render(self) -> Text:
        self._spots = []
        line = Text()
        x = 0
        for hint in fitting(self.hints, max(self.size.width, 10)):
            line.append(f" {hint.key} ", KEY_ON if hint.enabled else KEY_OFF)
            line.append(hint.label + " ", LABEL_ON if hint.enabled else LABEL_OFF)
            self._spots.append((0, x, x + hint.width - 1, hint.action))
            x += hint.width
        return line

    def on_click(self, event: events.Click) -> None:
        for y, x0, x1, action in self._spots:
            if event.y == y and x0 <= event.x < x1:
                event.stop()
                self.post_message(KeyHintClicked(action))
                return
