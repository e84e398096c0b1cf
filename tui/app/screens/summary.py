"""End of a deal (every hand: its melds, the cards that scored, the points) and end of the
game (standings, a chart of running totals, the last deal, the score sheet).

Each part is a tab of its own, so a summary fits 80×24 however many deals have been played
(an eleven-deal score sheet does not have to share the screen with eight hands).

A deal's summary lasts as long as its deal: at a shared table the next deal starts when the
others have seen theirs (or after a timeout), and whoever is still reading is brought to
the table then, never left on a deal that is over while their turns are played for them
(the last deal stays in the score sheet, `c` at the table)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich import box
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static, TabbedContent, TabPane

from tui.engine.view import SeatView

from ..cardart import CardStyle, chips
from ..describe import deal_label, name_of, phase_marks
from ..host import still_shown
from ..messages import TableChanged
from ..widgets.chart import TotalsChart
from ..widgets.footer import Footer
from ..widgets.scoresheet import ScoreSheet, running_totals

if TYPE_CHECKING:
    from ..table_session import TableSession


def hands_table(view: SeatView, style: CardStyle) -> RichTable:
    """Every hand of the last deal: its melds, the cards that scored, and the points."""
    result = view.results[-1]

    def wild(cards: tuple[Any, ...]) -> list[Any]:
        return [c for c in cards if view.is_wild(c)]

    # no fixed ratios: the melds and the cards left share the width as their cards need
    table = RichTable(expand=True, show_edge=False, pad_edge=False, show_lines=False,
                      header_style="bold", box=box.SIMPLE_HEAD if not style.ascii else box.ASCII)
    table.add_column("Player", no_wrap=True)
    table.add_column("Melds")
    table.add_column("Left in hand")
    table.add_column("Points", justify="right", no_wrap=True)
    table.add_column("Total", justify="right", no_wrap=True)
    for seat, points in enumerate(result.points):
        name = Text(name_of(view, seat), Style(bold=seat == view.seat))
        if seat == result.went_out:
            name.append(" (out)" if style.ascii else " ★ out", Style(color=style.c.highlight))
        if seat < len(result.made):  # (`progression: per_player`: who made their phase)
            played = result.phases[seat]
            name.append(f" · made phase {played}" if result.made[seat]
                        else f" · still on phase {played}",
                        Style(color=style.c.highlight) if result.made[seat] else Style(dim=True))
        melds = Text()
        for i, meld in enumerate(result.melds[seat] if seat < len(result.melds) else ()):
            if i:
                melds.append("  ")
            melds.append_text(chips(meld, style, wild(meld)))
        dead = result.deadwood[seat] if seat < len(result.deadwood) else ()
        table.add_row(name, melds or Text("—", Style(dim=True)),
                      chips(dead, style, wild(dead)) if dead else Text("—", Style(dim=True)),
                      Text(str(points), Style(bold=True)),
                      Text(str(view.players[seat].total)))
    return table


def deal_over_title(view: SeatView) -> Text:
    """`Deal 3 of 11 — 5 cards — 5s wild — over   Ada went out.`"""
    result = view.results[-1] if view.results else None
    title = Text(deal_label(view) + " — over", Style(bold=True))
    if result is not None:
        title.append("   " + (f"{name_of(view, result.went_out)} went out."
                              if result.went_out >= 0 else "Nobody went out."))
    return title


def score_sheet(view: SeatView, style: CardStyle) -> ScoreSheet:
    """The score sheet, filled in before it is mounted (a tab's content may be mounted
    after the screen is)."""
    sheet = ScoreSheet(classes="sheet")
    names = [name_of(view, s) for s in range(len(view.players))]
    sheet.show(names, view.scores, [p.total for p in view.players],
               view.rules.end.winner == "lowest", view.seat, style.ascii, *phase_marks(view))
    return sheet


class RoundSummaryScreen(Screen[bool]):
    """Shown when a deal ends; Enter deals the next one."""

    BINDINGS = [
        Binding("enter,space", "next", "Next deal"),
        Binding("q", "leave", "Menu"),
    ]

    def __init__(self, session: TableSession, style: CardStyle) -> None:
        super().__init__(classes="summary")
        self.session = session
        self.card_style = style
        self.view_now = session.table.view(session.seat)
        self._unsubscribe: Callable[[], None] | None = None
        self._moved_on = False  # the next deal began while another screen was on top

    def compose(self) -> ComposeResult:
        view = self.view_now
        result = view.results[-1] if view.results else None
        with Vertical(classes="summary-body"):
            yield Static(deal_over_title(view), classes="summary-title")
            with TabbedContent():
                if result is not None:
                    with TabPane("This deal", id="deal"):
                        yield Static(hands_table(view, self.card_style), classes="hands")
                with TabPane("Score sheet", id="sheet"):
                    yield score_sheet(view, self.card_style)
        yield Footer()

    def on_mount(self) -> None:
        self._unsubscribe = self.session.table.subscribe(self._on_table_change)
        self._check_deal()  # (it may have moved on while this screen was made)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def on_screen_resume(self) -> None:
        if self._moved_on:
            self.dismiss(False)

    def _on_table_change(self) -> None:
        # From a bot's thread or another player's session: post, never touch the screen.
        self.post_message(TableChanged())

    @on(TableChanged)
    def _table_changed(self) -> None:
        self._check_deal()

    @work(exclusive=True, group="summary-deal")
    async def _check_deal(self) -> None:
        """Back to the table once the deal summarised here is no longer the last one
        (the table reads views in a thread: so does this)."""
        session = self.session
        view = await asyncio.to_thread(session.table.view, session.seat)
        if view.deal == self.view_now.deal and view.phase == "round_over":
            return
        if not still_shown(self) or self._moved_on:
            return
        self._moved_on = True
        if self.app.screen is self:
            self.dismiss(False)

    def action_next(self) -> None:
        table = self.session.table
        if table.view(self.session.seat).phase == "round_over":
            table.next_round()
        self.dismiss(False)

    def action_leave(self) -> None:
        """Dismissed with True: the table under it leaves too."""
        self.dismiss(True)


class GameOverScreen(Screen[bool]):
    """Standings, winners and a chart of the running totals."""

    BINDINGS = [
        Binding("enter,q,escape", "leave", "Main menu"),
    ]

    def __init__(self, view: SeatView, style: CardStyle) -> None:
        super().__init__(classes="summary")
        self.view_now = view
        self.card_style = style

    def compose(self) -> ComposeResult:
        view = self.view_now
        with Vertical(classes="summary-body"):
            with Horizontal(classes="summary-title"):
                yield Static(Text("Game over  ", Style(bold=True)), classes="summary-head")
                yield Static(self._winners_text(), classes="summary-sub")
            with TabbedContent():
                with TabPane("Standings", id="standings"):
                    yield Static(self._standings(), classes="standings")
                with TabPane("Running totals", id="chart"):
                    chart = TotalsChart()
                    names = [name_of(view, s) for s in range(len(view.players))]
                    chart.show(names, running_totals(view.scores, len(names)),
                               self.card_style.ascii)
                    yield chart
                if view.results:
                    with TabPane("Last deal", id="deal"):
                        yield Static(hands_table(view, self.card_style), classes="hands")
                with TabPane("Score sheet", id="sheet"):
                    yield score_sheet(view, self.card_style)
        yield Footer()

    def _winners_text(self) -> Text:
        view = self.view_now
        names = [name_of(view, s) for s in view.winners]
        if view.seat in view.winners:
            head = "You win!" if len(names) == 1 else "You share the win with " + ", ".join(
                n for s, n in zip(view.winners, names, strict=True) if s != view.seat) + "!"
        else:
            head = " and ".join(names) + (" wins." if len(names) == 1 else " share the win.")
        return Text(head, Style(color=self.card_style.c.highlight, bold=True))

    def _standings(self) -> RichTable:
        view = self.view_now
        lowest = view.rules.end.winner == "lowest"
        order = sorted(range(len(view.players)),
                       key=lambda s: view.players[s].total * (1 if lowest else -1))
        table = RichTable(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("#", justify="right")
        table.add_column("Player")
        table.add_column("Total", justify="right")
        place = 0
        last = None
        for index, seat in enumerate(order):
            total = view.players[seat].total
            if total != last:
                place = index + 1
                last = total
            star = ("*" if self.card_style.ascii else "★") if seat in view.winners else ""
            table.add_row(str(place), Text(f"{name_of(view, seat)} {star}",
                                           Style(bold=seat in view.winners)), str(total))
        return table

    def action_leave(self) -> None:
        """Dismissed with True: the table under it leaves too."""
        self.dismiss(True)
