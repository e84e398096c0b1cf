"""Players follow the game: a deal's summary lasts as long as its deal.  When the next
deal starts without this player (at a shared table the others, or the timeout, start it),
the summary gives way to the table; the last deal stays in the score sheet (`c`)."""

from __future__ import annotations

from pathlib import Path

from app_driver import at_table, make_env, play_round_by_keys, table_screen, view, wait_until
from textual.pilot import Pilot
from textual.widgets import Static, TabbedContent

from tui.app.app import RummyApp
from tui.app.screens.help import HelpScreen
from tui.app.screens.scores import ScoresScreen
from tui.app.screens.summary import RoundSummaryScreen
from tui.engine.view import SeatView


def plain(static: Static) -> str:
    return str(static.render())


def _against_one_bot(tmp_path: Path) -> RummyApp:
    return RummyApp(make_env(tmp_path, "three_thirteen", players=2, bots=("easy",), seed=11))


async def _deal_one_to_its_summary(pilot: Pilot, app: RummyApp) -> SeatView:
    """The first deal played by keys to its end, and its summary on show: the player's
    view as the deal ended."""
    await wait_until(pilot, lambda: at_table(app))
    ended = await play_round_by_keys(pilot, app)
    await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
    return ended


async def test_the_summary_gives_way_when_the_next_deal_starts_elsewhere(tmp_path) -> None:
    app = _against_one_bot(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        ended = await _deal_one_to_its_summary(pilot, app)
        assert ended.phase == "round_over"
        table = table_screen(app).table
        table.next_round()  # as the others (or the timeout) start it at a shared table
        await wait_until(pilot, lambda: at_table(app))
        assert view(app).deal == 2
        # the deal that is over is still there, in the score sheet's "Last deal"
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, ScoresScreen))
        tabs = app.screen.query_one(TabbedContent)
        tabs.active = "deal"
        await pilot.pause()
        titles = [plain(s) for s in app.screen.query(".summary-title").results(Static)]
        assert titles and titles[0].startswith("Deal 1 — ")


async def test_a_summary_under_another_screen_gives_way_when_that_one_closes(tmp_path) -> None:
    app = _against_one_bot(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _deal_one_to_its_summary(pilot, app)
        app.push_screen(HelpScreen())
        await pilot.pause()
        table_screen(app).table.next_round()
        await pilot.pause(0.2)
        assert isinstance(app.screen, HelpScreen)  # what the player opened stays open
        app.pop_screen()
        await wait_until(pilot, lambda: at_table(app))
        assert view(app).deal == 2


async def test_alone_at_a_local_table_the_summary_waits_for_the_player(tmp_path) -> None:
    app = _against_one_bot(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _deal_one_to_its_summary(pilot, app)
        await pilot.pause(0.5)
        assert isinstance(app.screen, RoundSummaryScreen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: at_table(app))
        assert view(app).deal == 2
