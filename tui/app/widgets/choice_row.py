"""`Label   ◀ value ▶`: a dialog's field whose value is one of a short list, stepped
through in place (the create-table dialog is filled in with the arrow keys alone)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static

from ..colours import app_colours

LABEL_WIDTH = 13


class ChoiceRow(Static, can_focus=True):
    """←/→ (or a click on either half) changes the value."""

    BINDINGS = [Binding("left", "step(-1)", "Previous", show=False),
                Binding("right", "step(1)", "Next", show=False)]

    class Changed(Message):
        def __init__(self, row: ChoiceRow) -> None:
            super().__init__()
            self.row = row

        @property
        def control(self) -> ChoiceRow:
            return self.row

    def __init__(self, label: str, choices: Sequence[tuple[str, Any]], index: int = 0,
                 *, id: str | None = None) -> None:
        super().__init__(id=id, classes="choice-row")
        self.label = label
        self.choices = list(choices)
        self.index = index

    @property
    def value(self) -> Any:
        return self.choices[self.index][1]

    def set_choices(self, choices: Sequence[tuple[str, Any]], value: Any) -> None:
        self.choices = list(choices)
        values = [v for _, v in self.choices]
        self.index = values.index(value) if value in values else 0
        self._show()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        text = Text(self.label.ljust(LABEL_WIDTH), Style(bold=True))
        highlight = Style(color=app_colours(self.app).highlight)
        text.append("◀ ", highlight)
        text.append(self.choices[self.index][0] if self.choices else "—")
        text.append(" ▶", highlight)
        self.update(text)

    def action_step(self, delta: int) -> None:
        if not self.choices:
            return
        self.index = (self.index + delta) % len(self.choices)
        self._show()
        self.post_message(self.Changed(self))

    def on_click(self, event: events.Click) -> None:
        self.action_step(-1 if event.x < LABEL_WIDTH + 2 else 1)
