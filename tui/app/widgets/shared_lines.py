"""Lines that look the same on several screens are laid out once per process.

Over SSH one worker draws every screen at a table, and most of what a move changes looks
the same on all of them: an opponent's pane on the three other players' screens, the round
bar and the prompt on every screen but the mover's.  Textual lays each widget's text out
again on every screen (wrapping it, splitting it into styled pieces).  A widget here names
what it shows, by value (`shared_key`); the lines are kept for the process under that name
together with everything else the layout depends on (the widget's kind, id and classes,
its screen's classes, its size, its style, the theme), so a second screen with the same
widget showing the same thing takes the first one's lines.  Strips never change once
made, so screens can share them; what each screen does with them (its borders, padding,
colour filters, the compositor) stays its own.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rich.text import Text
from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

MAX_KEPT = 512
"""Widgets' lines kept for the process: a move at a table adds about a dozen, and the
other screens take theirs within the same moment, so a few hundred serve dozens of tables
moving at once; about 1.6 KiB each (strips, segments, text), under 1 MiB in all."""

_kept: LRUCache[Hashable, list[Strip]] = LRUCache(MAX_KEPT)


def text_key(text: Text) -> Hashable:
    """A rich `Text` by value (it is mutable, so not hashable itself)."""
    return (text.plain, text.style, tuple(text.spans), text.justify, text.overflow,
            text.no_wrap, text.end, text.tab_size)


ORDER_PSEUDO_CLASSES = frozenset({"first-child", "last-child", "first-of-type",
                                  "last-of-type", "odd", "even", "empty"})
"""Pseudo-classes a widget has from its place among its siblings: an opponent's pane is
first on one screen at the table and last on another, and looks the same on both unless
a rule styles it by its place."""


def styling_pseudo_classes(widget: Widget) -> frozenset[str]:
    """The widget's pseudo-classes that may style it: its place among its siblings only
    where a rule for it uses one (Textual notes that when it applies the stylesheet)."""
    pseudo = widget.pseudo_classes
    if widget._has_order_style or widget._has_odd_or_even:
        return pseudo
    return pseudo - ORDER_PSEUDO_CLASSES


class SharedLines(Widget):
    """A widget whose lines are shared by every screen of the process that shows the same
    thing (see the module's docstring): its laid-out text and, when its whole box is
    drawn, its lines as styled for the screen (borders, padding, background, colour
    filters), keyed also by everything the styling reads."""

    def shared_key(self) -> Hashable | None:
        """What the widget shows, by value; None: not shared (drawn as Textual does)."""
        return None

    def render_lines(self, crop: Region) -> list[Strip]:
        shown = self.shared_key()
        size = self.size
        # (the whole box, border and padding too, as the compositor asks for it)
        outer = self.outer_size
        if shown is None or self.text_selection is not None or crop != outer.region:
            return super().render_lines(crop)
        app = self.app
        key = ("styled", type(self), self.id, frozenset(self.classes), styling_pseudo_classes(self),
               frozenset(self.screen.classes), size, outer, self.background_colors, app.theme,
               id(app.ansi_theme), tuple((type(f), f.enabled) for f in app._filters),
               self._border_title, self._border_subtitle, shown)
        lines = _kept.get(key)
        if lines is None:
            lines = _kept[key] = super().render_lines(crop)
        return lines

    def _render_content(self) -> None:
        shown = self.shared_key()
        if shown is None or self.text_selection is not None:
            super()._render_content()
            return
        key = (type(self), self.id, frozenset(self.classes), frozenset(self.screen.classes),
               self.size, self.visual_style, self.app.theme, shown)
        lines = _kept.get(key)
        if lines is None:
            super()._render_content()
            _kept[key] = self._render_cache.lines
        else:
            self._render_cache = self._render_cache._replace(size=self.size, lines=lines)
            self._dirty_regions.clear()


class SharedStatic(SharedLines, Static):
    """A `Static` showing a `Text` or a plain string, laid out once per process."""

    def shared_key(self) -> Hashable | None:
        content: Any = self.content
        if isinstance(content, Text):
            return text_key(content)
        if isinstance(content, str):
            return (content, self._render_markup)
        return None

