"""The first game that teaches, driven by keys as a player would: each step moves on only
on its own key, a wrong key changes nothing and says what to do, the lesson can be left at
any step (the saved game untouched), and it ends back at the menu."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import make_env, wait_until
from textual.pilot import Pilot

from tui.app.app import RummyApp
from tui.app.screens.learn import LearnScreen
from tui.app.screens.menu import MenuScreen
from tui.app.screens.pickers import PickScreen
from tui.app.settings import Settings, SettingsStore
from tui.app.widgets.coach import CoachPanel

SIZE = (80, 24)


def learn_app(tmp_path: Path, lesson: str | None) -> RummyApp:
    env = make_env(tmp_path, None)
    env.lesson = lesson
    return RummyApp(env)


def screen(app: RummyApp) -> LearnScreen:
    assert isinstance(app.screen, LearnScreen), app.screen
    return app.screen


def coach(app: RummyApp) -> tuple[str, str]:
    panel = screen(app).query_one(CoachPanel)
    return str(panel.border_title), str(panel.content)


def on_step(app: RummyApp, number: int) -> bool:
    """The lesson waits on step `number` (from 1), shown by the coach, the table caught up
    and the others done with their moves."""
    if not isinstance(app.screen, LearnScreen):
        return False
    s = app.screen
    return (s.lesson.step == number - 1 and s.caught_up and s.table.bot_to_move() is None
            and f"step {number} of" in str(s.query_one(CoachPanel).border_subtitle))


async def refused(pilot: Pilot, app: RummyApp, *keys: str) -> None:
    """Each of `keys` is answered with the step's nudge and leaves the lesson where it was."""
    s = screen(app)
    for key in keys:
        step, hand = s.lesson.step, s.view_now.hand
        await pilot.press(key)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert s.lesson.step == step and s.view_now.hand == hand, key


async def test_three_thirteen_step_by_step_from_the_menu(tmp_path: Path) -> None:
    app = learn_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        from tui.service.lessons import lesson_keys

        await pilot.press(*["down"] * lesson_keys().index("three_thirteen"), "enter")
        await wait_until(pilot, lambda: on_step(app, 1))
        title, text = coach(app)
        assert title == "Learn Three Thirteen: Drawing" and "press s" in text
        await refused(pilot, app, "d", "t", "o")
        await refused(pilot, app, "t")
        assert "✗ First draw a card: press s" in coach(app)[1]  # said by the coach
        assert not [n.message for n in app._notifications]  # noqa: SLF001 - no notice
        await pilot.press("s")
        await wait_until(pilot, lambda: on_step(app, 2))
        assert "You drew 2♦" in coach(app)[1]  # cards in the table's own style
        assert "✗" not in coach(app)[1]  # a new step, a clean slate
        await refused(pilot, app, "d")  # the cursor is on a 7: keep it
        await pilot.press("end", "d")  # the 2♦ drawn, at the end of the hand
        await wait_until(pilot, lambda: on_step(app, 3))
        assert str(screen(app).view_now.discard[-1]) == "3D"  # Ada's move, from the script
        await refused(pilot, app, "s")
        await pilot.press("t")
        await wait_until(pilot, lambda: on_step(app, 4))
        await pilot.press("o")
        await wait_until(pilot, lambda: screen(app).lesson.finished and screen(app).caught_up
                         and coach(app)[0].endswith("done"))
        assert "Enter shows the scores" in coach(app)[1]
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, LearnScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_contract_rummy_lays_down_lays_off_and_swaps_a_joker(tmp_path: Path) -> None:
    app = learn_app(tmp_path, "contract_rummy")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: on_step(app, 1))
        assert "one set" in coach(app)[1] and screen(app).view_now.deal == 2
        await pilot.press("s")
        await wait_until(pilot, lambda: on_step(app, 2))
        await refused(pilot, app, "l", "w")
        await pilot.press("m")
        await wait_until(pilot, lambda: on_step(app, 3))
        assert len(screen(app).view_now.table) == 2  # the contract: a set and a run
        await pilot.press("home", "d")  # Q♣ is not the card asked for
        await pilot.pause()
        assert screen(app).lesson.step == 2
        cards = [str(c) for c in screen(app).hand.hand]
        await pilot.press("home", *["right"] * cards.index("KH"), "d")
        await wait_until(pilot, lambda: on_step(app, 4))
        assert len(screen(app).view_now.table) == 4  # Ada laid down too
        await pilot.press("s")
        await wait_until(pilot, lambda: on_step(app, 5))

        async def on_card(code: str, key: str) -> None:
            cards = [str(c) for c in screen(app).hand.hand]
            await pilot.press("home", *["right"] * cards.index(code), key)

        await on_card("8C", "l")
        await wait_until(pilot, lambda: on_step(app, 6) or isinstance(app.screen, PickScreen))
        if isinstance(app.screen, PickScreen):  # 8♣ fits the set and the run: which?
            await pilot.press("enter")
        await wait_until(pilot, lambda: on_step(app, 6))
        await on_card("10H", "w")
        await wait_until(pilot, lambda: on_step(app, 7))
        await on_card("JK", "l")
        await wait_until(pilot, lambda: on_step(app, 8) or isinstance(app.screen, PickScreen))
        if isinstance(app.screen, PickScreen):
            await pilot.press("enter")
        await wait_until(pilot, lambda: on_step(app, 8))
        await on_card("QC", "l")
        await wait_until(pilot, lambda: on_step(app, 9))
        await pilot.press("d")
        await wait_until(pilot, lambda: screen(app).lesson.finished and screen(app).caught_up)
        assert screen(app).view_now.phase == "round_over"


@pytest.mark.parametrize("step", [1, 3])
async def test_the_lesson_can_be_left_at_any_step_and_keeps_the_saved_game(
        tmp_path: Path, step: int) -> None:
    saved = tmp_path / "current_game.json"
    saved.write_text("the player's own game")
    app = learn_app(tmp_path, "three_thirteen")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: on_step(app, 1))
        if step == 3:
            await pilot.press("s", "end", "d")
            await wait_until(pilot, lambda: on_step(app, 3))
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await app.workers.wait_for_complete()
    assert saved.read_text() == "the player's own game"


async def test_an_unknown_lesson_is_told_not_a_crash(tmp_path: Path) -> None:
    app = learn_app(tmp_path, "gin_rummy")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert any("no lesson for 'gin_rummy'" in n.message
                   for n in app._notifications)  # noqa: SLF001


def test_a_step_of_the_lesson_at_80x24(snap_compare, tmp_path: Path,  # noqa: ANN001
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLORTERM", "truecolor")  # the theme's own colours, as elsewhere
    store = SettingsStore(tmp_path / "settings.json")
    store.save(Settings(name="Tess", theme="textual-dark", bot_speed="instant"))
    env = make_env(tmp_path, None)
    env.settings_store, env.lesson = store, "three_thirteen"
    app = RummyApp(env)

    async def run_before(pilot: Pilot) -> None:
        await wait_until(pilot, lambda: on_step(app, 1))
        await pilot.press("s")
        await wait_until(pilot, lambda: on_step(app, 2))
        await app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_a_player_over_ssh_learns_from_the_lobby_and_comes_back_to_it() -> None:
    from test_lobby_screen import FAST, one_guest

    from tui.app.screens.lobby import LobbyScreen
    from tui.service.lobby import Lobby

    lobby = Lobby(FAST)
    async with one_guest(lobby, "alice", size=SIZE) as (app, pilot):
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.press("enter")  # contract_rummy
        await wait_until(pilot, lambda: on_step(app, 1))
        assert screen(app).view_now.players[0].name == "alice"
        await pilot.press("s")
        await wait_until(pilot, lambda: on_step(app, 2))
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert lobby.summaries() == []  # a lesson is no lobby table


async def test_liverpool_buys_a_discard_out_of_turn_with_b(tmp_path: Path) -> None:
    app = learn_app(tmp_path, "liverpool")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: on_step(app, 1))
        await pilot.press("s")
        await wait_until(pilot, lambda: on_step(app, 2))
        cards = [str(c) for c in screen(app).hand.hand]
        await pilot.press("home", *["right"] * cards.index("KH"), "d")
        await wait_until(pilot, lambda: on_step(app, 3))
        assert screen(app).view_now.phase == "buy"
        await refused(pilot, app, "n")  # passing is a move, but not this step's
        await pilot.press("b")
        await wait_until(pilot, lambda: on_step(app, 4))
        assert "9H" in [str(c) for c in screen(app).view_now.hand]
        await pilot.press("s")
        await wait_until(pilot, lambda: on_step(app, 5))
        await pilot.press("m")
        await wait_until(pilot, lambda: on_step(app, 6))
        await pilot.press("d")
        await wait_until(pilot, lambda: screen(app).lesson.finished
                         and coach(app)[0] == "Learn Liverpool: done")
        await pilot.press("enter")  # the lesson ended before its deal: Enter leaves
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
