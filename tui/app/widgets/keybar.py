"""The footer of the table: the keys that matter right now, unavailable ones dimmed.

Textual's own footer lists every binding; at a card table only a few keys make sense at
each moment, so this bar shows those, in the order of a turn.  It is always one line: when
the hints do not fit, the least needed go first (`Hint.rank`; `?` lists every key anyway).
Each hint is clickable.

The bar's lines are shared by every screen of the process showing the same keys
(`SharedLines`): a move changes the bars of the player who moved and of the next one,
and the sets of keys a turn offers recur at every table, so nearly every bar a move
needs has been drawn before.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events

from ..messages import KeyHintClicked
from .shared_lines import SharedLines


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


class KeyBar(SharedLines):
    COMPONENT_CLASSES = {"keybar--key", "keybar--key-off", "keybar--label",
                         "keybar--label-off"}
    DEFAULT_CSS = """
    KeyBar { height: 1; dock: bottom; background: $panel; }
    KeyBar > .keybar--key { background: $warning; color: auto 90%; text-style: bold; }
    KeyBar > .keybar--key-off { background: $panel-lighten-1; color: $text-muted; }
    KeyBar > .keybar--label { color: $foreground; }
    KeyBar > .keybar--label-off { color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hints: tuple[Hint, ...] = ()

    def show(self, hints: Sequence[Hint]) -> None:
        hints = tuple(hints)
        if hints != self.hints:
            self.hints = hints
            self.refresh()

    def shared_key(self) -> Hashable:
        """The same keys look the same on every screen (the component styles, the theme
        and the width are the shared lines' key too)."""
        return self.hints

    def _shown(self) -> tuple[Hint, ...]:
        return fitting(self.hints, max(self.size.width, 10))

    @property
    def _spots(self) -> list[tuple[int, int, int, str]]:
        """Where each hint shown is: (y, x0, x1, action).  Worked out from the hints,
        not kept from the last render: a screen may show lines another screen drew."""
        spots = []
        x = 0
        for hint in self._shown():
            spots.append((0, x, x + hint.width - 1, hint.action))
            x += hint.width
        return spots

    def render(self) -> Text:
        line = Text()
        style = self.get_component_rich_style
        key_on, key_off = style("keybar--key"), style("keybar--key-off")
        label_on, label_off = style("keybar--label"), style("keybar--label-off")
        for hint in self._shown():
            line.append(f" {hint.key} ", key_on if hint.enabled else key_off)
            line.append(hint.label + " ", label_on if hint.enabled else label_off)
        return line

    def on_click(self, event: events.Click) -> None:
        for y, x0, x1, action in self._spots:
            if event.y == y and x0 <= event.x < x1:
                event.stop()
                self.post_message(KeyHintClicked(action))
                return
