"""Issue 33: the score sheet's log wrote engine card codes (`Ada took 9D…`, `discarded
KC`) where the table writes `9♦` (or plain letters with that card style)."""

from __future__ import annotations

import re
from pathlib import Path

from app_driver import at_table, make_env, table_screen, wait_until

from tui.app.app import RummyApp
from tui.app.screens.scores import ScoresScreen
from tui.app.widgets.gamelog import GameLog

ENGINE_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


async def test_the_score_sheets_log_writes_cards_as_the_table_does(tmp_path: Path) -> None:
    app = RummyApp(make_env(tmp_path, "three_thirteen", players=3, seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app) and table_screen(app).view_now.my_turn)
        await pilot.press("s")  # a draw, then a discard: "Tess discarded …"
        await wait_until(pilot, lambda: at_table(app) and table_screen(app).view_now.phase
                         == "play")
        await pilot.press("d")
        await wait_until(pilot, lambda: at_table(app) and any(
            "discarded" in e.text for e in table_screen(app).view_now.log))
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, ScoresScreen))
        await pilot.pause()
        text = str(app.screen.query_one(GameLog).query_one("Static").render())
    assert "turned up" in text and "discarded" in text and not ENGINE_CODE.search(text), text
    assert any(suit in text for suit in "♣♦♥♠")
