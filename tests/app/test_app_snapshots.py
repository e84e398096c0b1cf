"""Pictures of the app (SVG snapshots in tests/app/snapshots/): the end-of-deal summary and
the new-game screen (the table itself, in every game, size and look, is in
test_table_snapshots.py).  Fixed seeds, bots stepped by the
test (not on a timer), so every run draws the same screen.

Update after an intended change: pytest tests/app/test_app_snapshots.py --snapshot-update
"""

from __future__ import annotations

import pytest
from app_driver import HUMAN, at_table, make_env, table_screen, wait_until

from tui.app.app import RummyApp
from tui.app.screens.summary import RoundSummaryScreen
from tui.engine.actions import Discard, DrawStock, GoOut


@pytest.fixture(autouse=True)
def _player_is_tess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.app.app._login_name", lambda: "Tess")


def _table_app(tmp_path, rules: str, players: int, seed: int) -> RummyApp:  # noqa: ANN001
    return RummyApp(make_env(tmp_path, rules, players=players, seed=seed, drive_bots=False))


def test_round_summary(snap_compare, tmp_path) -> None:  # noqa: ANN001
    app = _table_app(tmp_path, "three_thirteen", 3, 6)

    async def run_before(pilot) -> None:  # noqa: ANN001
        await wait_until(pilot, lambda: at_table(app))
        table = table_screen(app).table
        for _ in range(500):
            view = table.view(HUMAN)
            if view.phase in ("round_over", "game_over"):
                break
            if table.bot_to_move() is not None:
                table.step_bot()
                continue
            out = [a for a in view.legal if isinstance(a, GoOut)]
            draw = [a for a in view.legal if isinstance(a, DrawStock)]
            discard = [a for a in view.legal if isinstance(a, Discard)]
            table.act(HUMAN, (out or draw or discard)[0])
        await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_new_game_screen(snap_compare, tmp_path) -> None:  # noqa: ANN001
    app = RummyApp(make_env(tmp_path, None))
    assert snap_compare(app, terminal_size=(80, 24), press=["n"])
