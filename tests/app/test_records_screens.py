"""The records and replay screens, driven through Textual's pilot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from records_kit import T0, finished_game, seats
from textual.app import App
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static, TabbedContent

from tui.app.screens.records import RecordsScreen, ResultsChart
from tui.app.screens.replay import ReplayApp, ReplayScreen
from tui.records import RecordStore
from tui.records.record import GameRecord
from tui.records.store import DB_NAME

SIZE = (120, 40)


class Host(App[None]):
    """A bare app showing one screen, remembering every notification."""

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self.first = screen
        self.messages: list[str] = []

    def on_mount(self) -> None:
        self.push_screen(self.first)

    def notify(self, message: str, **kwargs) -> None:  # noqa: ANN003 - Textual's options
        self.messages.append(message)
        super().notify(message, **kwargs)


def text_of(screen: Screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).content)


@pytest.fixture
def store(home: Path) -> RecordStore:
    store = RecordStore(home / "data" / DB_NAME)
    for i, seed in enumerate((1, 2, 3)):
        game = finished_game(seed=seed, players=2 + i % 2)
        store.add(GameRecord.from_game(game, seats(game.players), T0 + i * 3600,
                                       T0 + i * 3600 + 900))
    return store


async def test_the_records_screen_lists_games_newest_first(store: RecordStore) -> None:
    app = Host(RecordsScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#games-table", DataTable)
        assert table.row_count == 3
        assert [str(table.get_row_at(r)[0]) for r in range(3)] == ["3", "2", "1"]
        assert app.screen.selected_id() == 3
        await pilot.press("down")
        assert app.screen.selected_id() == 2


async def test_statistics_tab_shows_tables_and_chart(store: RecordStore) -> None:
    app = Host(RecordsScreen(store, player="Ada"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert screen.query_one(TabbedContent).active == "records-stats"
        rules = screen.query_one("#stats-rulesets", DataTable)
        assert rules.row_count == 1
        row = [str(cell) for cell in rules.get_row_at(0)]
        assert row[0] == store.summaries()[0].ruleset_name and row[1] == "3"
        levels = screen.query_one("#stats-levels", DataTable)
        assert [str(levels.get_row_at(r)[0]) for r in range(levels.row_count)] == ["random"]
        chart = screen.query_one(ResultsChart)
        won = sum(0 in s.winners for s in store.summaries())
        assert len(chart.results) == 3
        bars, marks, legend = str(chart.render()).splitlines()
        assert marks.split() == [r.mark for r in chart.results]
        assert marks.count("W") == won and len(bars.split()) == 3
        assert "oldest first" in legend
        assert "Played 3, won" in text_of(screen, "#stats-overall")
        assert "#" in text_of(screen, "#stats-best")


async def test_enter_opens_the_replay_and_arrows_step_through_it(store: RecordStore) -> None:
    app = Host(RecordsScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.record.id == 3
        assert screen.replay.position == 0
        assert "Step 0 of" in text_of(screen, "#replay-position")
        assert "deals" in text_of(screen, "#replay-caption")
        await pilot.press("right", "right", "right")
        assert screen.replay.position == 3
        await pilot.press("left")
        assert screen.replay.position == 2
        await pilot.press("end")
        frame = screen.frame
        assert frame.at_end and "Game over" in text_of(screen, "#replay-position")
        record = store.get(3)
        totals = text_of(screen, "#replay-scores").splitlines()[-1].split()
        assert totals == ["Total", *map(str, record.totals)]
        await pilot.press("home")
        assert screen.replay.position == 0
        await pilot.press("left")  # already at the start: stays
        assert screen.replay.position == 0
        await pilot.press("pagedown")
        assert screen.frame.deal == 2 and screen.frame.action is None
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RecordsScreen)


async def test_the_replay_shows_every_hand(store: RecordStore) -> None:
    record = store.get(2)  # three players
    app = Host(ReplayScreen(record))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right")
        screen = app.screen
        frame = screen.frame
        for seat, hand in enumerate(frame.hands):
            shown = text_of(screen, f"#replay-seat-{seat}")
            assert record.seats[seat].name in shown
            assert f"{len(hand)} card" in shown
            for card in hand:
                assert str(card)[:-1] in shown  # rank shown (suits as symbols)
        assert f"Stock {frame.stock_count}" in text_of(screen, "#replay-piles")
        actor = screen.query_one(f"#replay-seat-{frame.actor}")
        assert actor.has_class("-actor")


async def test_export_and_import_from_the_records_screen(store: RecordStore,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "exports"
    app = Host(RecordsScreen(store, export_dir=out))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        await pilot.pause()
        (path,) = out.glob("*.rummy.json")
        assert json.loads(path.read_text())["uid"] == store.get(3).uid
        assert any(str(path) in m for m in app.messages)
        # import into a different store
        other = RecordStore(tmp_path / "other" / DB_NAME)
        app2 = Host(RecordsScreen(other))
        async with app2.run_test(size=SIZE) as pilot2:
            assert app2.screen.query_one("#games-table", DataTable).row_count == 0
            await pilot2.press("i")
            await pilot2.pause()
            app2.screen.query_one(Input).value = str(path)
            await pilot2.press("enter")
            await pilot2.pause()
            assert isinstance(app2.screen, RecordsScreen)
            assert app2.screen.query_one("#games-table", DataTable).row_count == 1
            assert any("Imported as game #1" in m for m in app2.messages)
            await pilot2.press("i")
            await pilot2.pause()
            app2.screen.query_one(Input).value = str(tmp_path / "missing.json")
            await pilot2.press("enter")
            await pilot2.pause()
            assert any("no such file" in m for m in app2.messages)


async def test_a_damaged_records_file_is_announced(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    path.write_bytes(b"not sqlite at all " * 100)
    app = Host(RecordsScreen(RecordStore(path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("damaged" in m for m in app.messages)
        assert "No recorded games yet" in text_of(app.screen, "#records-empty")


async def test_the_replay_app_of_rummy_replay(store: RecordStore) -> None:
    app = ReplayApp(store.get(1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("end")
        assert app.screen.frame.at_end
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_the_abandoned_tab_lists_games_given_up(store: RecordStore) -> None:
    from tui.engine.game import Game
    from tui.records.abandoned import AbandonedGame

    rules = finished_game().rules
    for seed in (5, 6):
        game = Game(rules, ["Ada", "Ben"], seed)
        store.add_abandoned(AbandonedGame.from_game(game, seats(2), T0, T0 + 600 * seed))
    app = Host(RecordsScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert screen.query_one(TabbedContent).active == "records-abandoned"
        table = screen.query_one("#abandoned-table", DataTable)
        assert table.row_count == 2
        row = [str(cell) for cell in table.get_row_at(0)]
        assert row[0] == "2" and row[2] == rules.name and row[-1] == "1"
        assert "2 games given up unfinished" in text_of(screen, "#abandoned-note")
        assert screen.query_one("#games-table", DataTable).row_count == 3  # not counted
        # and the statistics say they exist, though they never count
        overall = text_of(screen, "#stats-overall")
        assert "3 games recorded · 2 abandoned (a lists them)" in overall


async def test_the_abandoned_tab_says_when_there_are_none(store: RecordStore) -> None:
    app = Host(RecordsScreen(store))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert app.screen.query_one("#abandoned-table", DataTable).row_count == 0
        assert "No abandoned games" in text_of(app.screen, "#abandoned-note")


async def test_the_replay_title_says_how_many_moves_were_taken_back(store: RecordStore) -> None:
    import dataclasses

    record = dataclasses.replace(store.get(1), undos=2)
    app = Host(ReplayScreen(record))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "2 moves taken back" in str(app.screen.query_one("#replay-title", Static).render())


ENGINE_CODE = __import__("re").compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


async def test_the_replay_narrates_with_the_tables_card_names(store: RecordStore) -> None:
    """Issue 33: the narration read `2C turned up` where the table writes `2♣`."""
    app = Host(ReplayScreen(store.get(1)))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        seen = []
        for _ in range(6):
            seen.append(text_of(screen, "#replay-caption"))
            await pilot.press("right")
    told = " ".join(seen)
    assert "turned up" in told and not ENGINE_CODE.search(told), told
    assert any(suit in told for suit in "♣♦♥♠")


async def test_statistics_chart_the_last_games_running_totals_by_deal(
        store: RecordStore) -> None:
    """Issue 33: a real line chart of each player's running total by deal."""
    from tui.app.widgets.chart import TotalsChart

    last = store.get(store.summaries()[0].id)
    app = Host(RecordsScreen(store, player="Ada"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        chart = app.screen.query_one("#stats-totals", TotalsChart)
        assert list(chart.names) == last.names
        assert [s[-1] for s in chart.series] == list(last.totals)
        assert [len(s) for s in chart.series] == [len(last.scores)] * len(last.names)
        assert "deal" in chart.render().plain


async def test_one_recent_game_is_the_last_game_not_last_1_games(home: Path) -> None:
    one = RecordStore(home / "data" / DB_NAME)
    game = finished_game(seed=1, players=2)
    one.add(GameRecord.from_game(game, seats(2), T0, T0 + 600))
    app = Host(RecordsScreen(one, player="Ada"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        legend = str(app.screen.query_one(ResultsChart).render()).splitlines()[-1]
    assert "the last game;" in legend and "1 games" not in legend


async def test_the_replays_key_bar_fits_80_columns(store: RecordStore) -> None:
    """Issue 33: the replay's key bar was cut at 80 columns (Close out of sight)."""
    from textual.widgets._footer import FooterKey

    app = Host(ReplayScreen(store.get(1)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = list(app.screen.query(FooterKey))
        assert keys and all(key.region.right <= 80 and key.region.width > 0 for key in keys)
        assert any(key.description == "Close" for key in keys)

async def test_the_records_screen_reports_a_damaged_header_and_shows_the_games(
        store: RecordStore, home: Path) -> None:
    """A negative records version (one flipped header byte) once crashed this screen."""
    import sqlite3

    path = home / "data" / DB_NAME
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    data[60:64] = (-1).to_bytes(4, "big", signed=True)
    path.write_bytes(bytes(data))
    app = Host(RecordsScreen(RecordStore(path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#games-table", DataTable).row_count == 3
        assert any("damaged" in message for message in app.messages)
