"""Phase 10 at the table (`progression: per_player`), as a player sees it through the app:
the hand's title and the prompt name the player's own phase, the score sheet marks who made
their phase in each deal and says the phase each player is on, the deal summary says who
made theirs; and a picture of the table at 80×24 (tests/app/snapshots/).

Update the picture after an intended change:
pytest tests/app/test_phase10_table.py --snapshot-update"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from app_driver import HUMAN, screen_text, wait_until

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.scores import ScoresScreen
from tui.app.screens.summary import RoundSummaryScreen
from tui.app.screens.table import TableScreen
from tui.app.settings import Settings, SettingsStore
from tui.bots import make_bot
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset
from tui.service.interface import SeatSpec
from tui.service.table import Table

PHASE10 = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "phase10.yaml"
NAMES = ("Tess", "Ada", "Ben")


# the user folder under tmp_path and a true-colour terminal (tests/app/conftest.py)
pytestmark = pytest.mark.usefixtures("truecolor_terminal")


def _game_after_deal_one(seed: int = 5, end_of_deal: bool = False) -> Game:
    """Phase 10 for three, its first deal played by medium bots; then (unless
    `end_of_deal`) the second dealt and played until Tess is to draw."""
    game = Game(load_ruleset(PHASE10), list(NAMES), seed)
    bots = [make_bot("medium", seat) for seat in range(len(NAMES))]
    while game.phase != "round_over":
        game.apply(bots[game.actor].choose(game.view(game.actor)))
    if end_of_deal:
        return game
    game.next_round()
    while game.actor != HUMAN:
        game.apply(bots[game.actor].choose(game.view(game.actor)))
    return game


def _app(tmp_path: Path, game: Game) -> RummyApp:
    store = SettingsStore(tmp_path / "settings.json")
    store.save(Settings(name="Tess", theme="textual-dark", card_style="unicode",
                        bot_speed="instant"))
    seats = [SeatSpec("Tess")] + [SeatSpec(name, "medium") for name in NAMES[1:]]
    table = Table(game.rules, seats, game=game, record=False)
    return RummyApp(AppEnvironment(settings_store=store, table=table, seat=HUMAN,
                                   drive_bots=False))


def test_the_first_deal_of_seed_5_is_made_by_some_and_missed_by_others() -> None:
    """(The tests below rely on a deal one player made and another did not.)"""
    made = _game_after_deal_one(end_of_deal=True).results[-1].made
    assert True in made and False in made


async def test_the_table_names_my_phase_and_the_score_sheet_who_made_theirs(tmp_path) -> None:  # noqa: ANN001
    game = _game_after_deal_one()
    made = game.results[-1].made
    app = _app(tmp_path, game)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                         and app.screen.caught_up)
        mine = 1 + made[HUMAN]
        text = screen_text(app)
        assert f"phase {mine}" in text  # the hand's title
        assert f"your phase {mine} of 10" in text  # the deal line
        for seat in (1, 2):
            assert f"phase {1 + made[seat]}" in text
        sheet = next(line for line in text.splitlines() if " Ph " in line)
        assert [int(w) for w in sheet.split()[-3:]] == [1 + m for m in made]
        deal_one = next(line for line in text.splitlines() if re.search(r"▏\s+1\s", line))
        assert deal_one.count("✓") == sum(made)
        await pilot.press("s")  # draw: now the prompt asks for my phase
        await wait_until(pilot, lambda: "lay down your phase" in screen_text(app))
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, ScoresScreen))
        await pilot.pause()
        assert any(" Ph " in line for line in screen_text(app).splitlines())


async def test_the_deal_summary_says_who_made_their_phase(tmp_path) -> None:  # noqa: ANN001
    game = _game_after_deal_one(end_of_deal=True)
    made = game.results[-1].made
    app = _app(tmp_path, game)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen | TableScreen))
        if isinstance(app.screen, TableScreen):
            await wait_until(pilot, lambda: app.screen.caught_up)
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        await pilot.pause()
        text = screen_text(app)
        for seat, name in enumerate(("You", "Ada", "Ben")):
            line = next(line for line in text.splitlines()
                        if name in line and ("still on phase" in line or "made phase" in line))
            assert ("made phase 1" if made[seat] else "still on phase 1") in line


def test_a_schedule_game_has_no_phase_row(tmp_path) -> None:  # noqa: ANN001
    from tui.app.widgets.scoresheet import score_table

    plain = score_table(["a", "b"], [(5, 0)], [5, 0], True)
    assert len(plain.columns[0]._cells) == 2  # a deal and the total, no phase row
    marked = score_table(["a", "b"], [(5, 0)], [5, 0], True, made=[(False, True)],
                         phases=[1, 2])
    assert [c for c in marked.columns[2]._cells][:1] == ["✓0"]
    assert len(marked.columns[0]._cells) == 3


def test_phase10_table_80x24(snap_compare, tmp_path) -> None:  # noqa: ANN001
    app = _app(tmp_path, _game_after_deal_one())

    async def run_before(pilot) -> None:  # noqa: ANN001
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                         and app.screen.caught_up)
        await app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
