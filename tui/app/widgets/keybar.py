"""The footer of the table: the keys that matter right now, unavailable ones dimmed.

Textual's own footer lists every binding; at a card table only a few keys make sense at
each moment, so this bar shows those, in the order of a turn.  Each hint is clickable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
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


class KeyBar(Widget):
    DEFAULT_CSS = """
    KeyBar { height: auto; dock: bottom; background: $panel; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hints: tuple[Hint, ...] = ()
        self._spots: list[tuple[int, int, int, str]] = []  # y, x0, x1, action

    def show(self, hints: Sequence[Hint]) -> None:
        hints = tuple(hints)
        if hints != self.hints:
            self.hints = hints
            self.refresh(layout=True)

    def _layout(self, width: int) -> list[list[tuple[Hint, int]]]:
        rows: list[list[tuple[Hint, int]]] = [[]]
        x = 0
        for hint in self.hints:
            size = len(hint.key) + 2 + len(hint.label) + 1
            if x and x + size > width:
                rows.append([])
                x = 0
            rows[-1].append((hint, x))
            x += size
        return rows

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self._layout(max(width, 10))))

    def render(self) -> Text:
        rows = self._layout(max(self.size.width, 10))
        self._spots = []
        lines = []
        for y, row in enumerate(rows):
            line = Text()
            for hint, x in row:
                line.append(f" {hint.key} ", KEY_ON if hint.enabled else KEY_OFF)
                line.append(hint.label + " ", LABEL_ON if hint.enabled else LABEL_OFF)
                self._spots.append((y, x, x + len(hint.key) + 2 + len(hint.label), hint.action))
            lines.append(line)
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        for y, x0, x1, action in self._spots:
            if event.y == y and x0 <= event.x < x1:
                event.stop()
                self.post_message(KeyHintClicked(action))
                return
