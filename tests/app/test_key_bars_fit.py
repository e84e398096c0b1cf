"""Every screen's key bar fits one line at 80 columns (and at the 70-column minimum): each
key it shows is shown whole, the way out of the screen is always among them, and the keys
a player most needs are not the ones cut (issue 33: the records screen lost "esc Back",
the lobby "h How to play", the replay its last keys)."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import make_env, screen_text, wait_until
from records_kit import T0, finished_game, seats
from textual.app import App
from textual.screen import Screen
from textual.widgets._footer import FooterKey

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.lobby import LobbyScreen
from tui.app.screens.menu import MenuScreen
from tui.app.screens.records import RecordsScreen
from tui.app.screens.replay import ReplayScreen
from tui.app.widgets.footer import Footer
from tui.records import RecordStore
from tui.records.record import GameRecord
from tui.service.lobby import Lobby, LobbyConfig


class Host(App[None]):
    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


def shown_keys(app: App) -> list[str]:
    """The keys the key bar of the screen on top shows, as `key label`."""
    footer = app.screen.query_one(Footer)
    return [f"{k.key_display} {k.description}".strip()
            for k in footer.query_children(FooterKey) if k.display]


def bottom_line(app: App) -> str:
    return " ".join(screen_text(app).rstrip("\n").split("\n")[-1].split())


async def key_bar(app: App, pilot, ready) -> tuple[list[str], str]:  # noqa: ANN001
    """Once `ready()`, the keys shown and the bottom line as a player reads it."""
    await wait_until(pilot, ready)
    await wait_until(pilot, lambda: bool(shown_keys(app)))
    await pilot.pause()
    return shown_keys(app), bottom_line(app)


def assert_whole(keys: list[str], line: str) -> None:
    for key in keys:
        assert key in line, f"{key!r} is cut from the key bar: {line!r}"


@pytest.fixture
def store(home: Path) -> RecordStore:
    store = RecordStore(home / "records.db")
    game = finished_game(seed=1, players=2)
    store.add(GameRecord.from_game(game, seats(2), T0, T0 + 900))
    return store


@pytest.mark.parametrize("width", [80, 70])
async def test_the_records_key_bar_keeps_its_way_back(store: RecordStore, width: int) -> None:
    app = Host(RecordsScreen(store))
    async with app.run_test(size=(width, 24)) as pilot:
        keys, line = await key_bar(app, pilot, lambda: isinstance(app.screen, RecordsScreen))
        assert_whole(keys, line)
        assert "esc Back" in keys and "⏎ Replay" in keys
        if width == 80:  # at 80 columns every key has room (7 and ^p palette)
            assert len(keys) == 8 and app.screen.query_one(Footer).compact


async def test_the_replay_key_bar_fits_80_columns(store: RecordStore) -> None:
    app = Host(ReplayScreen(store.get(store.summaries()[0].id)))
    async with app.run_test(size=(80, 24)) as pilot:
        keys, line = await key_bar(app, pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert_whole(keys, line)
        assert "esc Close" in keys and "pgdn Next deal" in keys


@pytest.mark.parametrize("seated", [False, True])
async def test_the_lobby_key_bar_shows_how_to_play_at_80_columns(seated: bool) -> None:
    lobby = Lobby(LobbyConfig(seed=3))
    guest = lobby.enter("alice")
    if seated:
        guest.create("three_thirteen", 3, "medium")
    app = RummyApp(AppEnvironment(player_name="alice", lobby=guest, drive_bots=False,
                                  can_quit_to_shell=False))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            keys, line = await key_bar(app, pilot,
                                       lambda: isinstance(app.screen, LobbyScreen))
            assert_whole(keys, line)
            assert "h How to play" in keys and "q Quit" in keys
            # Start and Leave seat only for a player with a place at a table
            assert ("s Start" in keys) == seated and ("l Leave seat" in keys) == seated
    finally:
        lobby.close()


async def test_the_menu_key_bar_offers_continue_only_with_a_game(tmp_path: Path) -> None:
    app = RummyApp(make_env(tmp_path, rules=None))
    async with app.run_test(size=(80, 24)) as pilot:
        keys, line = await key_bar(app, pilot, lambda: isinstance(app.screen, MenuScreen))
        assert_whole(keys, line)
        assert "q Quit" in keys and "l Learn to play" in keys
        assert not any(k.startswith("c ") for k in keys)
        await pilot.press("c")  # not offered: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and not list(app._notifications)


@pytest.mark.parametrize("width", [80, 70])
async def test_a_narrower_terminal_drops_keys_from_the_right_never_the_way_out(
        tmp_path: Path, width: int) -> None:
    """The rules screen at 70 columns: compact, and whole keys only."""
    app = RummyApp(make_env(tmp_path, rules=None))
    async with app.run_test(size=(width, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("r")
        keys, line = await key_bar(app, pilot, lambda: type(app.screen).__name__ ==
                                   "RulesScreen")
        assert_whole(keys, line)
        assert keys[0] == "esc Back"
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        keys, line = shown_keys(app), bottom_line(app)
        assert_whole(keys, line)
        assert "esc Back" in keys
