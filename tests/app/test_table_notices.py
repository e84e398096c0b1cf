"""Issue 33: notices covered what the player must read (at 80×24 the "Not saving" toast
over the "May I? Buy …" prompt, "Not allowed" over the opponents' melds; at 160×48 a toast
over the score sheet's header).  A notice at the table is written in its notice line,
under the prompt, and covers nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import at_table, make_env, past_the_bots, wait_until
from textual.widgets import Static

from tui.app.app import RummyApp


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_a_notice_at_the_table_covers_nothing_the_player_needs(
        tmp_path: Path, size: tuple[int, int]) -> None:
    app = RummyApp(make_env(tmp_path, "contract_rummy", players=3, seed=4, drive_bots=False))
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = await past_the_bots(pilot, app)
        await wait_until(pilot, lambda: at_table(app) and screen.view_now.my_turn
                         and screen.view_now.phase == "draw")
        await pilot.press("d")  # discard before drawing: refused, with the rule
        notice = screen.query_one("#notice", Static)
        await wait_until(pilot, lambda: notice.display and notice.region.height > 0)
        assert "Not allowed" in str(notice.render())
        assert any(n.title == "Not allowed" for n in app._notifications)
        needed = ["#prompt", "#me", "#stock", "#discard", "#opponents", "#keys"]
        if size[0] >= 100:
            needed.append("#scores")
        for part in needed:
            region = screen.query_one(part).region
            assert not region.overlaps(notice.region), (part, region, notice.region)
        from textual.widgets._toast import Toast

        assert not [t for t in screen.query(Toast) if t.region.area]  # no toast over it


async def test_the_record_notice_at_game_over_leaves_the_tabs_in_sight(tmp_path: Path) -> None:
    """Issue 33: at game over "Recorded as game #1" covered the tab bar."""
    from textual.widgets import Tabs
    from textual.widgets._toast import Toast

    from tui.app.environment import AppEnvironment
    from tui.app.screens.summary import GameOverScreen
    from tui.engine.ruleset.loader import load_ruleset
    from tui.service.table import SeatSpec, Table

    table = Table(load_ruleset("three_thirteen"), [SeatSpec("Ann"), SeatSpec("Bo", "random")],
                  seed=3, record=False)
    while True:
        view = table.view(0)
        if view.phase == "round_over":
            table.next_round()
        elif table.bot_to_move() is not None:
            table.step_bot()
        elif view.phase == "game_over":
            break
        else:
            table.act(0, view.legal[0])
    app = RummyApp(AppEnvironment(table=table, seat=0, player_name="Ann", drive_bots=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        app.notify("Recorded as game #1 (g in the menu).", title="Records", timeout=30)
        await wait_until(pilot, lambda: bool(list(app.screen.query(Toast))))
        await pilot.pause()
        tabs = app.screen.query_one(Tabs).region
        for toast in app.screen.query(Toast):
            assert not toast.region.overlaps(tabs), (toast.region, tabs)
