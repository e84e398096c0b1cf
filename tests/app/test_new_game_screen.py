"""The new-game screen reads the rules files (the list, the rules chosen) in workers, never
on the loop that draws; Start pressed while they are read starts the game once they are."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from app_driver import at_table, make_env, view, wait_until
from rulesets_helpers import watch_rule_reads
from textual.widgets import Select

import tui.engine.ruleset as ruleset
from tui.app.app import RummyApp
from tui.app.screens.menu import MenuScreen
from tui.app.screens.new_game import NewGameScreen


async def test_the_rules_files_are_read_off_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = watch_rule_reads(monkeypatch)
    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen)
                         and app.screen.ready)
        screen = app.screen
        other = next(i.key for i in screen.infos if i.key != screen.chosen_key)
        screen.query_one("#ruleset", Select).value = other  # another file read
        await wait_until(pilot, lambda: screen.ready)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: at_table(app))
        assert view(app).rules.key == other
    assert len(reads.every) >= 3  # the list, the first rules on show, the rules chosen
    assert threading.get_ident() not in reads.every  # (the test runs on the app's loop)


async def test_start_while_the_rules_are_read_starts_once_they_are(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_load = ruleset.load_ruleset
    release, reading = threading.Event(), threading.Event()

    def held(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        reading.set()
        release.wait(30)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(ruleset, "load_ruleset", held)
    app = RummyApp(make_env(tmp_path, None))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("n")
            await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
            screen = app.screen
            await wait_until(pilot, reading.is_set)
            assert not screen.ready
            await pilot.press("ctrl+s")  # the rules on show are still being read
            await pilot.pause()
            assert app.screen is screen
            chosen = screen.query_one("#ruleset", Select).value
            release.set()
            await wait_until(pilot, lambda: at_table(app))
            assert view(app).rules.key == chosen
    finally:
        release.set()


async def test_rules_that_break_after_listing_are_refused_with_the_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.engine.ruleset.files import new_ruleset_file

    env = make_env(tmp_path, None)
    env.rulesets_dir = tmp_path / "mine"
    mine = new_ruleset_file("quick_13", env.rulesets_dir, "three_thirteen", title="Quick")
    app = RummyApp(env)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen)
                         and app.screen.ready)
        screen = app.screen
        mine.write_text("extends: three_thirteen\nname: [broken\n")  # edited meanwhile
        screen.query_one("#ruleset", Select).value = "quick_13"
        await wait_until(pilot, lambda: screen.ready)
        about = screen.query_one("#ruleset-about").render()
        assert "no longer loads" in str(about)
        from textual.color import Color

        from tui.app.colours import app_colours
        colours = {span.style.foreground for span in about.spans}  # the theme's, not "red"
        assert colours == {Color.parse(app_colours(app).bad)}
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen  # no game started
