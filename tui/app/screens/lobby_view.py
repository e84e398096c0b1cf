"""What the lobby shows, and the player's way to their table.

The view listens to the player's `LobbyClient` (`tui.service.interface`: the lobby in this
process, or the game service's through `tui.net.remote`) and redraws the list of tables
and the highlighted one when anything changes; a refusal the lobby decides later than the
request returned, and news of the link to the game service, are shown when they come.  It
opens the ordinary table screen - fed by the shared table's view of this player's seat,
or a spectator's view with no hand - as soon as the player's game is dealt; when the
player comes back from the table, the seat is left (kept for them through the grace
period).  A player who comes back to a seat still held for them sits straight down again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from tui.service.lobby import LobbyError, TableSummary

from ..colours import app_colours
from ..widgets.footer import Footer
from ..widgets.lobby_detail import TableDetail
from ..widgets.lobby_tables import TableList

if TYPE_CHECKING:
    from tui.service.interface import LobbyClient

    from .table import TableScreen

REJOIN_SECONDS = 10.0


@dataclass
class LobbyChanged(Message):
    """Something changed in the lobby (posted from the lobby service's callback)."""


@dataclass
class LinkNotice(Message):
    """News of the link to the game service (out of reach, back), for the player."""

    text: str


@dataclass
class LobbyRefused(Message):
    """The lobby refused a request after it was sent (the reason, for the player)."""

    reason: str


class LobbyView(Screen[None]):
    """The lobby as the player sees it, kept up to date; `LobbyScreen` adds the keys."""

    CSS_PATH = "lobby.tcss"

    def __init__(self, guest: LobbyClient) -> None:
        super().__init__(id="lobby")
        self.guest = guest
        self._unsubscribe: Callable[[], None] | None = None
        self._unsubscribe_refusals: Callable[[], None] | None = None
        self._unsubscribe_notices: Callable[[], None] | None = None
        self._table_screen: TableScreen | None = None
        self._summaries: list[TableSummary] = []
        self._shown: tuple[list[TableSummary], int | None, str] | None = None
        self._change_posted = False
        self._rejoin_until = 0.0
        self._seated = False

    def compose(self) -> ComposeResult:
        # Kept, not looked up on every change: each lookup after the screen's children
        # change adds an entry to Textual's query cache (up to 1,024 a screen).
        self._head = Static(id="lobby-head")
        self._tables = TableList(id="table-list")
        self._no_tables = Static("No tables yet: press c to create one.", id="no-tables")
        self._detail = TableDetail(id="lobby-detail")
        yield self._head
        with Vertical(id="lobby-tables") as box:
            box.border_title = "Tables"
            yield self._tables
            yield self._no_tables
        yield self._detail
        yield Footer()

    def on_mount(self) -> None:
        self._unsubscribe = self.guest.subscribe(self._on_lobby_change)
        self._unsubscribe_refusals = self.guest.refusals(self._on_refused)
        self._unsubscribe_notices = self.guest.notices(self._on_notice)
        self.refresh_lobby()
        # A player who reconnects at once may find their seat still held by the session
        # that is dropping: keep offering it back for a few seconds.
        self._rejoin_until = time.monotonic() + REJOIN_SECONDS
        self._take_back_seat()

    def _on_lobby_change(self) -> None:
        # Called by the lobby on every change anywhere: a burst of them (players
        # arriving) costs one refresh, not one each.
        if not self._change_posted:
            self._change_posted = True
            self.post_message(LobbyChanged())

    def on_unmount(self) -> None:
        for stop in (self._unsubscribe, self._unsubscribe_refusals, self._unsubscribe_notices):
            if stop is not None:
                stop()
        self._unsubscribe = self._unsubscribe_refusals = self._unsubscribe_notices = None

    def _on_refused(self, reason: str) -> None:
        self.post_message(LobbyRefused(reason))

    @on(LobbyRefused)
    def _refused(self, message: LobbyRefused) -> None:
        self.notify(message.reason, title="Not possible", severity="warning", markup=False)

    def _on_notice(self, text: str) -> None:
        self.post_message(LinkNotice(text))

    @on(LinkNotice)
    def _link_notice(self, message: LinkNotice) -> None:
        """Shown on whatever screen is up (at the table: its notice line)."""
        self.app.screen.notify(message.text, title="Game service", severity="warning",
                               timeout=8)

    def _take_back_seat(self) -> None:
        """A player who comes back (same key, or same session) sits straight down at their
        game again; a keyless one is told their seat waits behind its rejoin code."""
        table_id = self.guest.waiting_table()
        if table_id is None:
            behind = self.guest.seat_behind_code()
            if behind is not None and self._rejoin_until:
                self._rejoin_until = 0.0
                self.notify(f"A seat under your name waits at table {behind}: choose it and "
                            "press j, then enter the rejoin code you were shown.",
                            title="Your seat?", timeout=15)
            return
        self._rejoin_until = 0.0
        try:
            self.guest.join(table_id)
        except LobbyError:
            return
        self.notify(f"Welcome back: your seat at table {table_id} is yours again.",
                    title="Back at the table", markup=False)
        self._follow_my_table()

    # ------------------------------------------------------------------ showing
    @on(LobbyChanged)
    def _lobby_changed(self) -> None:
        self._change_posted = False
        if self.is_current:  # under a table screen the list waits for on_screen_resume
            self.refresh_lobby()
        if self.guest.place() is None and time.monotonic() < self._rejoin_until:
            self._take_back_seat()
        self._follow_my_table()

    def on_screen_resume(self) -> None:
        if self._table_screen is not None and self._table_screen not in self.app.screen_stack:
            # Back from the table: get up (a game in progress keeps the seat for a while).
            self._table_screen = None
            self.guest.leave()
        self.refresh_lobby()
        self._tables.focus()

    def refresh_lobby(self) -> None:
        summaries = self.guest.summaries()
        self._summaries = summaries
        people = self.guest.people()
        head = Text(" Rummy tables", Style(bold=True, color=app_colours(self.app).highlight))
        head.append(f"  ·  you are {self.guest.name}  ·  {people} connected  ·  "
                    f"{len(summaries)} table" + ("s" if len(summaries) != 1 else ""))
        place = self.guest.place()
        if self._seated != (place is not None):
            self._seated = place is not None
            self.refresh_bindings()
        shown = (summaries, place.ticket if place is not None and place.status != "closed"
                 else None, head.plain)
        if shown == self._shown:
            return  # nothing the list or the detail shows has changed
        self._shown = shown
        self._head.update(head)
        self._tables.show(summaries, place.table if place is not None else None)
        self._no_tables.display = not summaries
        self._tables.display = bool(summaries)
        self._show_detail()

    def _selected(self) -> TableSummary | None:
        wanted = self._tables.highlighted_id()
        return next((s for s in self._summaries if s.id == wanted), None)

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        self._detail.show(self._selected(), self.guest)

    # ------------------------------------------------------------------ the player's table
    def _follow_my_table(self) -> None:
        """Open the table once the game is dealt; come back here if it has closed."""
        place = self.guest.place()
        if place is None:
            return
        if place.status == "closed":
            if self._table_screen is not None:
                self._back_to_lobby()
                self.notify(f"Table {place.table} has closed.", title="Table closed",
                            markup=False)
            self.guest.leave()
            return
        if place.dealt and self._table_screen is None:
            self._open_table()

    def _back_to_lobby(self) -> None:
        self._table_screen = None
        while self.app.screen is not self and len(self.app.screen_stack) > 1:
            self.app.pop_screen()

    def _open_table(self) -> None:
        from ..table_session import TableSession
        from .table import TableScreen

        table, place = self.guest.table(), self.guest.place()
        if table is None or place is None:
            return  # (a remote table opens once its first view has come)
        session = TableSession(table, place.seat, None, False, self.guest.chat(),
                               place.rejoin_code)
        self._table_screen = TableScreen(session)
        self.app.push_screen(self._table_screen)
