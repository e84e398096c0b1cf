"""A small chart of running totals: one coloured line of bars per player."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from ..colours import app_colours

BARS = " ▁▂▃▄▅▆▇█"
ASCII_BARS = " .:-=+*#%"


def bar_line(values: Sequence[int], top: int, ascii_only: bool = False) -> str:
    """One character per round, its height the running total relative to `top`."""
    glyphs = ASCII_BARS if ascii_only else BARS
    if top <= 0:
        return glyphs[0] * len(values)
    out = []
    for v in values:
        level = round(max(v, 0) / top * (len(glyphs) - 1))
        out.append(glyphs[max(1 if v > 0 else 0, min(level, len(glyphs) - 1))])
    return "".join(out)


class TotalsChart(Widget):
    DEFAULT_CSS = """
    TotalsChart { height: auto; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names: Sequence[str] = ()
        self.series: Sequence[Sequence[int]] = ()
        self.ascii_only = False

    def show(self, names: Sequence[str], series: Sequence[Sequence[int]],
             ascii_only: bool = False) -> None:
        self.names, self.series, self.ascii_only = names, series, ascii_only
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.names) + 1

    def render(self) -> Text:
        top = max((max(s) for s in self.series if s), default=0)
        seats = app_colours(self.app).seats
        label_w = max((len(n) for n in self.names), default=4) + 1
        width = max(self.size.width - label_w - 8, 4)
        out = Text()
        for seat, (name, values) in enumerate(zip(self.names, self.series, strict=False)):
            colour = seats[seat % len(seats)]
            shown = list(values)
            # stretch short games so the chart reads as a chart, not a dot
            repeat = max(1, min(4, width // max(len(shown), 1)))
            bars = "".join(ch * repeat for ch in bar_line(shown, top, self.ascii_only))
            out.append(name.ljust(label_w), Style(bold=True))
            out.append(bars, Style(color=colour))
            out.append(f" {values[-1] if values else 0}", Style(bold=True))
            out.append("\n")
        out.append(" " * label_w + "running total after each round", Style(dim=True))
        return out
