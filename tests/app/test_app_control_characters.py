"""Escape sequences written into a house ruleset never reach the player's terminal: the
rules screen shows them as visible text."""

from __future__ import annotations

from pathlib import Path

from app_driver import make_env, wait_until

from tui.app.app import RummyApp
from tui.app.screens.menu import MenuScreen
from tui.app.screens.rules import RulesScreen

HOSTILE = "Evil\x1b]0;pwned\x07\x1b[2J\x9b31mrules"


def controls_on_screen(app: RummyApp) -> list[str]:
    found = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in segment.text):
                found.append(segment.text)
    return found


def shown(app: RummyApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def hostile_rules(tmp_path: Path) -> Path:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    escaped = HOSTILE.encode("unicode_escape").decode()
    (folder / "evil.yaml").write_text(
        f'extends: three_thirteen\nname: "{escaped}"\ndescription: "about {escaped}"\n')
    return folder


async def test_a_hostile_rules_name_is_shown_as_text(tmp_path: Path) -> None:
    env = make_env(tmp_path, None)
    env.rulesets_dir = hostile_rules(tmp_path)
    app = RummyApp(env)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen))
        app.screen.query_one("#rules-choice").value = "evil"
        await pilot.pause(0.2)
        assert controls_on_screen(app) == []
        assert "Evil" in shown(app)
        assert "Evil\\x1b]0;pwned" in shown(app)
