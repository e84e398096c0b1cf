"""Memory per SSH session stays flat however many screens the player opens (#13, #17).

The app an SSH player gets is run headless (and, in the slow tier, played by a real SSH
client, as is the local app); after a warm-up, its screens are opened and closed over and
over.  Nothing of them may stay: no widget or widget styles cache beyond
what was alive after the warm-up, and only a handful of objects per screen opened and
closed (Textual's own bounded caches settling).  Before the fixes each screen opened and
closed over the lobby kept ~3,600 objects: the lobby footer's old keys (Textual #6666) and
closed widgets' rendered lines in a process-wide cache (Textual #6665).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import make_env, wait_until
from screen_cycles import (
    LOBBY_SCREENS,
    MENU_SCREENS,
    SIZE,
    cycle,
    cycle_over_ssh,
    live_objects,
    live_widgets,
    ssh_player_app,
)
from ssh_room import arrive, open_room, until
from textual._styles_cache import StylesCache
from textual.screen import Screen

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.table import TableScreen
from tui.service.lobby import Lobby, LobbyConfig

# Objects a screen opened and closed may leave behind, at most (Textual's bounded caches
# keyed by size or DOM generation take a few each); before the fixes, ~2,000-3,600.
KEPT_PER_SCREEN = 200


def _lobby() -> Lobby:
    return Lobby(LobbyConfig(bot_delay=0.01, grace=30, summary_pause=0, seed=3))


async def _assert_flat(app: RummyApp, keys: tuple[str, ...], rounds: int,
                       ready: type[Screen[object]] | None = None) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if ready is not None:
            await wait_until(pilot, lambda: isinstance(app.screen, ready))
        StylesCache.get_inner_outer.cache_clear()  # a known start, whatever ran before
        await cycle(pilot, keys, 1)  # warm-up: imports, stylesheets, first-use caches
        widgets_before = live_widgets()
        objects_before = sum(live_objects().values())
        await cycle(pilot, keys, rounds)
        for _ in range(50):  # the last screen closed may still be on its way out
            grown = live_widgets() - widgets_before
            if not grown:
                break
            await pilot.pause(0.02)
        assert not grown, f"widgets kept after {rounds * len(keys)} screens: {dict(grown)}"
        per_screen = (sum(live_objects().values()) - objects_before) / (rounds * len(keys))
        assert per_screen < KEPT_PER_SCREEN, f"{per_screen:.0f} objects kept per screen"


async def test_settings_over_the_lobby_leave_nothing_behind() -> None:
    lobby = _lobby()
    try:
        await _assert_flat(ssh_player_app(lobby), ("o",), rounds=2)
    finally:
        lobby.close()


@pytest.mark.slow
async def test_every_lobby_screen_leaves_nothing_behind() -> None:
    lobby = _lobby()
    try:
        await _assert_flat(ssh_player_app(lobby), LOBBY_SCREENS, rounds=3)
    finally:
        lobby.close()


@pytest.mark.slow
async def test_every_menu_screen_leaves_nothing_behind() -> None:
    await _assert_flat(RummyApp(AppEnvironment(player_name="tess")), MENU_SCREENS, rounds=3)


@pytest.mark.slow
async def test_help_over_the_table_leaves_nothing_behind(tmp_path: Path) -> None:
    app = RummyApp(make_env(tmp_path, players=2))
    await _assert_flat(app, ("question_mark",), rounds=4, ready=TableScreen)


@pytest.mark.slow
async def test_screens_opened_over_ssh_leave_the_server_nothing_more() -> None:
    """The same, end to end: a real SSH player at the card room opens and closes each of
    the lobby's screens by keys; the server's widgets come back to what they were."""
    room = await open_room()
    try:
        alice = await arrive(room.port, "alice", size=SIZE)
        await cycle_over_ssh(alice, "alice", 1)  # warm-up
        before = live_widgets()
        await cycle_over_ssh(alice, "alice", 3)
        await until(lambda: not live_widgets() - before, timeout=5,
                    what="the server's widgets to come back to what they were")
        await alice.close()
    finally:
        await room.close()
