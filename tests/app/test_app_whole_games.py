"""Whole games through the app, by keys, at 80×24: every bundled and every cookbook
ruleset is played to its game-over screen, and a repeating schedule (a point limit) is
played past its last row.

The person plays seat 0 by keys; the other seats are easy bots that move at once.  The
default suite plays a repeating schedule past its end; the `slow` tests (`pytest -m slow
tests/app/test_app_whole_games.py`) play every ruleset from its last deal (for a point
limit: the first deal past the schedule; the earlier deals played by the engine alone with
bots in every seat) to the game-over screen, and every ruleset's whole game by keys.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import at_table, make_env, play_round_by_keys, table_screen, view, wait_until

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.summary import GameOverScreen, RoundSummaryScreen
from tui.app.screens.table import TableScreen
from tui.app.settings import Settings, SettingsStore
from tui.bots import make_bot
from tui.engine.ruleset.loader import list_rulesets, load_ruleset
from tui.service.table import SeatSpec, Table

REPO = Path(__file__).resolve().parents[2]
BUNDLED = [info.key for info in list_rulesets() if info.bundled and info.error is None]
COOKBOOK = sorted(str(p.relative_to(REPO)) for p in (REPO / "rulesets" / "cookbook").glob("*.yaml"))
EVERY = BUNDLED + COOKBOOK


def _rules(key: str):  # noqa: ANN202
    return load_ruleset(REPO / key if key.endswith(".yaml") else key)



def _players(rules_key: str) -> int:
    return max(_rules(rules_key).players_min, 2)


def _table_at_late_deal(rules_key: str, seed: int) -> Table:
    """A table whose earlier deals the engine has played with bots in every seat, now at
    the schedule's last deal (a point limit: the first deal past the schedule)."""
    rules = _rules(rules_key)
    players = _players(rules_key)
    seats = [SeatSpec("Tess")] + [SeatSpec(f"Bot{i}", "easy") for i in range(1, players)]
    table = Table(rules, seats, seed=seed, record=False)
    target = len(rules.rounds) + (1 if rules.end.point_limit is not None else 0)
    stand_in = make_bot("easy", seed)
    game = table.game
    while game.round.number < target and game.phase != "game_over":
        if game.phase == "round_over":
            table.next_round()
        elif table.bot_to_move() is not None:
            table.step_bot()
        else:
            table.act(0, stand_in.choose(game.view(0)))
    return table


def _app_at(tmp_path: Path, table: Table) -> RummyApp:
    store = SettingsStore(tmp_path / "settings.json")
    store.save(Settings(name="Tess", bot_speed="instant"))
    return RummyApp(AppEnvironment(settings_store=store, save_path=tmp_path / "game.json",
                                   table=table, seat=0))


async def _play_to_the_end(pilot, app: RummyApp, max_deals: int = 40) -> list[int]:  # noqa: ANN001
    """Play deal after deal by keys until the game-over screen; the deals seen."""
    deals: list[int] = []
    for _ in range(max_deals):
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen | GameOverScreen))
        if isinstance(app.screen, GameOverScreen):
            return deals
        deals.append(view(app).deal)
        await play_round_by_keys(pilot, app)
        if isinstance(app.screen, RoundSummaryScreen):
            await pilot.press("enter")
    raise AssertionError(f"no game over after {max_deals} deals: {deals}")


async def test_a_repeating_schedule_plays_on_past_its_last_row(tmp_path) -> None:
    """A one-row schedule under a point limit: deal 2 plays row 1 again (the table used
    to raise IndexError as soon as it drew deal 2)."""
    table = _table_at_late_deal("rulesets/cookbook/rummy_to_100.yaml", seed=3)
    app = _app_at(tmp_path, table)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        second = view(app)
        assert (second.deal, second.schedule_round) == (2, 1)
        assert table_screen(app).query_one("#roundbar").render().plain.startswith(" Deal 2 ")
        await wait_until(pilot, lambda: view(app).my_turn)
        before = len(table.game.history)
        await pilot.press("s")  # draw, then discard: the hand is drawn with deal 2's wilds
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        mine = [a.kind for a in table.game.history[before:] if a.seat == 0]
        assert mine[:2] == ["draw_stock", "discard"]
        assert isinstance(app.screen, TableScreen)


@pytest.mark.slow  # 3-110 s a ruleset: contract games' last deals are long
@pytest.mark.parametrize("rules_key", EVERY)
async def test_the_last_deals_are_played_by_keys_to_the_game_over_screen(
        tmp_path, rules_key: str) -> None:
    table = _table_at_late_deal(rules_key, seed=5)
    rules = table.rules
    start = table.view(0).deal
    app = _app_at(tmp_path, table)
    async with app.run_test(size=(80, 24)) as pilot:
        deals = await _play_to_the_end(pilot, app)
        final = table.view(0)
    assert final.phase == "game_over" and final.winners
    assert deals[0] == start and len(final.results) == final.deal
    if rules.end.point_limit is not None:  # played on past the schedule's last row
        assert start > len(rules.rounds)
        assert final.deal == rules.end.max_rounds or max(p.total for p in final.players) \
            >= rules.end.point_limit
    elif rules.per_player:  # Phase 10: over when someone has made the last phase
        assert max(table.game.phases_made) == len(rules.rounds) \
            or final.deal == rules.end.max_rounds
    else:
        assert final.deal == len(rules.rounds)


@pytest.mark.slow  # minutes a ruleset
@pytest.mark.parametrize("rules_key", EVERY)
async def test_a_whole_game_is_played_by_keys_at_80x24(tmp_path, rules_key: str) -> None:
    app = RummyApp(make_env(tmp_path, rules_key, players=_players(rules_key), bots=("easy",),
                            seed=9))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        table = table_screen(app).table
        deals = await _play_to_the_end(pilot, app)
        final = table.view(0)
    assert final.phase == "game_over" and deals == list(range(1, final.deal + 1))
