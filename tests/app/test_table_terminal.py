"""Terminal conventions at the table: a one-line key bar at 80 columns, summaries that fit
80×24, a clear message below the smallest usable window, ASCII mode, the command palette."""

from __future__ import annotations

import pytest
from app_driver import HUMAN, make_env, table_screen, wait_until

from tui.app.app import RummyApp
from tui.app.screens.table import TableScreen
from tui.app.widgets.keybar import KeyBar, fitting
from tui.engine.actions import Discard, DrawStock, GoOut, LayDown, PassBuy
from tui.engine.ruleset.loader import list_rulesets

BUNDLED = [info.key for info in list_rulesets() if info.bundled and info.error is None]


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):  # noqa: ANN001, ANN202
    monkeypatch.setenv("RUMMY_HOME", str(tmp_path / "home"))


def _my_move(view):  # noqa: ANN001, ANN202
    for kind in (GoOut, LayDown, PassBuy, DrawStock, Discard):
        found = [a for a in view.legal if isinstance(a, kind)]
        if found:
            return found[0]
    return view.legal[0]


@pytest.mark.parametrize("rules", BUNDLED)
async def test_the_key_bar_is_one_line_at_80_columns_with_every_move_of_the_turn(
        tmp_path, rules: str) -> None:  # noqa: ANN001
    app = RummyApp(make_env(tmp_path, rules, players=4 if rules != "three_thirteen" else 3,
                            seed=2, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = table_screen(app)
        table = screen.table
        seen = set()
        for _ in range(60):
            view = table.view(HUMAN)
            if view.phase not in ("draw", "play", "buy"):
                break
            if table.bot_to_move() is not None:
                table.step_bot()
            else:
                await pilot.pause()
                bar = screen.query_one(KeyBar)
                assert bar.region.height == 1 and bar.region.bottom == 24
                shown = fitting(bar.hints, 80)
                assert sum(h.width for h in shown) <= 80
                wanted = {h.action for h in bar.hints if h.rank == 0} | {"help", "leave"}
                assert wanted <= {h.action for h in shown}, (view.phase, bar.hints)
                seen.add(view.phase)
                if view.phase == "play":
                    await pilot.press("space")  # a selection changes the hints too
                    await pilot.pause()
                    assert screen.query_one(KeyBar).region.height == 1
                table.act(HUMAN, _my_move(view))
        assert {"draw", "play"} <= seen


async def test_below_the_smallest_window_the_table_says_how_big_to_make_it(tmp_path) -> None:
    from textual.widgets import Static

    from tui.app.widgets.hand import HandView

    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=8, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = table_screen(app)
        while screen.table.bot_to_move() is not None:
            screen.table.step_bot()
        await pilot.resize_terminal(40, 12)
        await pilot.pause(0.1)
        message = screen.query_one("#too-small", Static)
        assert message.region.width > 0
        assert "at least 70×20" in str(message.render()) and "40×12" in str(message.render())
        assert screen.query_one("#me").styles.display == "none"  # no half-drawn hand
        before = screen.table.view(HUMAN)
        await pilot.press("s")  # nothing is played blind
        await pilot.pause()
        assert screen.table.view(HUMAN).hand == before.hand
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert message.styles.display == "none" and screen.query_one(HandView).region.width > 0
        await pilot.press("s")
        await pilot.pause()
        assert len(screen.table.view(HUMAN).hand) == len(before.hand) + 1


class _Frozen:
    """A table that always shows one moment (a summary reads only `view`)."""

    def __init__(self, view) -> None:  # noqa: ANN001
        self._view = view

    def view(self, seat: int):  # noqa: ANN201
        return self._view


def _whole_game(rules_key: str, players: int, seed: int) -> list:
    """Every deal's end of one game (bots and a first-legal-move person), as views."""
    from tui.engine.ruleset.loader import load_ruleset
    from tui.service.table import SeatSpec, Table

    seats = [SeatSpec("Tess")] + [SeatSpec(f"Bot{i}", "random") for i in range(players - 1)]
    table = Table(load_ruleset(rules_key), seats, seed, record=False)
    ends = []
    for _ in range(100000):
        view = table.view(HUMAN)
        if view.phase in ("round_over", "game_over"):
            ends.append(view)
            if view.phase == "game_over":
                return ends
            table.next_round()
        elif table.bot_to_move() is not None:
            table.step_bot()
        else:
            table.act(HUMAN, _my_move(view))
    raise AssertionError("the game did not end")


async def _fits(pilot, screen) -> None:  # noqa: ANN001
    from textual.widgets import TabbedContent, TabPane

    tabs = screen.query_one(TabbedContent)
    for pane in screen.query(TabPane):
        tabs.active = pane.id
        await pilot.pause()
        assert pane.region.bottom <= 23, pane.id  # above the footer
        assert pane.max_scroll_y == 0 and pane.max_scroll_x == 0, (pane.id, pane.virtual_size)
    title = screen.query_one(".summary-title")
    assert title.region.height == 1


@pytest.mark.slow  # a whole game per ruleset
@pytest.mark.parametrize("rules", BUNDLED)
async def test_every_summary_fits_80x24(tmp_path, rules: str) -> None:  # noqa: ANN001
    from tui.app.cardart import CardStyle
    from tui.app.screens.summary import GameOverScreen, RoundSummaryScreen
    from tui.app.table_session import TableSession
    from tui.engine.ruleset.loader import load_ruleset

    players = min(load_ruleset(rules).players_max, 6)
    ends = _whole_game(rules, players, seed=3)
    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        for view in ends:
            if view.phase == "round_over":
                screen = RoundSummaryScreen(TableSession(_Frozen(view), HUMAN), CardStyle())
            else:
                screen = GameOverScreen(view, CardStyle())
            await app.push_screen(screen)
            await pilot.pause()
            await _fits(pilot, screen)
            app.pop_screen()
            await pilot.pause()
