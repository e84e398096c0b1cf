"""Widgets that draw card art: the hand, the stock and the discard pile.

Their pictures are `cardart` lines, runs of cells in a few styles.  Textual's general way
to draw a text (lay it out as content, wrap it, split it again into styled pieces) cost
most of a pile's or the hand's redraw; these widgets make their strips straight from the
runs instead, each style worked out once a redraw exactly as Textual works it out (the
widget's own style under the run's), so the picture is the same cell for cell."""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget


class Painted(Widget):
    """A widget drawn from the lines `paint` returns (one `Text` a row)."""

    _strips: tuple[tuple[object, ...], list[Strip]] | None = None

    def paint(self) -> list[Text]:
        raise NotImplementedError

    def render(self) -> Text:
        """The picture as one text (what tests and a mouse selection read)."""
        return Text("\n").join(self.paint())

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Any:
        if repaint:
            self._strips = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def render_line(self, y: int) -> Strip:
        key = (self.size, self.visual_style, self.app.ansi_theme)
        if self._strips is None or self._strips[0] != key:
            self._strips = (key, self._painted_strips())
        lines = self._strips[1]
        if y < len(lines):
            return lines[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def _painted_strips(self) -> list[Strip]:
        width, height = self.size.width, self.size.height
        if width <= 0 or height <= 0:
            return []
        base = self.visual_style
        theme = self.app.ansi_theme
        console = self.app.console
        looks: dict[RichStyle | None, RichStyle] = {}

        def look(style: RichStyle | None) -> RichStyle:
            got = looks.get(style)
            if got is None:
                run = base if not style else Style.combine(
                    [base, Style.from_rich_style(style, theme)])
                got = looks[style] = (base + run).rich_style
            return got

        strips = []
        for line in self.paint()[:height]:
            segments = [Segment(text, look(style)) for text, style in _runs(line, console)]
            strip = Strip(segments)
            strips.append(strip.crop(0, width) if strip.cell_length > width else strip)
        return strips


def _runs(line: Text, console: Any) -> list[tuple[str, RichStyle | None]]:
    """The line as (text, style) runs: straight from its spans when they follow each other
    without overlapping (as `Canvas.lines` writes them), else as Rich renders it."""
    plain = line.plain
    runs: list[tuple[str, RichStyle | None]] = []
    at = 0
    for span in line.spans:
        if line.style or span.start < at or not isinstance(span.style, RichStyle):
            return [(seg.text, seg.style) for seg in line.render(console, end="") if seg.text]
        if span.start > at:
            runs.append((plain[at:span.start], None))
        if span.end > span.start:
            runs.append((plain[span.start:span.end], span.style))
        at = span.end
    if at < len(plain):
        runs.append((plain[at:], None))
    return runs
