"""Around the table: main menu, new game, rules and settings, by keys."""

from __future__ import annotations

import json

import pytest
from app_driver import at_table, make_env, open_rules, view, wait_until
from textual.widgets import Input, Select, Static

from tui.app.app import RummyApp
from tui.app.screens.menu import MenuScreen
from tui.app.screens.new_game import NewGameScreen
from tui.app.screens.rules import RulesScreen
from tui.app.screens.settings import SettingsScreen
from tui.app.screens.table import TableScreen
from tui.app.widgets.hand import HandView


async def test_new_game_from_the_menu_by_keys(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert not app.has_game_in_progress()
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.ready)
        screen = app.screen
        screen.query_one("#ruleset", Select).value = "three_thirteen"
        await wait_until(pilot, lambda: screen.ready)  # (the rules are read in a worker)
        screen.query_one("#players", Select).value = 2
        await pilot.pause()
        screen.query_one("#opp-name-0", Input).value = "Zed"
        screen.query_one("#seed", Input).value = "99"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: at_table(app))
        v = view(app)
        assert [p.name for p in v.players] == ["Tess", "Zed"]
        assert v.rules.key == "three_thirteen"
        assert app.screen_stack[-2].__class__ is MenuScreen  # the form is gone
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert app.has_game_in_progress()


async def test_rules_screen_shows_the_chosen_ruleset(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen.ready)
        app.screen.query_one("#rules-choice", Select).value = "liverpool"
        await pilot.pause()
        text = str(app.screen.query_one("#rules-body", Static).render())
        assert text.startswith("Liverpool")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_rules_read_after_the_screen_was_closed_are_dropped(tmp_path) -> None:
    """A bug that happened: a player closed the rules while they were being read; the
    reading came back while the closed screen's widgets were being taken down (the screen
    still attached, its text gone) and the query for the text crashed the session."""
    from tui.app.host import still_shown

    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen.ready)
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        info = screen._selected()
        assert info is not None and still_shown(screen)
        await screen.query_one("#rules-text").remove()  # taken down, as on closing ...
        app.pop_screen()  # ... once off the stack (the rest follows on the next ticks)
        assert screen.is_attached and not still_shown(screen)
        screen._described(info, "read too late")  # nothing to show it in: nothing done
        screen._listed(screen.infos or [], info.key)
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_settings_are_saved_and_used_at_the_table(tmp_path) -> None:
    env = make_env(tmp_path, None)
    app = RummyApp(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        screen = app.screen
        screen.query_one("#name", Input).value = "Mia"
        screen.query_one("#card_style", Select).value = "ascii"
        screen.query_one("#colours", Select).value = "four"
        screen.query_one("#bot_speed", Select).value = "fast"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["name"] == "Mia" and saved["card_style"] == "ascii"
    assert saved["colours"] == "four" and saved["bot_speed"] == "fast"

    again = RummyApp(env)  # a new start reads the saved settings
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(again.screen, MenuScreen))
        assert again.settings.name == "Mia"
        from tui.engine.ruleset.loader import load_ruleset

        again.start_game(load_ruleset("three_thirteen"), [("Zed", "random")], 3)
        await wait_until(pilot, lambda: isinstance(again.screen, TableScreen))
        await pilot.pause()
        drawn = "\n".join(line.plain for line in
                          again.screen.query_one(HandView).render().split())
        assert drawn.isascii() and "+---+" in drawn
        assert view(again).players[0].name == "Mia"


@pytest.mark.parametrize(("argv", "message"), [
    (["--rules", "nosuch"], "--rules nosuch: "),
    (["--rules", "liverpool", "--players", "9"], "--players 9: Liverpool is for 3–8 players"),
    (["--bots", "genius"], "--bots: unknown level 'genius'"),
])
def test_play_command_refuses_bad_options(argv: list[str], message: str, capsys) -> None:  # noqa: ANN001
    from tui.cli import main

    assert main(["play", *argv]) == 2
    assert message in capsys.readouterr().err


def test_play_command_tunes_the_collector_before_the_app_starts(monkeypatch) -> None:  # noqa: ANN001
    """With Python's defaults a frame's garbage is promoted and full collections, each
    walking every object of the process, paused the screen (35 in two bench games, up to
    0.11 s); `rummy play` starts the app with a large young generation and what exists
    at start frozen."""
    import gc

    from tui.app.collector import YOUNG
    from tui.cli import main

    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(RummyApp, "run",
                        lambda self: seen.append((gc.get_threshold()[0], gc.get_freeze_count())))
    thresholds = gc.get_threshold()
    try:
        assert main(["play", "--rules", "three_thirteen", "--bots", "easy"]) == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    assert len(seen) == 1 and seen[0][0] == YOUNG and seen[0][1] > 0


async def test_the_menu_names_the_games_and_offers_continue_only_with_a_game(tmp_path) -> None:
    """Issue 33: the subtitle left out Liverpool; Continue was offered with no saved game
    (in the menu and the command palette)."""
    from textual.widgets import OptionList, Static

    from tui.app.command_palette import screen_commands
    from tui.engine.ruleset.loader import list_rulesets

    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.pause()
        subtitle = str(app.screen.query_one("#menu-sub", Static).render())
        options = app.screen.query_one("#menu-options", OptionList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        palette = [c.title for c in screen_commands(lambda _: None,
                                                    app.has_game_in_progress())]
    for info in list_rulesets():
        if info.bundled and info.error is None and " with " not in info.name:
            assert info.name in subtitle, info.name
    assert "continue" not in ids and ids[0] == "new"
    assert not any(title.startswith("Continue") for title in palette)


async def test_the_rules_pickers_blank_row_is_no_choice(tmp_path) -> None:
    """Issue 33: the Rules picker accepted its blank "Choose the rules" row (an empty
    screen); choosing it keeps the rules on show.  The same in the new-game screen."""
    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_rules(pilot, app)
        screen = app.screen
        choice = screen.query_one("#rules-choice", Select)
        shown = choice.value
        choice.clear()  # the blank row
        await wait_until(pilot, lambda: choice.value == shown)
        await wait_until(pilot, lambda: screen.ready)
        assert str(screen.query_one("#rules-body", Static).render()).strip()
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen)
                         and app.screen.ready)
        rules = app.screen.query_one("#ruleset", Select)
        chosen = rules.value
        rules.clear()
        await wait_until(pilot, lambda: rules.value == chosen)
