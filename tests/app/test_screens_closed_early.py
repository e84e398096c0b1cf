"""A screen closed before its mount is handled (Esc pressed as it opens on a loaded
machine, a session ending) must not run its mount on widgets already gone: found as
`NoMatches '#editor-title'` in the rules editor, under load; the same race was open in
every screen that queries its widgets when mounted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from app_driver import make_env, wait_until
from textual.screen import Screen

from tui.app.app import RummyApp
from tui.app.screens.new_game import NewGameScreen
from tui.app.screens.pickers import ConfirmScreen, PickScreen
from tui.app.screens.records import RecordsScreen
from tui.app.screens.rules import RulesScreen


@pytest.mark.parametrize("make", [
    RulesScreen, NewGameScreen, RecordsScreen,
    lambda: PickScreen("Which?", [(0, "this"), (1, "that")]),
    lambda: ConfirmScreen("Sure?", "Really.", "yes", "no")],
    ids=["rules", "new-game", "records", "picker", "confirm"])
async def test_a_screen_closed_before_its_mount_is_left_alone(
        tmp_path: Path, make: Callable[[], Screen[object]]) -> None:
    app = RummyApp(make_env(tmp_path, rules=None))
    async with app.run_test(size=(100, 30)) as pilot:
        shown = list(app.screen_stack)
        for _ in range(3):
            app.push_screen(make())
            app.pop_screen()  # before its Mount is handled
            await pilot.pause()
        await wait_until(pilot, lambda: app.screen_stack == shown)
    assert app.return_code in (None, 0)



@pytest.mark.parametrize("make", [RulesScreen, NewGameScreen, RecordsScreen],
                         ids=["rules", "new-game", "records"])
async def test_a_screen_opened_again_at_once_after_closing_it(
        tmp_path: Path, make: Callable[[], Screen[object]]) -> None:
    """Found under load: Esc then the same menu key at once opened a second screen while
    the first was still being taken down, and both had one id (`DuplicateIds`)."""
    app = RummyApp(make_env(tmp_path, rules=None))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(make())
        app.pop_screen()
        app.push_screen(make())  # the first one's removal is still under way
        await wait_until(pilot, lambda: isinstance(app.screen, make))
        await pilot.pause()
    assert app.return_code in (None, 0)
