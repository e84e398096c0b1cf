"""Memory per SSH session stays flat however many screens the player opens (#13, #17).

The app an SSH player gets is run headless; after a warm-up, its screens are opened and
closed over and over.  Nothing of them may stay: no widget or widget styles cache beyond
what was alive after the warm-up, and only a handful of objects per screen opened and
closed (Textual's own bounded caches settling).  Before the fixes each screen opened and
closed over the lobby kept ~3,600 objects: the lobby footer's old keys (Textual #6666) and
closed widgets' rendered lines in a process-wide cache (Textual #6665).
"""

from __future__ import annotations

import pytest
from screen_cycles import (
    LOBBY_SCREENS,
    MENU_SCREENS,
    SIZE,
    cycle,
    live_objects,
    live_widgets,
    ssh_player_app,
)
from textual._styles_cache import StylesCache

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.service.lobby import Lobby, LobbyConfig

# Objects a screen opened and closed may leave behind, at most (Textual's bounded caches
# keyed by size or DOM generation take a few each); before the fixes, ~2,000-3,600.
KEPT_PER_SCREEN = 200


def _lobby() -> Lobby:
    return Lobby(LobbyConfig(bot_delay=0.01, grace=30, summary_pause=0, seed=3))


async def _assert_flat(app: RummyApp, keys: tuple[str, ...], rounds: int) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        StylesCache.get_inner_outer.cache_clear()  # a known start, whatever ran before
        await cycle(pilot, keys, 1)  # warm-up: imports, stylesheets, first-use caches
        widgets_before = live_widgets()
        objects_before = sum(live_objects().values())
        await cycle(pilot, keys, rounds)
        grown = live_widgets() - widgets_before
        per_screen = (sum(live_objects().values()) - objects_before) / (rounds * len(keys))
        assert not grown, f"widgets kept after {rounds * len(keys)} screens: {dict(grown)}"
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
