"""Playing through the app as a person would: keys only, at 80×24 and larger."""

from __future__ import annotations

import pytest
from app_driver import (
    HUMAN,
    at_table,
    make_env,
    play_round_by_keys,
    table_screen,
    view,
    wait_until,
)

from tui.app.app import RummyApp
from tui.app.screens.menu import MenuScreen
from tui.app.screens.summary import RoundSummaryScreen
from tui.app.screens.table import TableScreen
from tui.app.widgets.hand import HandView
from tui.engine.ruleset.loader import list_rulesets

BUNDLED = [info.key for info in list_rulesets() if info.bundled and info.error is None]



@pytest.mark.parametrize("rules", BUNDLED)
async def test_a_full_round_by_keys_at_80x24(tmp_path, rules: str) -> None:
    players = 3 if rules != "three_thirteen" else 2
    app = RummyApp(make_env(tmp_path, rules, players=players, bots=("easy",), seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        first = view(app)
        assert first.deal == 1
        ended = await play_round_by_keys(pilot, app)
        assert ended.phase in ("round_over", "game_over")
        assert len(ended.results) == 1
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: at_table(app))
        assert view(app).deal == 2
        assert view(app).scores == ended.scores


async def test_bot_moves_are_logged_and_highlighted(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "three_thirteen", players=3, seed=5, speed="fast"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: at_table(app))

        def bot_moves() -> list:
            return [e for e in view(app).log
                    if e.seat not in (HUMAN, -1) and e.kind in ("draw", "take", "discard")]

        if view(app).my_turn:  # let the bots have a turn
            await pilot.press("s", "d")
        await wait_until(pilot, lambda: bool(bot_moves()), step=0.01)
        await pilot.pause()
        screen = table_screen(app)
        event = bot_moves()[-1]
        pane = screen.query_one(f"#seat-{event.seat}")
        assert pane.has_class("-acted")  # lit up for a moment
        shown = str(screen.query_one("#log").render()).replace("\n", "")  # lines wrap
        assert f"● {screen.card_words()(event.text)}" in shown  # fresh, with a bullet


async def test_illegal_action_is_explained_with_its_rule(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=3))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await wait_until(pilot, lambda: view(app).my_turn and view(app).phase == "draw")
        before = view(app)
        await pilot.press("d")  # discard before drawing
        await pilot.pause()
        after = view(app)
        assert len(after.hand) == len(before.hand) and after.phase == "draw"
        messages = [n.message for n in app._notifications]
        assert any("draw first" in m and "Rule: turn: draw" in m for m in messages), messages


async def test_resume_after_quit_continues_exactly(tmp_path) -> None:
    env = make_env(tmp_path, "contract_rummy", players=3, seed=21)
    app = RummyApp(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await wait_until(pilot, lambda: view(app).my_turn and view(app).phase == "draw")
        await pilot.press("s")
        await pilot.pause()
        saved = view(app)
        assert saved.phase == "play"
        await pilot.press("q")  # back to the menu: the game is kept
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
    assert env.save_path is not None and env.save_path.exists()

    again = RummyApp(make_env(tmp_path, None))
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(again.screen, MenuScreen))
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(again.screen, TableScreen))
        resumed = view(again)
        assert [c.uid for c in resumed.hand] == [c.uid for c in saved.hand]
        assert resumed.phase == saved.phase and resumed.turn == saved.turn
        assert [e.text for e in resumed.log] == [e.text for e in saved.log]
        assert table_screen(again).hand.new == set()  # nothing "new" after resuming


async def test_resize_keeps_the_table_whole(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "liverpool", players=4, seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        for width, height in ((80, 24), (120, 40), (100, 30), (70, 20), (160, 50), (80, 24)):
            await pilot.resize_terminal(width, height)
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert screen.has_class("-narrow") == (width < 100)
            hand = screen.query_one(HandView)
            region = hand.region
            tall = height >= 34
            assert hand.has_class("-tall") == tall
            assert region.width > 0 and region.height == (7 if tall else 5), (width, height)
            assert region.right <= width and region.bottom <= height
            keys = screen.query_one("#keys").region
            assert keys.bottom == height and keys.y > region.y
            sidebar = screen.query_one("#sidebar")
            assert sidebar.display == (width >= 100) or not sidebar.region.width
            lines = [str(line) for line in hand.render().split()]
            assert sum(line.count("╭") for line in lines) == len(view(app).hand)


async def test_undo_takes_back_my_last_move_of_this_turn(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=8, drive_bots=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        table = table_screen(app).table
        while table.bot_to_move() is not None:
            table.step_bot()
        await pilot.pause()
        before = view(app)
        assert before.my_turn and before.phase == "draw"
        await pilot.press("s")
        await wait_until(pilot, lambda: at_table(app) and view(app).phase == "play")
        drawn = view(app)
        await pilot.press("d")
        await wait_until(pilot, lambda: at_table(app) and len(view(app).log) > len(drawn.log))
        await pilot.press("u")  # the discard comes back; the card from the stock stays
        await wait_until(pilot, lambda: at_table(app) and view(app).phase == "play")
        after = view(app)
        assert sorted(c.uid for c in after.hand) == sorted(c.uid for c in drawn.hand)
        assert len(after.log) == len(drawn.log)
        assert not table.can_undo(0)


async def test_two_players_share_one_table(tmp_path) -> None:
    """Two apps (as over SSH) at one in-memory table: each sees the other's moves."""
    from tui.app.environment import AppEnvironment
    from tui.engine.ruleset.loader import load_ruleset
    from tui.service.interface import SeatSpec
    from tui.service.table import Table

    table = Table(load_ruleset("three_thirteen"), [SeatSpec("Ann"), SeatSpec("Bo"),
                                                   SeatSpec("Cy", "random")], seed=12)
    apps = [RummyApp(AppEnvironment(table=table, seat=seat, player_name=name,
                                    drive_bots=seat == 0))
            for seat, name in ((0, "Ann"), (1, "Bo"))]
    async with apps[0].run_test(size=(80, 24)) as pilot0, \
            apps[1].run_test(size=(100, 30)) as pilot1:
        pilots = (pilot0, pilot1)
        for app, pilot in zip(apps, pilots, strict=True):
            await wait_until(pilot, lambda app=app: isinstance(app.screen, TableScreen))
        for _ in range(6):  # a few human turns each, by keys, in whoever's app
            await wait_until(pilot0, lambda: table.view(0).my_turn or table.view(1).my_turn)
            seat = 0 if table.view(0).my_turn else 1
            log_before = len(table.view(seat).log)
            await pilots[seat].press("s", "d")
            await pilots[seat].pause()
            assert len(table.view(seat).log) >= log_before + 2
            other = 1 - seat
            await wait_until(pilots[other], lambda other=other, want=log_before + 2: len(
                table_screen(apps[other]).view_now.log) >= want)
        assert table_screen(apps[1]).view_now.seat == 1
        assert apps[0].settings.name == "Ann" and apps[1].settings.name == "Bo"


async def test_game_over_shows_standings_and_chart(tmp_path) -> None:
    from tui.app.environment import AppEnvironment
    from tui.app.screens.summary import GameOverScreen
    from tui.app.widgets.chart import TotalsChart
    from tui.engine.actions import Discard, DrawStock, GoOut
    from tui.engine.ruleset.loader import load_ruleset
    from tui.service.interface import SeatSpec
    from tui.service.table import Table

    table = Table(load_ruleset("three_thirteen"), [SeatSpec("Tess"), SeatSpec("Bo", "random")],
                  seed=30)
    for _ in range(20000):
        v = table.view(HUMAN)
        if v.phase == "game_over":
            break
        if v.phase == "round_over":
            table.next_round()
        elif table.bot_to_move() is not None:
            table.step_bot()
        else:
            options = ([a for a in v.legal if isinstance(a, GoOut)]
                       or [a for a in v.legal if isinstance(a, DrawStock)]
                       or [a for a in v.legal if isinstance(a, Discard)])
            table.act(HUMAN, options[0])
    final = table.view(HUMAN)
    assert final.phase == "game_over"
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        chart = app.screen.query_one(TotalsChart)
        assert [len(s) for s in chart.series] == [len(final.scores)] * 2
        text = str(app.screen.query_one(".summary-sub").render())
        winner = final.players[final.winners[0]].name
        assert ("You" in text) if HUMAN in final.winners else (winner in text)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_buying_when_nothing_is_offered_is_refused_with_the_rule(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "liverpool", players=3, seed=8, drive_bots=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        table = table_screen(app).table
        while not view(app).my_turn or view(app).phase == "buy":
            if view(app).my_turn:
                await pilot.press("n")
            else:
                table.step_bot()
            await pilot.pause()
        if view(app).phase == "draw":
            await pilot.press("s")
        while table.bot_to_move() is not None:  # others may buy the card I passed over
            table.step_bot()
            await pilot.pause()
        before = view(app)
        assert before.phase == "play"
        for key in ("b", "n"):
            await pilot.press(key)
            await pilot.pause()
        after = view(app)
        assert after.discard == before.discard and after.hand == before.hand
        messages = [n.message for n in app._notifications]
        assert any("no discard is being offered" in m and "Rule: buying" in m
                   for m in messages), messages
