"""The log of play in words.  The moves made since the player last acted are highlighted,
so after the bots have played you see at a glance what they did."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.style import Style
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from tui.engine.view import Event

from ..colours import Colours, app_colours, default_colours


class GameLog(VerticalScroll):
    """At the table the log never takes focus (`focusable=False`): the hand keeps Home,
    End and the arrows wherever the log has scrolled to; the mouse wheel still scrolls it.
    In a dialog of its own it may take focus and scroll by keys."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; }
    GameLog > Static { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None, limit: int = 200,
                 headers: bool = True, focusable: bool = True) -> None:
        super().__init__(id=id)
        self.can_focus = focusable
        self._body = Static()
        self._shown: tuple[Event, ...] = ()
        self._fresh_from = -1
        self._words: Callable[[str], str] | None = None
        self.limit = limit
        self.headers = headers

    def compose(self):  # noqa: ANN201 - textual compose
        yield self._body

    def show(self, events: Sequence[Event], me: int, fresh_from: int,
             words: Callable[[str], str] | None = None) -> None:
        """`fresh_from`: index of the first event to highlight; `words` writes the cards
        in a line as the table does (`cardart.card_words`)."""
        events = tuple(events)
        if events == self._shown and fresh_from == self._fresh_from and words is self._words:
            return
        self._shown = events
        self._fresh_from = fresh_from
        self._words = words
        self._body.update(log_text(events, me, fresh_from, self.limit, self.headers, words,
                                   app_colours(self.app)))
        self.call_after_refresh(self.scroll_end, animate=False)


def log_text(events: Sequence[Event], me: int, fresh_from: int, limit: int = 200,
             headers: bool = True, words: Callable[[str], str] | None = None,
             colours: Colours | None = None) -> Text:
    seats = (colours or default_colours()).seats
    faint = (colours or default_colours()).faint
    if words is None:
        def words(text: str) -> str:
            return text
    out = Text()
    start = max(0, len(events) - limit)
    last_deal = None
    for index in range(start, len(events)):
        event = events[index]
        if headers and event.deal != last_deal and event.deal:
            if out:
                out.append("\n")
            out.append(words(f"— deal {event.deal} —"), Style(dim=True))
            last_deal = event.deal
        if out:
            out.append("\n")
        colour = seats[event.seat % len(seats)] if event.seat >= 0 else faint
        fresh = index >= fresh_from and event.seat != me
        out.append(words("● " if fresh else "· "), Style(color=colour, bold=fresh))
        out.append(words(event.text), Style(bold=fresh, dim=not fresh and event.seat != me))
    return out


class LogTail(Widget):
    """The table's log: the latest lines that fit, newest at the bottom, in a box of
    fixed size.  A move redraws this box alone (no layout, no scrolling); the whole log,
    scrollable, is in the scores dialog (`c`)."""

    DEFAULT_CSS = """
    LogTail { height: 1fr; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None, headers: bool = True) -> None:
        super().__init__(id=id)
        self.headers = headers
        self._events: Sequence[Event] = ()
        self._me = -1
        self._fresh_from = 0
        self._words: Callable[[str], str] | None = None

    def show(self, events: Sequence[Event], me: int, fresh_from: int,
             words: Callable[[str], str] | None = None) -> None:
        self._events, self._me, self._fresh_from, self._words = events, me, fresh_from, words
        self.refresh()

    def render(self) -> Text:
        width, height = self.size.width, self.size.height
        if width <= 0 or height <= 0 or not self._events:
            return Text()
        # each event takes at least one line: the last `height` events are enough
        start = max(0, len(self._events) - height)
        tail = self._events[start:]
        text = log_text(tail, self._me, self._fresh_from - start, height, self.headers,
                        self._words)
        lines = text.wrap(self.app.console, width, overflow="fold")
        return Text("\n").join(list(lines)[-height:])
