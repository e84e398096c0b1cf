"""Opening and closing screens again and again in one app, and counting what stays in
memory: shared by the session-memory tests (`tests/net/test_session_memory.py`) and
`tests/bench/bench_screen_memory.py`."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Sequence

from textual._styles_cache import StylesCache
from textual.pilot import Pilot
from textual.widget import Widget

from tui.app.app import RummyApp
from tui.commands.serve import LobbyApps
from tui.net.session import SessionInfo
from tui.net.testing import TerminalClient
from tui.service.lobby import Lobby

SIZE = (100, 30)
LOBBY_SCREENS = ("c", "r", "o")  # over the lobby: create a table, rules, settings
MENU_SCREENS = ("n", "r", "g", "s")  # over the main menu: new game, rules, records, settings
# the lobby's screens over SSH: the key, and a text that shows while the screen is open
LOBBY_SCREENS_SHOWING = (("o", "Your name"), ("r", "Rules of"), ("c", "New table"))


def ssh_player_app(lobby: Lobby, name: str = "alice") -> RummyApp:
    """The very app `rummy serve` (in one process) gives an SSH player, at the lobby."""
    info = SessionInfo(id=1, username=name, term_type="xterm-256color", size=SIZE,
                       color_system="256")
    app = LobbyApps(lobby)(info)
    assert isinstance(app, RummyApp)
    return app


async def _until(pilot: Pilot[object], condition: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def open_and_close(pilot: Pilot[object], key: str, close: str = "escape") -> None:
    """Open a screen with `key` over the current one, let it draw, close it with `close`."""
    app = pilot.app
    under = app.screen
    await pilot.press(key)
    await _until(pilot, lambda: app.screen is not under, f"{key!r} to open a screen")
    await pilot.pause()
    opened = type(app.screen).__name__
    await pilot.press(close)
    await _until(pilot, lambda: app.screen is under, f"{close!r} to close {opened}")
    await pilot.pause()


async def cycle(pilot: Pilot[object], keys: Sequence[str], rounds: int) -> None:
    """Open and close each screen of `keys`, `rounds` times over."""
    for _ in range(rounds):
        for key in keys:
            await open_and_close(pilot, key)


def live_objects() -> Counter[str]:
    """Every object the collector tracks, by type name, after a full collection."""
    gc.collect()
    return Counter(type(obj).__qualname__ for obj in gc.get_objects())


def live_widgets() -> Counter[str]:
    """Widgets (screens included) and widget styles caches still in memory, by class."""
    gc.collect()
    return Counter(type(obj).__qualname__ for obj in gc.get_objects()
                   if isinstance(obj, Widget | StylesCache))


async def cycle_over_ssh(client: TerminalClient, name: str, rounds: int) -> None:
    """As `cycle`, by a real SSH player at the lobby (logged in as `name`)."""
    for _ in range(rounds):
        for key, shows in LOBBY_SCREENS_SHOWING:
            client.send(key)
            await client.wait_for(shows)
            client.send("\x1b")
            await client.wait_until(lambda gone=shows: f"you are {name}" in client.text
                                    and gone not in client.text)
