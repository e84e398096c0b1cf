"""The lobby's pane under the list: the highlighted table's seats, and what the player can
do there (their rejoin code while they wait at it, the key to take a held seat back)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ..colours import app_colours

if TYPE_CHECKING:
    from tui.service.interface import LobbyClient
    from tui.service.lobby import TableSummary


class TableDetail(Vertical):
    """Shows one table as the player sees it from the lobby (none: how to create one)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Table"
        self._body = Static(id="detail-body")

    def compose(self) -> ComposeResult:
        yield self._body

    def show(self, summary: TableSummary | None, guest: LobbyClient) -> None:
        if summary is None:
            self.border_title = "Table"
            self._body.update(Text("Create a table (c): choose the rules, the number of seats "
                                   "and the bots that fill the seats nobody takes."))
            return
        self.border_title = Text(f"Table {summary.id} · {summary.title}")
        text = Text()
        for index, (name, what) in enumerate(summary.seats, 1):
            if index > 1:
                text.append("  ")
            text.append(f"{index} ", Style(dim=True))
            if what == "open":
                text.append("open", Style(dim=True, italic=True))
            else:
                text.append(name, Style(bold=what == "person"))
                if what != "person":
                    text.append(f" ({what})", Style(dim=True))
                elif name == summary.host and summary.status == "waiting":
                    text.append(" (host)", Style(dim=True))
        text.append("\n")
        place = guest.place()
        if place is not None and place.table == summary.id and not place.spectator \
                and summary.status == "waiting":
            text.append(f"You are seated. s starts the game (open seats get "
                        f"{summary.fill_level} bots); it starts by itself once full.",
                        Style(color=app_colours(self.app).highlight))
            code = place.rejoin_code
            if code:
                text.append(f"\nYour rejoin code: {code} (also under your hand at the "
                            "table). If your connection drops, connect again under the same "
                            "name and enter it to take your seat back.")
        elif summary.status == "waiting":
            text.append(f"Waiting for players: j joins (open seats get {summary.fill_level} "
                        "bots when the game starts).")
        elif summary.status == "playing":
            text.append("In play: w watches (you will see no hand).")
            if any(name == guest.name for name, _ in summary.seats):
                if guest.waiting_table() == summary.id:
                    text.append(" Your seat is waiting for you: j.")
                elif guest.seat_behind_code() == summary.id:
                    text.append(" A seat under your name: j and its rejoin code take it back.")
        else:
            text.append("The game is over.")
        self._body.update(text)
