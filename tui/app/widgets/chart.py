"""A line chart of each player's running total by deal, drawn by plotext: one line per
player, each drawn with the player's initial (readable in plain letters and without
colour), in the player's seat colour.  In plain-letters mode its frame is plain ASCII."""

from __future__ import annotations

from collections.abc import Sequence

import plotext
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ..colours import app_colours

# plotext's frame and ticks, as plain letters (the plain-letters card style)
ASCII_FRAME = str.maketrans({"┌": "+", "┐": "+", "└": "+", "┘": "+", "─": "-", "│": "|",
                             "┤": "|", "├": "|", "┬": "+", "┴": "+", "┼": "+"})


def line_marks(names: Sequence[str]) -> list[str]:
    """One letter per player (the initial; a digit where two players share one)."""
    marks: list[str] = []
    for seat, name in enumerate(names):
        initial = next((ch.upper() for ch in name if ch.isalnum()), "")
        marks.append(initial if initial and initial not in marks else str(seat + 1)[-1])
    return marks


def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16))


def totals_plot(names: Sequence[str], series: Sequence[Sequence[int]], width: int,
                height: int, colours: Sequence[str] = (), ascii_only: bool = False) -> Text:
    """The chart as text of `width` × `height` cells."""
    plotext.clear_figure()
    plotext.plotsize(max(width, 20), max(height, 6))
    plotext.theme("clear")
    deals = max((len(s) for s in series), default=0)
    for seat, (name, values, mark) in enumerate(zip(names, series, line_marks(names),
                                                     strict=False)):
        colour = _rgb(colours[seat % len(colours)]) if colours else None
        plotext.plot(list(range(1, len(values) + 1)), list(values), marker=mark,
                     color=colour, label=name)
    if deals:
        plotext.xticks(list(range(1, deals + 1)) if deals <= 13 else None)
        low = min(min(s) for s in series if s)
        high = max(max(s) for s in series if s)
        plotext.yticks(sorted({round(low + (high - low) * i / 4) for i in range(5)}))
    plotext.xlabel("deal")
    drawn = plotext.build()
    plotext.clear_figure()
    text = Text.from_ansi(drawn.translate(ASCII_FRAME) if ascii_only else drawn)
    text.rstrip()
    return text


class TotalsChart(Widget):
    DEFAULT_CSS = """
    TotalsChart { height: 1fr; min-height: 8; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names: Sequence[str] = ()
        self.series: Sequence[Sequence[int]] = ()
        self.ascii_only = False

    def show(self, names: Sequence[str], series: Sequence[Sequence[int]],
             ascii_only: bool = False) -> None:
        self.names, self.series, self.ascii_only = names, series, ascii_only
        self.refresh()

    def render(self) -> Text:
        if not any(self.series):
            return Text("No deal has been scored yet.", Style(dim=True, italic=True))
        width, height = self.content_size
        return totals_plot(self.names, self.series, width, height,
                           app_colours(self.app).seats, self.ascii_only)
