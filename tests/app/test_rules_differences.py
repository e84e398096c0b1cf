"""The Rules screen's `d`: how a house ruleset differs from the game it extends, in place
of all its rules, and back."""

from __future__ import annotations

from pathlib import Path

from app_driver import make_env, open_rules, wait_until
from textual.widgets import Static

from tui.app.app import RummyApp


def body(app: RummyApp) -> str:
    return str(app.screen.query_one("#rules-body", Static).content)


async def test_d_shows_how_a_house_ruleset_differs_and_d_again_all_its_rules(
        tmp_path: Path) -> None:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / "long_runs.yaml").write_text(
        "extends: three_thirteen\nname: Long runs\nmelds:\n  run:\n    min: 4\n")
    env = make_env(tmp_path, None)
    env.rulesets_dir = folder
    app = RummyApp(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_rules(pilot, app)
        app.screen.query_one("#rules-choice").value = "long_runs"
        await wait_until(pilot, lambda: app.screen.ready and "Long runs" in body(app))
        assert "Scoring" in body(app)  # all the rules
        await pilot.press("d")
        await wait_until(pilot, lambda: app.screen.ready and "differs" in body(app))
        text = body(app)
        assert text.startswith("How Long runs differs from Three Thirteen")
        assert "melds.run.min: 3 → 4" in text and "Scoring\n---" not in text
        app.screen.query_one("#rules-choice").value = "three_thirteen"
        await wait_until(pilot, lambda: app.screen.ready and "extends no other" in body(app))
        await pilot.press("d")
        await wait_until(pilot, lambda: app.screen.ready and "Scoring" in body(app))
        assert "differs" not in body(app)
