"""Pilot tests of the house-rules editor: from the rules screen to a variant file, a typo
listed with its line and column and marked, save refused, the fix previewed, the file
saved, and a game started with it; and the same over SSH in the player's own folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import at_table, make_env, table_screen, wait_until
from rulesets_helpers import watch_rule_reads

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.rules import RulesScreen
from tui.app.screens.rules_editor import RulesEditorScreen, error_label
from tui.app.settings import SettingsStore
from tui.app.widgets.yaml_editor import YamlEditor
from tui.app.yaml_tokens import line_spans
from tui.engine.ruleset.errors import LocatedError
from tui.engine.ruleset.loader import load_ruleset
from tui.paths import player_rulesets_dir

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def _player_is_tess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.app.app._login_name", lambda: "Tess")


def rulesets_folder(home: Path) -> Path:
    return home / "config" / "rulesets"


def menu_app(tmp_path: Path) -> RummyApp:
    return RummyApp(make_env(tmp_path, rules=None))


async def open_rules(pilot, app: RummyApp, key: str) -> RulesScreen:  # noqa: ANN001
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen.ready)
    screen = app.screen
    screen.query_one("#rules-choice").value = key
    await pilot.pause()
    return screen  # type: ignore[return-value]


async def open_editor(pilot, app: RummyApp) -> RulesEditorScreen:  # noqa: ANN001
    """Wait for the editor, and for its first check (in a worker) to be shown."""
    await wait_until(pilot, lambda: isinstance(app.screen, RulesEditorScreen)
                     and not app.screen.checking)
    return app.screen  # type: ignore[return-value]


async def make_variant(pilot, app: RummyApp, key: str) -> RulesEditorScreen:  # noqa: ANN001
    await open_rules(pilot, app, key)
    await pilot.press("v")
    return await open_editor(pilot, app)


async def saved_or_refused(pilot, app: RummyApp, key: str) -> str:  # noqa: ANN001
    """Press `key` (save, play) and wait for the editor's answer (it saves in a worker):
    the title of its notice."""
    seen = len(app._notifications)
    await pilot.press(key)
    await wait_until(pilot, lambda: len(app._notifications) > seen
                     or not isinstance(app.screen, RulesEditorScreen))
    return next((n.title or n.message for n in reversed(list(app._notifications))), "")


async def settle(pilot, editor: RulesEditorScreen) -> None:  # noqa: ANN001
    """Wait for the check that runs once typing pauses to be shown: for the text as it
    is now, its timer and its thread both done (waiting for the timer alone failed under
    load: the check's thread was still running and the last answer was read)."""
    await pilot.pause()  # the edit's Changed message starts the timer
    await wait_until(pilot, lambda: not editor.checking
                     and editor._checked_text == editor.text)
    await pilot.pause()


async def type_text(pilot, text: str) -> None:  # noqa: ANN001
    for ch in text:
        await pilot.press("enter" if ch == "\n" else "space" if ch == " " else ch)


def set_text(text_area: YamlEditor, text: str) -> None:
    """Replace the whole text as an edit (as typing or pasting would)."""
    text_area.replace(text, text_area.document.start, text_area.document.end)


def error_list(editor: RulesEditorScreen) -> list[str]:
    options = editor.query_one("#editor-errors")
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def preview(editor: RulesEditorScreen) -> str:
    """The preview's text, lines joined (it is filled to the pane's width)."""
    return " ".join(str(editor.query_one("#preview-body").render()).split())


async def test_typo_fix_save_and_play(tmp_path: Path, home: Path) -> None:
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "three_thirteen")
        path = rulesets_folder(home) / "my_three_thirteen.yaml"
        assert editor.path == path and path.is_file()
        first = path.read_text(encoding="utf-8")
        assert first.startswith("# yaml-language-server: $schema=./ruleset.schema.json")
        assert "\nextends: three_thirteen\n" in first
        assert "My Three Thirteen" in preview(editor) and editor.result.ok

        # a typo at the end of the file: listed with line and column, its line marked
        text_area = editor.query_one(YamlEditor)
        text_area.move_cursor(text_area.document.end)
        await type_text(pilot, "\nmelds:\n  run:\n    mni: 4")
        await settle(pilot, editor)
        line = len(text_area.text.split("\n"))
        assert not editor.result.ok
        [listed] = error_list(editor)
        assert listed.startswith(f"line {line}, col 5: unknown key `mni`")
        assert "did you mean `min`" in listed
        assert text_area.error_lines == {line - 1}
        error_style = text_area.get_component_rich_style("yaml-editor--error-line", partial=True)
        key_style = text_area.get_component_rich_style("yaml-editor--key", partial=True)
        assert error_style in [span.style for span in text_area.get_line(line - 1).spans]
        assert error_style not in [span.style for span in text_area.get_line(line - 2).spans]
        assert key_style in [span.style for span in text_area.get_line(line - 2).spans]
        assert "mistake" in str(editor.query_one("#editor-status").render())
        assert "these are the rules as last checked" in preview(editor)

        # save is refused and the good file is kept
        assert await saved_or_refused(pilot, app, "ctrl+s") == "Not saved"
        assert path.read_text(encoding="utf-8") == first

        # the next-mistake key puts the cursor on it; fix the key
        text_area.move_cursor((0, 0))
        await pilot.press("ctrl+n")
        await wait_until(pilot, lambda: text_area.cursor_location == (line - 1, 4))
        await pilot.press("delete", "delete", "delete")
        await type_text(pilot, "min")
        await settle(pilot, editor)
        assert editor.result.ok and error_list(editor) == []
        assert text_area.error_lines == set()
        assert "A run is 4 or more cards" in preview(editor)
        assert path.read_text(encoding="utf-8") == first  # not saved yet

        assert await saved_or_refused(pilot, app, "ctrl+s") == f"Saved {path.name}."
        assert path.read_text(encoding="utf-8") == text_area.text
        assert load_ruleset(path).melds.run.min == 4

        # play this: a game starts at once with these rules
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: at_table(app))
        rules = table_screen(app).table.rules
        assert rules.name == "My Three Thirteen" and rules.melds.run.min == 4


async def test_play_this_saves_first_and_refuses_mistakes(tmp_path: Path, home: Path) -> None:
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "liverpool")
        text_area = editor.query_one(YamlEditor)
        good = text_area.text
        broken = good.replace("name: My Liverpool", "name: My Liverpool\nplayers: {min: 9}")
        set_text(text_area, broken)
        await settle(pilot, editor)
        assert any("greater than" in e for e in error_list(editor)), error_list(editor)
        assert await saved_or_refused(pilot, app, "ctrl+r") == "Not saved"
        assert app.screen is editor  # no game with broken rules
        assert editor.path.read_text(encoding="utf-8") == good

        set_text(text_area, good.replace("name: My Liverpool",
                                         "name: Big Liverpool\nbuying: {penalty_cards: 2}"))
        await settle(pilot, editor)
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: at_table(app))
        assert table_screen(app).table.rules.buying.penalty_cards == 2
        assert "penalty_cards: 2" in editor.path.read_text(encoding="utf-8")


async def test_choosing_a_listed_mistake_moves_the_cursor(tmp_path: Path) -> None:
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "contract_rummy")
        text_area = editor.query_one(YamlEditor)
        set_text(text_area, text_area.text + "\njokers_wild: maybe\ndealer: youngest\n")
        await settle(pilot, editor)
        listed = error_list(editor)
        assert len(listed) == 2 and "jokers_wild" in listed[0] and "dealer" in listed[1]
        lines = text_area.text.split("\n")
        rows = [i for i, line in enumerate(lines) if "dealer: youngest" in line]
        options = editor.query_one("#editor-errors")
        options.focus()
        options.highlighted = 0
        await pilot.press("down", "enter")
        assert text_area.has_focus and text_area.cursor_location == (rows[0], 8)


async def test_leaving_with_unsaved_changes_asks_first(tmp_path: Path, home: Path) -> None:
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "three_thirteen")
        before = editor.path.read_text(encoding="utf-8")
        await type_text(pilot, "x")
        await pilot.press("escape")  # leaves the text area
        assert app.screen is editor
        await pilot.press("escape")  # warns
        assert app.screen is editor
        await pilot.press("escape")  # leaves without saving
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen.ready)
        assert editor.path.read_text(encoding="utf-8") == before


async def test_variants_get_free_names_and_the_rules_screen_lists_them(
    tmp_path: Path, home: Path
) -> None:
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "three_thirteen")
        await pilot.press("escape", "escape")  # unchanged: leaves at once
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen.ready)
        rules_screen = app.screen
        keys = [i.key for i in rules_screen.infos]
        assert "my_three_thirteen" in keys
        rules_screen.query_one("#rules-choice").value = "three_thirteen"
        await pilot.pause()
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesEditorScreen))
        second = app.screen
        assert second is not editor and second.path.name == "my_three_thirteen_2.yaml"
        assert "name: My Three Thirteen 2" in second.path.read_text(encoding="utf-8")


async def test_a_broken_file_is_listed_and_opens_in_the_editor(tmp_path: Path, home: Path) -> None:
    folder = rulesets_folder(home)
    folder.mkdir(parents=True)
    (folder / "broken.yaml").write_text("extends: three_thirteen\nname: Broken\nrounds: 3\n")
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_rules(pilot, app, "broken")
        assert "has mistakes" in str(screen.query_one("#rules-body").render())
        await pilot.press("e")
        editor = await open_editor(pilot, app)
        assert [e.line for e in editor.result.errors_here()] == [3]
        assert editor.query_one(YamlEditor).error_lines == {2}


async def test_bundled_rules_are_not_edited_in_place(tmp_path: Path) -> None:
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_rules(pilot, app, "liverpool")
        assert not screen.query_one("#edit-ruleset").display
        await pilot.press("e")
        await pilot.pause()
        assert app.screen is screen


async def test_new_game_lists_the_players_own_folder(tmp_path: Path, home: Path) -> None:
    from tui.app.screens.new_game import NewGameScreen
    from tui.engine.ruleset.files import new_ruleset_file

    mine = tmp_path / "elsewhere"
    new_ruleset_file("table_rules", mine, "three_thirteen", title="Table rules")
    new_ruleset_file("local_only", rulesets_folder(home), "three_thirteen")
    env = make_env(tmp_path, rules=None)
    env.rulesets_dir = mine
    app = RummyApp(env)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.ready)
        keys = {i.key for i in app.screen.infos}
        assert "table_rules" in keys and "local_only" not in keys


# --- over SSH ----------------------------------------------------------------------------


async def test_over_ssh_the_variant_goes_to_the_players_folder_and_opens_a_table(
    tmp_path: Path, home: Path
) -> None:
    from tui.app.screens.lobby import LobbyScreen
    from tui.service.lobby import Lobby

    lobby = Lobby()
    guest = lobby.enter("ann")
    env = AppEnvironment(settings_store=SettingsStore(None), player_name="ann",
                         drive_bots=False, can_quit_to_shell=False, lobby=guest,
                         rulesets_dir=player_rulesets_dir("ann"), rulesets_confined=True)
    app = RummyApp(env)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            editor = await make_variant(pilot, app, "three_thirteen")
            assert editor.path == player_rulesets_dir("ann") / "my_three_thirteen.yaml"
            assert not (rulesets_folder(home) / "my_three_thirteen.yaml").exists()
            text_area = editor.query_one(YamlEditor)
            set_text(text_area, text_area.text + "\ngoing_out: {bonus: -10}\n")
            await settle(pilot, editor)
            await pilot.press("ctrl+r")
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            shared = guest.shared
            assert shared is not None and shared.rules.going_out.bonus == -10
            assert shared.rules_key == "my_three_thirteen" and shared.seat_of("ann") == 0
    finally:
        lobby.close()


def test_ssh_sessions_get_their_own_confined_rulesets_folder(home: Path) -> None:
    from tui.commands.serve import LobbyApps
    from tui.net.session import SessionInfo
    from tui.service.lobby import Lobby

    lobby = Lobby()
    apps = LobbyApps(lobby)
    try:
        envs = [apps(SessionInfo(n, name, "xterm", (80, 24), "256")).env
                for n, name in enumerate(["ann", "bob"])]
        assert [env.rulesets_folder() for env in envs] == [
            player_rulesets_dir("ann"), player_rulesets_dir("bob")]
        assert all(env.rulesets_confined for env in envs)
        assert not AppEnvironment().rulesets_confined  # a local player's own machine
    finally:
        lobby.close()


# --- pieces ------------------------------------------------------------------------------


def test_error_label_names_other_files_only() -> None:
    here = "/x/mine.yaml"
    assert error_label(LocatedError(here, 3, 7, "bad"), here) == "line 3, col 7: bad"
    assert error_label(LocatedError("/r/base.yaml", 2, 1, "bad"), here) == (
        "base.yaml: line 2, col 1: bad")
    assert error_label(LocatedError(here, 0, 0, "bad"), here) == "bad"


def test_yaml_colours_cover_a_whole_ruleset() -> None:
    lines = load_ruleset("contract_rummy").source.split("\n")
    spans = line_spans(lines)
    assert len(spans) == len(lines)
    kinds = {kind for line in spans for _, _, kind in line}
    assert {"key", "comment", "string", "number", "constant", "punctuation"} <= kinds
    for line, found in zip(lines, spans, strict=True):
        for start, end, _ in found:
            assert 0 <= start < end <= len(line)
        if line.strip() and not line.lstrip().startswith("#"):
            assert found, line


async def test_a_check_that_finishes_after_the_editor_is_left_is_dropped(
        tmp_path: Path, home: Path) -> None:
    """The check of typed text runs in a thread and its answer is handed to the loop; when
    that answer arrives after the player left the editor, it is dropped (it once looked
    for the editor's error list there and crashed the app)."""
    from tui.app.screens.rules_editor import safe_check

    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "three_thirteen")
        await type_text(pilot, "x")  # a check is due
        typed = editor.text
        late = safe_check(typed, editor.path, editor.user_dir, editor.confine)
        await pilot.press("escape", "escape", "escape")  # leave without saving
        await wait_until(pilot, lambda: not editor.is_attached and not editor.children)
        editor._checked(typed, late)  # the late answer: nothing to show, no crash
        assert isinstance(app.screen, RulesScreen)


async def test_checks_and_saves_leave_the_loop_free(tmp_path: Path, home: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Over SSH one loop draws every player's screen: a check (of a big file, say) or a
    save held up in its thread never stops a callback the loop has to run meanwhile, and
    its answer is applied when it comes."""
    import asyncio
    import threading

    import tui.app.screens.rules_editor as module

    loop_thread = threading.get_ident()  # (the test runs on the app's loop)
    ran_on: list[int] = []
    entered, release = threading.Event(), threading.Event()

    def held(work):  # noqa: ANN001, ANN202
        def run(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            ran_on.append(threading.get_ident())
            if threading.get_ident() != loop_thread:  # (held on the loop, it would freeze)
                entered.set()
                release.wait(10)
            return work(*args, **kwargs)
        return run

    async def loop_runs_while_held() -> None:
        await asyncio.to_thread(entered.wait, 10)
        assert entered.is_set(), "the work never started in a thread"
        called = asyncio.Event()
        app.call_later(called.set)  # something else the loop must do now
        await asyncio.wait_for(called.wait(), 10)
        assert not release.is_set()  # ... done while the check or save was still held
        entered.clear()
        release.set()

    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "three_thirteen")
        monkeypatch.setattr(module, "safe_check", held(module.safe_check))
        monkeypatch.setattr(module, "save_checked", held(module.save_checked))
        text_area = editor.query_one(YamlEditor)
        set_text(text_area, text_area.text + "melds:\n  run:\n    mni: 4\n")
        text_area.move_cursor((0, 0))
        await pilot.press("ctrl+n")  # checks the text now, then goes to the mistake
        await loop_runs_while_held()
        line = len(text_area.text.split("\n")) - 1
        await wait_until(pilot, lambda: text_area.cursor_location == (line - 1, 4))

        release.clear()
        set_text(text_area, text_area.text.replace("mni", "min"))
        path = editor.path
        await pilot.press("ctrl+s")
        await loop_runs_while_held()
        await wait_until(pilot, lambda: path.read_text(encoding="utf-8") == text_area.text)
        assert load_ruleset(path).melds.run.min == 4
    assert ran_on and loop_thread not in ran_on


async def test_the_rules_screen_reads_the_files_off_the_loop(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing the rulesets (every file read), the rules on show, and the list again after
    an edit: all in workers, never on the loop that draws (over SSH, everyone's)."""
    import threading

    from tui.engine.ruleset.files import new_ruleset_file

    new_ruleset_file("mine", rulesets_folder(home), "three_thirteen", title="Mine")
    reads = watch_rule_reads(monkeypatch)
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_rules(pilot, app, "mine")
        await wait_until(pilot, lambda: screen.ready)
        assert "Mine" in str(screen.query_one("#rules-body").render())
        await pilot.press("e")
        await open_editor(pilot, app)
        await pilot.press("escape", "escape")  # unchanged: leaves at once
        await wait_until(pilot, lambda: app.screen is screen and screen.ready)
        assert screen.query_one("#rules-choice").value == "mine"
    loop_thread = threading.get_ident()  # (the test runs on the app's loop)
    assert len(reads.listed) >= 2 and loop_thread not in reads.listed  # on opening, after the edit
    assert len(reads.loaded) >= 2 and loop_thread not in reads.loaded  # the rules on show


async def test_a_variant_is_written_and_a_file_read_for_the_editor_off_the_loop(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug that was: "Make a house variant" wrote its starter file, and opening a file in
    the editor read it, on the loop that draws (over SSH, everyone's screens)."""
    import threading

    import tui.engine.ruleset as ruleset

    wrote: list[int] = []
    read: list[int] = []
    real_new, real_read = ruleset.new_ruleset_file, Path.read_text

    def new_file(*args, **kwargs) -> Path:  # noqa: ANN002, ANN003
        wrote.append(threading.get_ident())
        return real_new(*args, **kwargs)

    def read_text(self: Path, *args, **kwargs) -> str:  # noqa: ANN002, ANN003
        if self.parent == rulesets_folder(home):
            read.append(threading.get_ident())
        return real_read(self, *args, **kwargs)

    monkeypatch.setattr(ruleset, "new_ruleset_file", new_file)
    monkeypatch.setattr(Path, "read_text", read_text)
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "three_thirteen")
        assert editor.text == real_read(editor.path, encoding="utf-8")
    loop_thread = threading.get_ident()  # (the test runs on the app's loop)
    assert wrote and loop_thread not in wrote
    assert read and loop_thread not in read


async def test_an_editor_closed_before_it_is_mounted_does_not_crash(tmp_path: Path) -> None:
    """Found under load: the editor left (Esc, or the app closing) while its mount was
    still queued ran `on_mount` on a screen whose widgets were gone (`NoMatches
    '#editor-title'`)."""
    path = tmp_path / "house.yaml"
    path.write_text("extends: three_thirteen\nname: House\n", encoding="utf-8")
    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            app.push_screen(RulesEditorScreen(path, path.read_text(encoding="utf-8")))
            app.pop_screen()  # before the editor's Mount is handled
            await pilot.pause()
        await wait_until(pilot, lambda: not any(
            isinstance(s, RulesEditorScreen) for s in app.screen_stack))
    assert app.return_code in (None, 0)


async def test_ctrl_p_is_the_command_palette_in_the_editor_too(tmp_path: Path, home: Path) -> None:
    """Issue 33: the editor rebound Ctrl+P to "Play this" (saving and starting a game)
    where the README promises the command palette everywhere; Play this is Ctrl+R."""
    from textual.command import CommandPalette

    app = menu_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await make_variant(pilot, app, "three_thirteen")
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is editor)
        assert editor.path.exists()


def test_an_editor_not_yet_mounted_is_still_checking(tmp_path: Path) -> None:
    """Found under load: `checking` was False between the editor's push and its mount
    (no check started yet), so "wait until checked" went on before the editor had its
    widgets (`NoMatches '#preview-body'`).  The first check is due from the start."""
    path = tmp_path / "house.yaml"
    path.write_text("extends: three_thirteen\n", encoding="utf-8")
    assert RulesEditorScreen(path, path.read_text(encoding="utf-8")).checking


async def test_the_preview_is_not_wrapped_again_at_80x24(tmp_path: Path) -> None:
    """Issue 33: at 80×24 the preview wrapped "2 decks (104 cards)" over three lines:
    the pane was narrower than the rules' words are ever filled to (30 columns)."""
    path = tmp_path / "house.yaml"
    path.write_text("extends: liverpool\nname: House\n", encoding="utf-8")
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = RulesEditorScreen(path, path.read_text(encoding="utf-8"))
        app.push_screen(editor)
        await wait_until(pilot, lambda: app.screen is editor and not editor.checking
                         and editor.last_good is not None)
        await pilot.pause()
        body = editor.query_one("#preview-body")
        lines = str(body.render()).splitlines()
        width = body.content_size.width
        prose = [line for line in lines if "decks" in line or "players" in line]
        assert prose and all(len(line) <= width for line in prose), (width, prose)


async def test_the_line_being_edited_stays_in_view_when_the_mistakes_show(
        tmp_path: Path) -> None:
    """Issue 33: the list of mistakes took rows from the editor and the edited line
    scrolled out of view."""
    path = tmp_path / "house.yaml"
    body = "".join(f"# note {n}\n" for n in range(40))
    path.write_text(f"extends: three_thirteen\nname: House\n{body}", encoding="utf-8")
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = RulesEditorScreen(path, path.read_text(encoding="utf-8"))
        app.push_screen(editor)
        await wait_until(pilot, lambda: app.screen is editor and not editor.checking)
        text_area = editor.query_one(YamlEditor)
        text_area.move_cursor(text_area.document.end)
        await type_text(pilot, "rounds: nine")
        await settle(pilot, editor)
        await wait_until(pilot, lambda: not editor.result.ok)
        await pilot.pause()
        row = text_area.cursor_location[0]
        top = text_area.scroll_offset.y
        assert top <= row < top + text_area.scrollable_content_region.height, (
            row, top, text_area.scrollable_content_region)
