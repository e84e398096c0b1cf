"""Pictures of the table (SVG snapshots in tests/app/snapshots/): every bundled game at
80×24 and 160×48, in a dark theme, a light theme and ASCII mode.

Deterministic: a seeded table whose bots are stepped by the test before the app opens (so
no pane is lit by a move just made), the terminal said to show true colour (so the theme's
own colours are drawn, not a 16-colour stand-in), and the penalty worked out before the
picture is taken.

Update after an intended change: pytest tests/app/test_table_snapshots.py --snapshot-update
"""

from __future__ import annotations

import pytest
from app_driver import HUMAN, wait_until

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.table import TableScreen
from tui.app.settings import Settings, SettingsStore
from tui.engine.actions import Discard, DrawStock, GoOut, LayDown, LayOff, PassBuy
from tui.engine.ruleset.loader import list_rulesets, load_ruleset
from tui.service.interface import SeatSpec
from tui.service.table import Table

BUNDLED = sorted(info.key for info in list_rulesets() if info.bundled and info.error is None)
LOOKS = {  # name: (theme, card style)
    "dark": ("textual-dark", "unicode"),
    "light": ("textual-light", "unicode"),
    "ascii": ("textual-dark", "ascii"),
}
SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


# the user folder under tmp_path and a true-colour terminal (tests/app/conftest.py)
pytestmark = pytest.mark.usefixtures("truecolor_terminal")


def _mid_deal(rules: str) -> Table:
    """A deal some turns in, the person to play: melds on the table where the bots made
    them, a discard pile, a log."""
    players = 3 if rules.startswith("three_thirteen") else 4
    seats = [SeatSpec("Tess")] + [SeatSpec(name, "easy")
                                  for name in ("Ada", "Ben", "Cleo")[:players - 1]]
    table = Table(load_ruleset(rules), seats, seed=11, record=False)
    turns = 0
    for _ in range(2000):
        if table.view(HUMAN).phase == "round_over":  # a short deal ended: play the next
            table.next_round()
            turns = 0
            continue
        if table.bot_to_move() is not None:
            table.step_bot()
            continue
        view = table.view(HUMAN)
        if view.phase == "draw":
            if turns == 4:
                table.act(HUMAN, next(a for a in view.legal if isinstance(a, DrawStock)))
                while table.bot_to_move() is not None:  # the others may buy what I passed
                    table.step_bot()
                return table
            turns += 1
        for kind in (PassBuy, GoOut, LayDown, LayOff, DrawStock, Discard):
            chosen = [a for a in view.legal if isinstance(a, kind)]
            if chosen:
                table.act(HUMAN, chosen[-1])
                break
    raise AssertionError("no deal reached its fifth turn")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("rules", BUNDLED)
def test_table(snap_compare, tmp_path, rules: str, look: str, size: str) -> None:  # noqa: ANN001
    theme, cards = LOOKS[look]
    store = SettingsStore(tmp_path / "settings.json")
    store.save(Settings(name="Tess", theme=theme, card_style=cards, bot_speed="instant"))
    app = RummyApp(AppEnvironment(settings_store=store, table=_mid_deal(rules), seat=HUMAN,
                                  drive_bots=False))

    async def run_before(pilot) -> None:  # noqa: ANN001
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                         and app.screen.caught_up)  # (its view is read in a worker)
        await pilot.press("right", "space")  # the second card selected
        await app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
