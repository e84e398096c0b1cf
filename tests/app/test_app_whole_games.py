"""Whole games through the app, by keys, at 80×24: every bundled and every cookbook
ruleset is played to its game-over screen, and a repeating schedule (a point limit) is
played past its last row.

The person plays seat 0 by keys; the other seats are quick bots that move at once.  The
quick tests start from a late deal (the earlier deals are played by the rules engine
alone, as bots would), so the default suite stays fast; the `slow` variant plays every
deal through the screen.
"""

from __future__ import annotations

from pathlib import Path

from app_driver import make_env, play_round_by_keys, table_screen, view, wait_until

from tui.app.app import RummyApp
from tui.app.screens.summary import GameOverScreen, RoundSummaryScreen
from tui.app.screens.table import TableScreen
from tui.engine.ruleset.loader import list_rulesets, load_ruleset

REPO = Path(__file__).resolve().parents[2]
BUNDLED = [info.key for info in list_rulesets() if info.bundled and info.error is None]
COOKBOOK = sorted(str(p.relative_to(REPO)) for p in (REPO / "rulesets" / "cookbook").glob("*.yaml"))
REPEATING = [key for key in BUNDLED + COOKBOOK if load_ruleset(REPO / key if key.endswith(
    ".yaml") else key).end.point_limit is not None]



def _players(rules_key: str) -> int:
    rules = load_ruleset(REPO / rules_key if rules_key.endswith(".yaml") else rules_key)
    return max(rules.players_min, 2)


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
    """A one-row schedule under a point limit: deal 2 plays row 1 again (it used to
    raise IndexError as soon as the table drew deal 2)."""
    key = "rulesets/cookbook/rummy_to_100.yaml"
    app = RummyApp(make_env(tmp_path, key, players=2, bots=("easy",), seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await play_round_by_keys(pilot, app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                         and view(app).deal == 2)
        await play_round_by_keys(pilot, app)
        second = view(app)
        assert second.deal == 2 and second.schedule_round == 1
        assert len(second.results) == 2
        assert table_screen(app).query_one("#roundbar").render().plain.startswith(" Deal 2 ")
