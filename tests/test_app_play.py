"""Playing through the app as a person would: keys only, at 80×24 and larger."""

from __future__ import annotations

import pytest
from app_driver import (
    HUMAN,
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
from tui.engine.ruleset_loader import list_rulesets

BUNDLED = [info.key for info in list_rulesets() if info.bundled and info.error is None]


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):  # noqa: ANN001, ANN202
    monkeypatch.setenv("RUMMY_HOME", str(tmp_path / "home"))


@pytest.mark.parametrize("rules", BUNDLED)
async def test_a_full_round_by_keys_at_80x24(tmp_path, rules: str) -> None:
    players = 3 if rules != "three_thirteen" else 2
    app = RummyApp(make_env(tmp_path, rules, players=players, seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        first = view(app)
        assert first.round_number == 1
        ended = await play_round_by_keys(pilot, app)
        assert ended.phase in ("round_over", "game_over")
        assert len(ended.results) == 1
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert view(app).round_number == 2
        assert view(app).scores == ended.scores


async def test_bot_moves_are_logged_and_highlighted(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "three_thirteen", players=3, seed=5))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await wait_until(pilot, lambda: any(e.seat not in (HUMAN, -1) for e in view(app).log))
        await pilot.pause(0.1)
        recent = app.screen.query_one("#recent")
        shown = recent.query_one("Static").render()
        bot_event = next(e for e in view(app).log if e.seat not in (HUMAN, -1))
        assert bot_event.text in str(shown)


async def test_illegal_action_is_explained_with_its_rule(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=3))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
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
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
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
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        for width, height in ((80, 24), (120, 40), (100, 30), (70, 20), (160, 50), (80, 24)):
            await pilot.resize_terminal(width, height)
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert screen.has_class("-narrow") == (width < 100)
            hand = screen.query_one(HandView)
            region = hand.region
            assert region.width > 0 and region.height == 5, (width, height, region)
            assert region.right <= width and region.bottom <= height
            keys = screen.query_one("#keys").region
            assert keys.bottom == height and keys.y > region.y
            sidebar = screen.query_one("#sidebar")
            assert sidebar.display == (width >= 100) or not sidebar.region.width
            lines = [str(line) for line in hand.render().split()]
            assert sum(line.count("╭") for line in lines) == len(view(app).hand)
