"""An ordinary move redraws what changed and lays nothing out again: a layout of the
screen costs a whole reflow and a redraw of every pane that moved, on every screen at the
table (a check after each move once made every draw and discard lay out every screen
again, most of a move's cost over SSH)."""

from __future__ import annotations

from app_driver import HUMAN, at_table, table_screen, wait_until
from table_rig import rig

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.table import TableScreen
from tui.engine.ruleset.loader import load_ruleset
from tui.service.table import SeatSpec, Table


async def test_a_draw_and_a_discard_lay_the_table_out_no_more() -> None:
    table = Table(load_ruleset("three_thirteen"),
                  [SeatSpec("Tess"), SeatSpec("Ada", "random"), SeatSpec("Ben", "random"),
                   SeatSpec("Cy", "random")], seed=3)
    rig(table.game, ["2C 7D KH", "4C 8D QH", "5C 9D JH", "6C 10D AH"], discard="4S",
        stock_top="9S", turn=HUMAN)  # nothing melds: a plain draw and discard
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, drive_bots=False))
    layouts: list[object] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        assert isinstance(screen, TableScreen) and screen.view_now.my_turn
        await pilot.pause()
        screen.screen_layout_refresh_signal.subscribe(screen.query_one("#prompt"),
                                                      layouts.append, immediate=True)
        before = len(table.view(HUMAN).log)
        for key in ("s", "d"):  # the stock's top card, then the card under the cursor
            await pilot.press(key)
            await wait_until(pilot, lambda seen=before: at_table(app)
                             and len(screen.view_now.log) > seen)
            before = len(screen.view_now.log)
            await pilot.pause()
        assert table.view(HUMAN).turn != HUMAN  # the turn passed: the next pane lit up
        assert screen.query_one("#seat-1").has_class("-turn")
        assert layouts == []
