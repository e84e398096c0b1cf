"""Input a player must never lose at the table: keys that go where the player means
wherever focus is, games not thrown away unasked, undo that stays in the deal, pickers that
offer only what can be chosen, and a key bar that answers clicks."""

from __future__ import annotations

from app_driver import at_table, make_env, table_screen, view, wait_until

from tui.app.app import RummyApp
from tui.app.screens.table import TableScreen
from tui.app.widgets.gamelog import LogTail
from tui.app.widgets.keybar import KeyBar
from tui.engine.actions import Discard


async def _bots_until_my_turn(pilot, app) -> None:  # noqa: ANN001
    table = table_screen(app).table
    while table.bot_to_move() is not None:
        table.step_bot()
    await pilot.pause()


async def test_end_then_d_discards_the_last_card_even_when_the_log_is_full(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "contract_rummy", players=4, seed=3, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        recent = screen.query_one("#recent", LogTail)
        for _ in range(6):  # a few whole turns round the table: the log overflows
            await _bots_until_my_turn(pilot, app)
            await pilot.press("s", "d")
            await pilot.pause()
        await _bots_until_my_turn(pilot, app)
        await pilot.pause()
        assert len(view(app).deal_events()) > recent.size.height  # more lines than fit
        await pilot.press("s", "home")
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        last = screen.hand.hand[-1]
        before = len(view(app).log)
        await pilot.press("d")
        await pilot.pause()
        gone = [a for a in table_screen(app).table.game.history[-1:] if isinstance(a, Discard)]
        assert len(view(app).log) > before and gone and gone[0].card.uid == last.uid


async def test_clicking_a_key_in_the_key_bar_runs_it(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=8, drive_bots=False))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await _bots_until_my_turn(pilot, app)
        before = view(app)
        assert before.phase == "draw"
        bar = table_screen(app).query_one(KeyBar)
        await pilot.pause()
        spot = next(s for s in bar._spots if s[3] == "draw_stock")
        await pilot.click(KeyBar, offset=(spot[1] + 1, spot[0]))
        await pilot.pause()
        assert view(app).phase == "play" and len(view(app).hand) == len(before.hand) + 1


async def _start_from_menu(pilot, app: RummyApp, seed: str) -> None:  # noqa: ANN001
    from textual.widgets import Input, Select

    from tui.app.screens.new_game import NewGameScreen

    await pilot.press("n")
    await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.ready)
    app.screen.query_one("#ruleset", Select).value = "three_thirteen"
    await wait_until(pilot, lambda: app.screen.ready)  # (the rules are read in a worker)
    app.screen.query_one("#players", Select).value = 2
    app.screen.query_one("#seed", Input).value = seed
    await pilot.pause()
    await pilot.press("ctrl+s")


async def test_a_new_game_asks_before_replacing_the_game_in_progress(tmp_path) -> None:
    from tui.app.screens.menu import MenuScreen
    from tui.app.screens.pickers import ConfirmScreen

    env = make_env(tmp_path, None)
    app = RummyApp(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await _start_from_menu(pilot, app, "5")
        await wait_until(pilot, lambda: at_table(app))
        first_seed = table_screen(app).table.seed
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        saved = env.save_path.read_text()
        await _start_from_menu(pilot, app, "6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # keep it
        await pilot.pause()
        assert not isinstance(app.screen, TableScreen)
        assert env.save_path.read_text() == saved
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # abandon it
        await wait_until(pilot, lambda: at_table(app))
        assert table_screen(app).table.seed == 6 != first_seed
        from tui.records import default_store

        store = default_store()
        # kept as abandoned (written in the records thread)
        await wait_until(pilot, lambda: store.abandoned_count() == 1)
    assert store.abandoned_count() == 1 and store.count() == 0  # and not as a game played
