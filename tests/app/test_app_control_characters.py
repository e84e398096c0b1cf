"""Escape sequences written into a house ruleset never reach the player's terminal: the
rules screen shows them as visible text."""

from __future__ import annotations

from pathlib import Path

from app_driver import make_env, open_rules, wait_until
from test_lobby_screen import FAST, one_guest, open_create
from textual.widgets import Select

from tui.app.app import RummyApp
from tui.app.screens.menu import MenuScreen
from tui.app.screens.new_game import NewGameScreen
from tui.app.screens.rules_editor import RulesEditorScreen
from tui.app.widgets.choice_row import ChoiceRow
from tui.service.lobby import Lobby

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
        await open_rules(pilot, app)
        app.screen.query_one("#rules-choice").value = "evil"
        await wait_until(pilot, lambda: "Evil" in shown(app))  # (read in a worker)
        assert controls_on_screen(app) == []
        assert "Evil" in shown(app)
        assert "Evil\\x1b]0;pwned" in shown(app)


# A file name is as much the file's author's as its contents: a shared house-rules file
# may be called anything a file system allows (here an OSC retitle, a clear-screen and a
# C1 CSI), and the app lists a file that does not load by its name.
HOSTILE_FILE = "evil\x1b]0;pwned\x07\x1b[2J\x9b31m"


def hostile_file_names(tmp_path: Path) -> Path:
    """A rules folder with a broken and a good file, both with hostile names."""
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / f"{HOSTILE_FILE}.yaml").write_text("extends: three_thirteen\nplayers: many\n")
    (folder / f"good{HOSTILE_FILE}.yaml").write_text("extends: three_thirteen\nname: Good\n")
    return folder


async def test_a_hostile_file_name_is_shown_as_text_on_the_rules_screen_and_editor(
        tmp_path: Path) -> None:
    env = make_env(tmp_path, None)
    env.rulesets_dir = hostile_file_names(tmp_path)
    app = RummyApp(env)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_rules(pilot, app)
        choice = app.screen.query_one("#rules-choice", Select)
        choice.value = HOSTILE_FILE
        await pilot.pause()
        assert controls_on_screen(app) == []
        assert "evil\\x1b]0;pwned\\x07" in shown(app)
        choice.focus()
        await pilot.press("enter")  # the list of every ruleset, open
        await pilot.pause()
        assert choice.expanded
        assert controls_on_screen(app) == []
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesEditorScreen))
        await pilot.pause()
        assert controls_on_screen(app) == []
        assert "evil\\x1b]0;pwned\\x07" in shown(app)


async def test_a_hostile_file_name_is_shown_as_text_on_the_new_game_screen(
        tmp_path: Path) -> None:
    env = make_env(tmp_path, None)
    env.rulesets_dir = hostile_file_names(tmp_path)
    app = RummyApp(env)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.ready)
        await pilot.pause()
        assert app.screen.query_one("#broken-rulesets")  # the file that does not load, listed
        assert controls_on_screen(app) == []
        assert "evil\\x1b]0;pwned\\x07" in shown(app)


async def test_a_hostile_file_name_reaches_no_screen_of_the_create_table_dialog(
        tmp_path: Path) -> None:
    """Over SSH: the dialog lists the rules that load, by the names inside them; a file's
    hostile name shows on none of its choices."""
    lobby = Lobby(FAST)
    async with one_guest(lobby, "alice", hostile_file_names(tmp_path)) as (app, pilot):
        dialog = await open_create(pilot, app)
        rules = dialog.query_one("#choose-rules", ChoiceRow)
        assert "Good (yours)" in [label for label, _ in rules.choices]
        for _ in rules.choices:
            await pilot.pause()
            assert controls_on_screen(app) == [], rules.value
            await pilot.press("right")


async def test_a_house_variant_of_a_hostile_file_name_opens_as_text(tmp_path: Path) -> None:
    """The variant's file names its base by that file's name: in the editor it reads as
    YAML escapes, not as the sequences themselves."""
    env = make_env(tmp_path, None)
    env.rulesets_dir = hostile_file_names(tmp_path)
    app = RummyApp(env)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_rules(pilot, app)
        app.screen.query_one("#rules-choice", Select).value = f"good{HOSTILE_FILE}"
        await pilot.pause()
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesEditorScreen)
                         and not app.screen.checking)
        await pilot.pause()
        assert controls_on_screen(app) == []
        assert app.screen.result.ok, app.screen.result.errors  # the variant loads


async def test_the_rules_editor_draws_a_files_control_characters_as_marks(
        tmp_path: Path) -> None:
    """The editor shows the file as it is (no escapes that would move its columns), but
    each control character as a mark: the text edited is still the file's."""
    env = make_env(tmp_path, None)
    folder = tmp_path / "rulesets"
    folder.mkdir()
    raw = "extends: three_thirteen\nname: x\x1b[2J\x9b31m\n# \x1b]0;pwned\x07\n"
    (folder / "raw.yaml").write_text(raw)
    env.rulesets_dir = folder
    app = RummyApp(env)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_rules(pilot, app)
        app.screen.query_one("#rules-choice", Select).value = "raw"
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesEditorScreen))
        await pilot.pause()
        assert controls_on_screen(app) == []
        assert "name: x\ufffd[2J\ufffd31m" in shown(app)
        assert app.screen.editor.text == raw


async def test_a_notice_naming_a_hostile_file_is_shown_as_text(tmp_path: Path) -> None:
    """Notices carry file names ("Saved NAME.", "cannot save NAME: ..."): every one is
    escaped where the app posts it, whichever screen asked."""
    env = make_env(tmp_path, None)
    env.rulesets_dir = hostile_file_names(tmp_path)
    app = RummyApp(env)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_rules(pilot, app)
        app.screen.query_one("#rules-choice", Select).value = f"good{HOSTILE_FILE}"
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesEditorScreen))
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: any("Saved" in str(n.message)
                                            for n in app._notifications))
        await pilot.pause(0.2)
        [saved] = [str(n.message) for n in app._notifications if "Saved" in str(n.message)]
        assert saved == "Saved goodevil\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m.yaml."
        assert controls_on_screen(app) == []  # the notice as drawn
