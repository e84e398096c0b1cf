"""The saved game in the app: one window owns the save slot; a damaged save is refused in
one line with the choice to start a new game."""

from __future__ import annotations

import json
from pathlib import Path

from app_driver import at_table, make_env, table_screen, view, wait_until
from textual.widgets import Static

from tui.app.app import RummyApp
from tui.app.screens.damaged_save import DamagedSaveScreen
from tui.app.screens.menu import MenuScreen
from tui.app.screens.new_game import NewGameScreen
from tui.app.screens.table import TableScreen
from tui.service.table import Table


async def saved_game(tmp_path: Path) -> Path:
    """Play one draw in a window, go back to the menu: the game is saved."""
    env = make_env(tmp_path, "three_thirteen", players=2, seed=5)
    app = RummyApp(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await wait_until(pilot, lambda: view(app).my_turn and view(app).phase == "draw")
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
    assert env.save_path is not None and env.save_path.exists()
    return env.save_path


async def test_a_damaged_save_offers_a_new_game_in_one_line(tmp_path: Path) -> None:
    path = await saved_game(tmp_path)
    data = json.loads(path.read_text())
    data["game"]["seed"] = 1e400  # written as Infinity: not a whole number
    path.write_text(json.dumps(data))
    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, DamagedSaveScreen))
        reason = str(app.screen.query_one("#damaged-save-reason", Static).render())
        assert "damaged" in reason and "seed" in reason and "\n" not in reason.strip()
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.ready)
    assert not path.exists()
    assert path.with_name(path.name + ".damaged").exists()


async def test_back_from_a_damaged_save_keeps_the_file(tmp_path: Path) -> None:
    path = tmp_path / "current_game.json"
    path.write_bytes(b"\xff\xfe not a save")
    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, DamagedSaveScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
    assert path.read_bytes() == b"\xff\xfe not a save"


async def test_a_second_window_does_not_overwrite_the_first_ones_game(tmp_path: Path) -> None:
    first = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=5))
    second = RummyApp(make_env(tmp_path, "contract_rummy", players=3, seed=9))
    told: list[str] = []  # what the second window says, however long a busy machine takes
    shown = second.notify
    second.notify = lambda message, **kw: (told.append(message), shown(message, **kw))[-1]
    path = tmp_path / "current_game.json"
    async with first.run_test(size=(80, 24)) as one:
        await wait_until(one, lambda: isinstance(first.screen, TableScreen))
        await wait_until(one, lambda: view(first).my_turn and view(first).phase == "draw")
        await one.press("s")
        await wait_until(one, lambda: path.exists())
        async with second.run_test(size=(80, 24)) as two:
            await wait_until(two, lambda: isinstance(second.screen, TableScreen))
            await wait_until(two, lambda: view(second).my_turn and view(second).phase == "draw")
            await two.press("s")
            await two.pause()
            assert Table.load(path).seed == 5  # still the first window's game
            assert any("Another rummy window" in message for message in told)
    # Once the first window has closed, the second window's slot is free again.
    third = RummyApp(make_env(tmp_path, None))
    async with third.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(third.screen, MenuScreen))
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(third.screen, TableScreen))
        assert third.claimed_save_path() == path


async def test_leaving_the_table_saves_the_last_move_at_once(tmp_path: Path) -> None:
    """Quick changes are saved together within a second; leaving the table does not wait:
    the file holds every move made, the last one a moment before `q`."""
    env = make_env(tmp_path, "three_thirteen", players=2, seed=5, drive_bots=False)
    app = RummyApp(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        table = table_screen(app).table
        while table.bot_to_move() is not None:
            table.step_bot()
        await wait_until(pilot, lambda: at_table(app) and view(app).phase == "draw")
        await pilot.press("s")
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        moves = len(table.game.history)
    assert env.save_path is not None
    saved = Table.load(env.save_path)
    assert len(saved.game.history) == moves and saved.view(0).phase == "play"


async def test_the_save_is_read_off_the_loop_to_continue_it_and_to_replace_it(
        tmp_path: Path) -> None:
    """A bug that was: continuing the saved game, and abandoning it for a new one, read
    and replayed the save on the loop that draws."""
    import dataclasses
    import threading

    from tui.app.screens.pickers import ConfirmScreen
    from tui.engine.ruleset.loader import load_ruleset

    path = await saved_game(tmp_path)
    loaded_on: list[int] = []

    def loader(at: Path) -> Table:
        loaded_on.append(threading.get_ident())
        return Table.load(at)

    env = dataclasses.replace(make_env(tmp_path, None), table_loader=loader)
    app = RummyApp(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("c")  # continue it
        await wait_until(pilot, lambda: at_table(app))
        continued = table_screen(app).table.seed
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        app.start_game(load_ruleset("three_thirteen"), [("Zed", "random")], 9)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # abandon it for a new game
        await wait_until(pilot, lambda: at_table(app))
        assert table_screen(app).table.seed == 9 != continued
    loop_thread = threading.get_ident()  # (the test runs on the app's loop)
    assert len(loaded_on) == 2 and loop_thread not in loaded_on
    assert path.exists()  # the new game's save


def strays(folder: Path, name: str, ages: dict[str, float]) -> dict[str, Path]:
    """Temporary files as a writer killed mid-write (`kill -9` during an autosave) leaves
    them, each last changed `ages[tag]` seconds ago."""
    import os
    import time

    made = {}
    for tag, age in ages.items():
        path = folder / f".{name}.{tag}.tmp"
        path.write_text('{"half": ')
        os.utime(path, (time.time() - age, time.time() - age))
        made[tag] = path
    return made


async def test_the_window_that_holds_the_save_clears_killed_autosaves(tmp_path: Path) -> None:
    left = strays(tmp_path, "current_game.json", {"killed": 3600, "old": 700, "live": 1})
    other = strays(tmp_path, "settings.json", {"other": 3600})
    await saved_game(tmp_path)
    assert not left["killed"].exists() and not left["old"].exists()
    assert left["live"].exists(), "a temporary file as young as a live write is left alone"
    assert other["other"].exists(), "only the save's own temporaries are the slot's"


def test_remove_stale_temporaries_takes_only_old_temporaries_of_that_file(
        tmp_path: Path) -> None:
    from tui.atomic import remove_stale_temporaries, write_atomic

    target = tmp_path / "a[1].json"  # a name glob would read as a pattern
    write_atomic(target, "{}")
    left = strays(tmp_path, "a[1].json", {"x": 3600})
    lookalike = strays(tmp_path, "a1.json", {"y": 3600})
    assert remove_stale_temporaries(target) == 1
    assert not left["x"].exists() and lookalike["y"].exists() and target.read_text() == "{}"
    assert remove_stale_temporaries(tmp_path / "missing" / "b.json") == 0


async def test_a_second_windows_game_is_kept_for_continue_while_the_window_is_open(
        tmp_path: Path) -> None:
    """Issue 33: a window that cannot save (the first one holds the save slot) said "q
    leaves the table; the game is kept", then `c` answered "There is no game in
    progress".  Its game is kept in the window, continued as it was left, until it ends
    or the window closes; a new game asks first, as for a saved one."""
    from tui.app.screens.pickers import ConfirmScreen
    from tui.engine.ruleset.loader import load_ruleset

    first = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=5))
    second = RummyApp(make_env(tmp_path, "contract_rummy", players=3, seed=9))
    path = tmp_path / "current_game.json"
    async with first.run_test(size=(80, 24)) as one:
        await wait_until(one, lambda: isinstance(first.screen, TableScreen))
        await wait_until(one, lambda: path.exists() or first.claimed_save_path() == path)
        async with second.run_test(size=(80, 24)) as two:
            await wait_until(two, lambda: at_table(second) and view(second).my_turn
                             and view(second).phase == "draw")
            # told at the table, in its notice line (a toast there covered the prompt)
            notice = table_screen(second).query_one("#notice", Static)
            assert notice.display and "Not saving" in str(notice.render())
            await two.press("s")
            await wait_until(two, lambda: at_table(second) and view(second).phase == "play")
            played = table_screen(second).table
            await two.press("q")
            await wait_until(two, lambda: isinstance(second.screen, MenuScreen))
            assert second.has_game_in_progress()
            await two.press("c")
            await wait_until(two, lambda: at_table(second))
            assert table_screen(second).table is played
            assert view(second).phase == "play"  # as it was left
            await two.press("q")
            await wait_until(two, lambda: isinstance(second.screen, MenuScreen))
            second.start_game(load_ruleset("three_thirteen"), [("Zed", "random")], 4)
            await wait_until(two, lambda: isinstance(second.screen, ConfirmScreen))
    assert Table.load(path).seed == 5  # the first window's save is untouched
