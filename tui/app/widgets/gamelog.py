"""The log of play in words.  The moves made since the player last acted are highlighted,
so after the bots have played you see at a glance what they did."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.selection import Selection
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Static

from tui.engine.view import Event

from ..cardart import CardWords
from ..colours import Colours, app_colours, default_colours
from .shared_lines import styling_pseudo_classes

Line = TypeVar("Line")


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


def said(events: Sequence[Event], index: int) -> str:
    """The words of event `index`, telling apart two cards of one face (two decks): a
    card discarded in the turn its seat took or played a card like it is "the other 10♠"
    (else "took 10♠ … discarded 10♠" reads like a broken rule)."""
    event = events[index]
    if event.kind != "discard" or len(event.cards) != 1:
        return event.text
    card = event.cards[0]
    for earlier in reversed(events[max(0, index - TURN_LOOKBACK):index]):
        if earlier.seat != event.seat:
            break  # the turn began here
        if any(c.face == card.face and c.uid != card.uid for c in earlier.cards):
            return event.text.replace(f"discarded {card}", f"discarded the other {card}", 1)
    return event.text


TURN_LOOKBACK = 20  # log lines of one turn looked through (a turn is a few lines)

_EVENTS: LRUCache[Hashable, list[Strip]] = LRUCache(1024)
"""An event's lines, for every log in the process that shows it alike (`LogTail`): a
move adds one or two looks of one event a table, taken by the other screens at once."""

_STYLED: LRUCache[Hashable, Strip] = LRUCache(4096)
"""A log's line as styled for the screen at its row: a move shifts every line of a
table's logs up a row, about two looks of each line a table, so a few thousand serve
dozens of tables moving at once (under 1 KiB each)."""


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
        out.append(words(said(events, index)),
                   Style(bold=fresh, dim=not fresh and event.seat != me))
    return out


def whole_tail(blocks: Sequence[list[Line]], height: int) -> list[Line]:
    """The newest blocks (a wrapped event, a deal's heading) that fit `height` lines, each
    whole: the top line is never the end of an entry cut off above it.  Only a newest
    block taller than the box is cut, to its first lines."""
    lines: list[Line] = []
    for block in reversed(blocks):
        if len(lines) + len(block) > height:
            return lines if lines else block[:height]
        lines = block + lines
    return lines


class LogTail(Widget):
    """The table's log: the latest lines that fit, newest at the bottom, in a box of
    fixed size.  A move redraws this box alone (no layout, no scrolling); the whole log,
    scrollable, is in the scores dialog (`c`).

    Each line is drawn once: the strips of every event in sight are kept (with whether it
    was fresh), so a move draws its own line and moves the others up, instead of writing
    and wrapping the whole tail again.  The lines are those `log_text` writes, in the
    colours of the app's theme: the kept lines are for one theme, and a change of theme
    draws them again (Textual refreshes every widget when the theme changes).

    Over SSH one worker draws every screen at a table, and an event looks the same on
    most of them (fresh on the screens of those who have not moved since, dimmed on the
    others, plain on its own player's): an event's lines, and each line as styled for
    the screen at its row, are kept for the process under everything they show
    (`_EVENTS`, `_STYLED`), so the other screens take them as they are.  Only where the
    cards are written by value (`CardWords`, or not at all): another way of writing them
    keeps its lines to itself."""

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
        # index: its lines, each with what it shows (`_shared`)
        self._drawn: dict[int, tuple[Event, bool, list[tuple[Hashable | None, Strip]]]] = {}
        self._heads: dict[int, list[tuple[Hashable | None, Strip]]] = {}  # deal: header
        self._drawn_for: tuple[object, ...] = ()  # what the kept lines were drawn with
        self._tail: tuple[tuple[object, ...], list[Strip]] | None = None
        self._tail_keys: list[Hashable | None] = []  # what each line of the tail shows

    def show(self, events: Sequence[Event], me: int, fresh_from: int,
             words: Callable[[str], str] | None = None) -> None:
        self._events, self._me, self._fresh_from, self._words = events, me, fresh_from, words
        self._tail = None
        self.refresh()

    def selection_updated(self, selection: Selection | None) -> None:
        self._tail = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        lines = self._tail_lines()
        if y < len(lines):
            return lines[y] if self.text_selection is not None else lines[y].apply_offsets(0, y)
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Each line as styled for the screen, taken from another screen that showed the
        same line at the same row where one has (see the class's docstring)."""
        lines = self._tail_lines()
        if self.text_selection is not None:
            return super().render_lines(crop)
        keys = self._tail_keys
        width = self.size.width
        app = self.app
        base = (self.id, frozenset(self.classes), styling_pseudo_classes(self),
                frozenset(self.screen.classes), self.size, self.background_colors,
                app.theme, id(app.ansi_theme), tuple((type(f), f.enabled) for f in app._filters))
        strips = []
        for y in crop.line_range:
            shows = keys[y] if y < len(lines) else ()
            if shows is None:
                strip = super().render_lines(Region(0, y, width, 1))[0]
            else:
                key = (base, y, shows)
                kept = _STYLED.get(key)
                if kept is None:
                    kept = _STYLED[key] = super().render_lines(Region(0, y, width, 1))[0]
                strip = kept
            strips.append(strip)
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def render(self) -> Text:
        """The lines in sight as one text (what a mouse selection copies); the screen
        is drawn from the kept lines (`render_line`)."""
        width, height = self.size.width, self.size.height
        if width <= 0 or height <= 0 or not self._events:
            return Text()
        start = max(0, len(self._events) - height)
        text = log_text(self._events[start:], self._me, self._fresh_from - start, height,
                        self.headers, self._words, app_colours(self.app))
        lines = list(text.wrap(self.app.console, width, overflow="fold"))
        shown = len(self._whole_tail(app_colours(self.app)))  # whole entries, as drawn
        return Text("\n").join(lines[-shown:] if shown else [])

    def _tail_lines(self) -> list[Strip]:
        width, height = self.size.width, self.size.height
        style = self.visual_style
        selection = self.text_selection
        colours = app_colours(self.app)
        key = (width, height, style, selection, colours)
        if self._tail is not None and self._tail[0] == key:
            return self._tail[1]
        if selection is not None:  # drawn whole, the selection highlighted (rare)
            lines = Visual.to_strips(self, visualize(self, self.render()), width, height,
                                     style)
            self._tail = (key, lines)
            self._tail_keys = [None] * len(lines)
            return lines
        tail = self._whole_tail(colours)
        self._tail = (key, [strip for _, strip in tail])
        self._tail_keys = [shows for shows, _ in tail]
        return self._tail[1]

    def _whole_tail(self, colours: Colours) -> list[tuple[Hashable | None, Strip]]:
        """The newest entries that fit, each whole, from the kept lines; each line with
        what it shows (None: not to be shared)."""
        width, height = self.size.width, self.size.height
        drawn_for = (width, self.visual_style, colours, self._me, self._words, self.headers)
        if drawn_for != self._drawn_for:
            self._drawn_for = drawn_for
            self._drawn.clear()
            self._heads.clear()
        blocks: list[list[tuple[Hashable | None, Strip]]] = []  # a heading or an event
        if width > 0 and height > 0 and self._events:
            # each event takes at least one line: the last `height` events are enough
            events = self._events
            start = max(0, len(events) - height)
            last_deal = None
            for index in range(start, len(events)):
                event = events[index]
                if self.headers and event.deal != last_deal and event.deal:
                    blocks.append(self._head(event.deal))
                    last_deal = event.deal
                blocks.append(self._event_lines(index, event, colours))
            for index in [i for i in self._drawn if i < start or i >= len(events)]:
                del self._drawn[index]
        return whole_tail(blocks, height)

    def _head(self, deal: int) -> list[tuple[Hashable | None, Strip]]:
        if deal not in self._heads:
            words = self._words or str
            strips = self._strips(Text(words(f"— deal {deal} —"), Style(dim=True)))
            shows = self._shared(("deal", deal))
            self._heads[deal] = [(shows and (shows, i), strip)
                                 for i, strip in enumerate(strips)]
        return self._heads[deal]

    def _event_lines(self, index: int, event: Event,
                     colours: Colours) -> list[tuple[Hashable | None, Strip]]:
        fresh = index >= self._fresh_from and event.seat != self._me
        kept = self._drawn.get(index)
        if kept is not None and kept[1] == fresh and kept[0] == event:
            return kept[2]
        told = said(self._events, index)
        shows = self._shared((told, event.seat, event.seat == self._me, fresh, colours))
        strips = _EVENTS.get(shows) if shows is not None else None
        if strips is None:
            line = log_text([event._replace(text=told)], self._me, 0 if fresh else 1, 1,
                            False, self._words, colours)
            strips = self._strips(line)
            if shows is not None:
                _EVENTS[shows] = strips
        lines = [(shows and (shows, i), strip) for i, strip in enumerate(strips)]
        self._drawn[index] = (event, fresh, lines)
        return lines

    def _shared(self, shows: tuple[object, ...]) -> Hashable | None:
        """The key of lines another screen may show alike: what they show, the way the
        cards are written and this widget's width and style; None when the cards are
        written by a function that is not a value (its lines are this widget's alone)."""
        words = self._words
        if words is not None and not isinstance(words, CardWords):
            return None
        return (shows, words, self.size.width, self.visual_style)

    def _strips(self, line: Text) -> list[Strip]:
        """One line of text as this widget draws it: wrapped to its width, in its style."""
        width = self.size.width
        strips: list[Strip] = []
        for part in line.wrap(self.app.console, width, overflow="fold"):
            strips += Visual.to_strips(self, visualize(self, part), width, None,
                                       self.visual_style)
        return strips
