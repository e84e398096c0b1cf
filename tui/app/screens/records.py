"""Your recorded games and your statistics; open any game to replay it.

Three tabs: *Games* lists every recorded game (newest first; Enter replays it, `e` exports it
as a JSON file, `i` imports one), *Statistics* shows games played and won per ruleset and
per opponent level, average points per round, best and worst games and a chart of recent
results, *Abandoned* the games given up unfinished (never counted).  All the numbers come
from `tui.records.stats`; this screen only lays them out.
"""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, Static, TabbedContent, TabPane

from tui.records.record import RecordError
from tui.records.report import (
    ABANDONED_HEADERS,
    abandoned_row,
    describe_result,
    game_row,
    result_bars,
)
from tui.records.rows import AbandonedSummary
from tui.records.stats import Line, Result, Stats, summarize
from tui.records.store import GameSummary, RecordNotFound, RecordStore, RecordsUnavailable

from ..colours import app_colours
from ..host import still_shown
from ..widgets.chart import TotalsChart
from ..widgets.footer import Footer
from ..widgets.scoresheet import running_totals


class ResultsChart(Widget):
    """Recent games, oldest first: a bar per game (height: how clear the result was),
    green for a win, red for a loss, with W/L underneath."""

    DEFAULT_CSS = """
    ResultsChart { height: 3; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.results: list[Result] = []
        self.ascii_only = False

    def show(self, results: list[Result], ascii_only: bool = False) -> None:
        self.results, self.ascii_only = list(results), ascii_only
        self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 3

    def render(self) -> Text:
        if not self.results:
            return Text("No games yet.", Style(dim=True, italic=True))
        bars = result_bars(self.results, self.ascii_only)
        top, marks = Text(), Text()
        colours = app_colours(self.app)
        win, loss = Style(color=colours.good, bold=True), Style(color=colours.bad, bold=True)
        for result, bar in zip(self.results, bars, strict=True):
            style = win if result.won else loss
            top.append(bar + " ", style)
            marks.append(result.mark + " ", style)
        count = len(self.results)
        games = "the last game" if count == 1 else f"the last {count} games, oldest first"
        legend = Text(f"{games}; bar height = margin", Style(dim=True))
        return Text("\n").join([top, marks, legend])


class ImportScreen(ModalScreen[str | None]):
    """Ask for the path of a record file to import."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self) -> None:
        super().__init__(classes="picker")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Import a game record", classes="dialog-title")
            yield Input(placeholder="path to a .rummy.json file", id="import-path")
            yield Label("Enter import · Esc cancel", classes="dialog-help")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _line_cells(line: Line) -> tuple[str, ...]:
    return (line.label, str(line.played), str(line.won), f"{line.win_rate:.0%}",
            f"{line.per_round:.1f}")


class RecordsScreen(Screen[None]):
    """Recorded games and statistics.  `player` limits the statistics to one person's
    games (None: every person).  (Guests of an SSH server never reach it: they play from
    the lobby, and their files would land on the server.)"""

    CSS_PATH = "records.tcss"
    BINDINGS = [
        Binding("enter", "replay", "Replay", priority=True),
        Binding("e", "export", "Export"),
        Binding("i", "import_record", "Import"),
        Binding("g", "tab('records-games')", "Games"),
        Binding("s", "tab('records-stats')", "Stats"),
        Binding("a", "tab('records-abandoned')", "Abandoned"),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, store: RecordStore | None = None, player: str | None = None,
                 export_dir: Path | None = None) -> None:
        super().__init__(classes="records-screen")
        if store is None:
            from tui.records import default_store

            store = default_store()
        self.store = store
        self.player = player
        self.export_dir = export_dir
        self.summaries: list[GameSummary] = []
        self.abandoned: list[AbandonedSummary] = []
        self.stats: Stats = summarize([], player)

    def compose(self) -> ComposeResult:
        with TabbedContent(initial="records-games"):
            with TabPane("Games", id="records-games"):
                yield Static(id="records-empty")
                yield DataTable(id="games-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Statistics", id="records-stats"), VerticalScroll(id="stats-box"):
                yield Static(id="stats-overall")
                yield Label("By ruleset", classes="stats-heading")
                yield DataTable(id="stats-rulesets", cursor_type="none", show_cursor=False)
                yield Label("By opponent level", classes="stats-heading")
                yield DataTable(id="stats-levels", cursor_type="none", show_cursor=False)
                yield Static(id="stats-best")
                yield Static(id="stats-worst")
                yield Label("Recent results", classes="stats-heading")
                yield ResultsChart(id="stats-chart")
                yield Label("The last game: running totals by deal", classes="stats-heading")
                yield TotalsChart(id="stats-totals")
            with TabPane("Abandoned", id="records-abandoned"):
                yield Static(id="abandoned-note")
                yield DataTable(id="abandoned-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        if not still_shown(self):
            return  # closed before it was mounted: its widgets are gone
        games = self.query_one("#games-table", DataTable)
        games.add_columns("#", "Finished", "Rules", "Players and totals", "Winner", "Rounds")
        self.query_one("#abandoned-table", DataTable).add_columns(*ABANDONED_HEADERS)
        for table_id in ("#stats-rulesets", "#stats-levels"):
            self.query_one(table_id, DataTable).add_columns(
                "", "Played", "Won", "Won %", "Avg/round")
        self.reload()
        games.focus()

    # ------------------------------------------------------------------ data

    def _ascii(self) -> bool:
        getter = getattr(self.app, "card_style", None)
        style = getter() if callable(getter) else None
        return bool(getattr(style, "ascii", False))

    def reload(self) -> None:
        """Read the records again and redraw both tabs."""
        try:
            self.summaries = self.store.summaries()
            self.abandoned = self.store.abandoned_games()
        except RecordsUnavailable as exc:
            self.summaries, self.abandoned = [], []
            self.notify(str(exc), title="Game records", severity="error", timeout=12)
        notice = self.store.pop_notice()
        if notice:
            self.notify(notice, title="Game records", severity="warning", timeout=12)
        self.stats = summarize(self.summaries, self.player)
        self._fill_games()
        self._fill_stats()
        self._fill_abandoned()

    def _fill_abandoned(self) -> None:
        table = self.query_one("#abandoned-table", DataTable)
        table.clear()
        for game in self.abandoned:
            table.add_row(*(Text(str(c)) for c in abandoned_row(game)), key=str(game.id))
        count = len(self.abandoned)
        self.query_one("#abandoned-note", Static).update(Text(
            f"{count} game{'s' if count != 1 else ''} given up unfinished (a new game was "
            "started over it): kept here, never counted as played, won or lost."
            if count else "No abandoned games: every game you gave up for a new one would "
            "be kept here.", Style(dim=True)))

    def _fill_games(self) -> None:
        table = self.query_one("#games-table", DataTable)
        table.clear()
        for game in self.summaries:
            table.add_row(*(Text(str(c)) for c in game_row(game)), key=str(game.id))
        empty = self.query_one("#records-empty", Static)
        empty.update("" if self.summaries else
                     "No recorded games yet: every game you finish is kept here.")
        empty.display = not self.summaries

    def _fill_stats(self) -> None:
        stats = self.stats
        who = stats.player or "everyone who played"
        overall = stats.overall
        text = Text()
        text.append(f"{stats.games} game{'s' if stats.games != 1 else ''} recorded",
                    Style(bold=True))
        given_up = len(self.abandoned)
        if given_up:  # (never counted below: they are listed under Abandoned)
            text.append(f" · {given_up} abandoned (a lists {'it' if given_up == 1 else 'them'})",
                        Style(dim=True))
        text.append(f" · statistics for {who}\n", Style(dim=True))
        if overall.played:
            text.append(f"Played {overall.played}, won {overall.won} "
                        f"({overall.win_rate:.0%}); average {overall.per_round:.1f} points "
                        "per round")
        else:
            text.append("No finished games with a person playing yet.")
        self.query_one("#stats-overall", Static).update(text)
        for table_id, lines in (("#stats-rulesets", stats.by_ruleset),
                                ("#stats-levels", stats.by_level)):
            table = self.query_one(table_id, DataTable)
            table.clear()
            for line in lines:
                table.add_row(*(Text(cell) for cell in _line_cells(line)))
        self.query_one("#stats-best", Static).update(
            Text.assemble(("Best game   ", Style(dim=True)), describe_result(stats.best)))
        self.query_one("#stats-worst", Static).update(
            Text.assemble(("Worst game  ", Style(dim=True)), describe_result(stats.worst)))
        self.query_one("#stats-chart", ResultsChart).show(stats.recent, self._ascii())
        self._chart_last_game()

    def _chart_last_game(self) -> None:
        """The running totals of the game that finished last (its moves are read for
        them: the list of games holds only the totals)."""
        names: list[str] = []
        series: list[list[int]] = []
        if self.summaries:
            try:
                record = self.store.get(self.summaries[0].id)
            except (RecordError, RecordNotFound, RecordsUnavailable):
                pass
            else:
                names = record.names
                series = running_totals(record.scores, len(names))
        self.query_one("#stats-totals", TotalsChart).show(names, series, self._ascii())

    def selected_id(self) -> int | None:
        table = self.query_one("#games-table", DataTable)
        if not self.summaries or table.cursor_row is None:
            return None
        row = table.cursor_row
        if not 0 <= row < len(self.summaries):
            return None
        key = table.coordinate_to_cell_key(Coordinate(row, 0)).row_key.value
        return int(key) if key is not None else None

    # ------------------------------------------------------------------ actions

    @on(DataTable.RowSelected, "#games-table")
    def _row_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_replay()

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def action_replay(self) -> None:
        from tui.records.store import RecordNotFound

        from .replay import ReplayScreen

        record_id = self.selected_id()
        if record_id is None:
            self.notify("Choose a game in the list first.", severity="warning")
            return
        try:
            record = self.store.get(record_id)
            screen = ReplayScreen(record)
        except (RecordError, RecordNotFound, RecordsUnavailable) as exc:
            self.notify(str(exc), title=f"Cannot replay game #{record_id}",
                        severity="error", timeout=10)
            return
        self.app.push_screen(screen)

    def action_export(self) -> None:
        from tui.records.exchange import export_to_folder

        record_id = self.selected_id()
        if record_id is None:
            self.notify("Choose a game in the list first.", severity="warning")
            return
        folder = self.export_dir or _default_export_dir()
        try:
            path = export_to_folder(self.store.get(record_id), folder)
        except (RecordError, RecordsUnavailable, KeyError) as exc:
            self.notify(str(exc), title="Cannot export", severity="error", timeout=10)
            return
        self.notify(f"Saved as {path}", title=f"Game #{record_id} exported", timeout=10)

    def action_import_record(self) -> None:
        self.app.push_screen(ImportScreen(), callback=self._import_path)

    def _import_path(self, path: str | None) -> None:
        from tui.records.exchange import import_record_file

        if not path:
            return
        try:
            record_id, new = import_record_file(Path(path), self.store)
        except (RecordError, RecordsUnavailable) as exc:
            self.notify(str(exc), title="Cannot import", severity="error", timeout=12)
            return
        self.reload()
        self._select(record_id)
        self.notify(f"Imported as game #{record_id}." if new else
                    f"This game is already in your records (#{record_id}).",
                    title="Import")

    def _select(self, record_id: int) -> None:
        for row, game in enumerate(self.summaries):
            if game.id == record_id:
                self.query_one("#games-table", DataTable).move_cursor(row=row)
                return

    def action_close(self) -> None:
        self.dismiss()


def _default_export_dir() -> Path:
    from tui.paths import user_data_dir

    return user_data_dir() / "exports"
