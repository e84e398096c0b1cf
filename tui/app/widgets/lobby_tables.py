"""The lobby's list of tables: a row each, keyed by the table's number, so the cursor
stays on the same table when the list is filled again after a change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from tui.service.lobby import TableSummary

STATUS_WORDS = {"waiting": "waiting", "playing": "playing", "finished": "finished",
                "closed": "closed"}


def seat_words(summary: TableSummary) -> str:
    """`alice, bob (away), 1 open` / `alice, 2 bots`."""
    people = []
    bots = 0
    open_chairs = 0
    for name, what in summary.seats:
        if what == "open":
            open_chairs += 1
        elif what == "person":
            people.append(name)
        elif what.startswith("away"):
            people.append(f"{name} (away)")
        else:
            bots += 1
    parts = people[:]
    if bots:
        parts.append(f"{bots} bot" + ("s" if bots != 1 else ""))
    if open_chairs:
        parts.append(f"{open_chairs} open")
    return ", ".join(parts)


class TableList(DataTable[Any]):
    """Number, rules, seats taken, players, status and spectators of each table."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.add_column("No.", key="id", width=4)
        self.add_column("Rules", key="rules", width=18)
        self.add_column("Seats", key="seats", width=6)
        self.add_column("Players", key="players", width=22)
        self.add_column("Status", key="status", width=9)
        self.add_column("Watching", key="watching", width=8)

    def show(self, summaries: Sequence[TableSummary], wanted: int | None) -> None:
        """Fill the list again, the cursor on the table it was on, else on `wanted`."""
        current = self.highlighted_id()
        self.clear()
        for summary in summaries:
            self.add_row(str(summary.id), Text(summary.title, no_wrap=True),
                         f"{summary.taken}/{len(summary.seats)}",
                         Text(seat_words(summary), no_wrap=True, overflow="ellipsis"),
                         STATUS_WORDS[summary.status], str(summary.spectators),
                         key=str(summary.id))
        if current is not None:
            wanted = current
        ids = [s.id for s in summaries]
        if wanted in ids:
            self.move_cursor(row=ids.index(wanted), animate=False)

    def highlighted_id(self) -> int | None:
        """The number of the table under the cursor (None: the list is empty)."""
        if self.row_count == 0:
            return None
        try:
            key = self.coordinate_to_cell_key(Coordinate(self.cursor_row, 0)).row_key.value
        except Exception:  # noqa: BLE001 - no row under the cursor
            return None
        return int(key) if key is not None else None
