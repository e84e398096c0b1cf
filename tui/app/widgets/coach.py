"""The coach of a guided game: what this step teaches and the key that goes on.

It only shows what it is given (a title, the step's count and the text, with the cards
already written in the player's card style); the lesson decides what to say."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ..colours import app_colours


class CoachPanel(Static):
    """A bordered panel above the key bar; the border names the step."""

    DEFAULT_CSS = """
    CoachPanel {
        height: auto;
        max-height: 7;
        border: round $accent;
        border-title-color: $accent;
        border-subtitle-color: $text-muted;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._said = Text()

    def show(self, title: str, place: str, text: str, done: bool = False) -> None:
        """`place` is where the lesson is ("step 2 of 4"); `done` says it is over."""
        self.border_title = title
        self.border_subtitle = f"{place} · q leaves"
        self._said = Text(text, Style(bold=done))
        self.update(self._said)

    def nudge(self, text: str) -> None:
        """A move the step does not take: said under the step's text (in place of a notice
        over the table) until the step changes."""
        line = Text("\n✗ " + text, Style(color=app_colours(self.app).bad, bold=True))
        self.update(Text.assemble(self._said, line))
