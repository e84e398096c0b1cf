"""The score sheet: rounds down, players across, running totals, the leader marked; under
`progression: per_player` (Phase 10) each deal's score marks whoever made their phase in it,
and a last row says the phase each player is on."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ..colours import app_colours, default_colours


def leaders(totals: Sequence[int], lowest_wins: bool) -> set[int]:
    if not totals:
        return set()
    best = min(totals) if lowest_wins else max(totals)
    return {i for i, t in enumerate(totals) if t == best}


def running_totals(scores: Sequence[Sequence[int]], seats: int) -> list[list[int]]:
    """Per seat, the total after each finished round."""
    out: list[list[int]] = [[] for _ in range(seats)]
    totals = [0] * seats
    for row in scores:
        for seat in range(seats):
            totals[seat] += row[seat] if seat < len(row) else 0
            out[seat].append(totals[seat])
    return out


def score_table(names: Sequence[str], scores: Sequence[Sequence[int]], totals: Sequence[int],
                lowest_wins: bool, me: int = -1, ascii_only: bool = False,
                round_word: str = "Rd", highlight: str = "",
                made: Sequence[Sequence[bool]] = (), phases: Sequence[int] = ()) -> Table:
    """`made`: per deal, per seat, whether it made its phase in that deal; `phases`: the
    phase each seat is on now (both empty for a game played by the schedule)."""
    highlight = highlight or default_colours().highlight
    lead = leaders(totals, lowest_wins) if scores else set()
    star = "*" if ascii_only else "★"
    table = Table(box=box.SIMPLE_HEAD if not ascii_only else box.ASCII, expand=True,
                  padding=(0, 1), show_edge=False, pad_edge=False)
    table.add_column(round_word, justify="right", style="dim", no_wrap=True)
    for seat, name in enumerate(names):
        label = (star if seat in lead else "") + (name[:8])
        table.add_column(Text(label), justify="right", no_wrap=True,
                         header_style=f"bold {highlight}" if seat in lead else
                         "bold" if seat == me else "")
    tick = "+" if ascii_only else "✓"
    for number, row in enumerate(scores, start=1):
        marks = made[number - 1] if number - 1 < len(made) else ()
        table.add_row(str(number), *(
            f"{tick}{v}" if seat < len(marks) and marks[seat] else str(v)
            for seat, v in enumerate(row)))
    table.add_section()
    table.add_row("Σ" if not ascii_only else "tot",
                  *(Text(str(t), f"bold {highlight}" if seat in lead else "bold")
                    for seat, t in enumerate(totals)))
    if phases:
        table.add_row("Ph", *(Text(str(p), "dim") for p in phases))
    return table


class ScoreSheet(Static):
    DEFAULT_CSS = """
    ScoreSheet { height: auto; }
    """

    def show(self, names: Sequence[str], scores: Sequence[Sequence[int]],
             totals: Sequence[int], lowest_wins: bool, me: int = -1,
             ascii_only: bool = False, made: Sequence[Sequence[bool]] = (),
             phases: Sequence[int] = ()) -> None:
        self.update(score_table(names, scores, totals, lowest_wins, me, ascii_only,
                                highlight=app_colours(self.app).highlight,
                                made=made, phases=phases))
