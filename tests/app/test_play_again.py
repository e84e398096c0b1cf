"""Issue 33: "Play again" on the game-over screen starts a new game with the same rules
and opponents (their names and levels); a shared table has no such key."""

from __future__ import annotations

from pathlib import Path

from app_driver import HUMAN, finished_table, wait_until

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.game_over_again import GameOverAgainScreen
from tui.app.screens.summary import GameOverScreen
from tui.app.screens.table import TableScreen
from tui.service.table import SeatSpec


async def test_play_again_starts_the_same_game_anew(tmp_path: Path) -> None:
    finished = finished_table([SeatSpec("Ann"), SeatSpec("Bo", "random"),
                               SeatSpec("Cy", "easy")])
    app = RummyApp(AppEnvironment(table=finished, seat=HUMAN, player_name="Ann",
                                  drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverAgainScreen))
        await pilot.press("p")

        def new_table() -> bool:
            screen = app.screen
            return isinstance(screen, TableScreen) and screen.table is not finished

        await wait_until(pilot, new_table)
        table = app.screen.table
        assert table.rules.key == "three_thirteen"
        assert [(s.name, s.bot) for s in table.seats] == [
            ("Ann", None), ("Bo", "random"), ("Cy", "easy")]
        assert table.view(HUMAN).phase != "game_over"
        assert sum(isinstance(s, TableScreen) for s in app.screen_stack) == 1


async def test_a_shared_tables_game_over_has_no_play_again(tmp_path: Path) -> None:
    finished = finished_table([SeatSpec("Ann"), SeatSpec("Bo")])
    app = RummyApp(AppEnvironment(table=finished, seat=HUMAN, player_name="Ann",
                                  drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert not isinstance(app.screen, GameOverAgainScreen)
