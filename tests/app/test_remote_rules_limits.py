"""A remote player's rules folder is on the server's disk: its files are counted and
sized, and no message or title shows the server's paths."""

from __future__ import annotations

from pathlib import Path

from app_driver import wait_until
from test_rules_editor import SIZE, make_variant, set_text

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.lobby import LobbyScreen
from tui.app.screens.rules import RulesScreen
from tui.app.settings import SettingsStore
from tui.app.widgets.yaml_editor import YamlEditor
from tui.paths import player_rulesets_dir
from tui.service.lobby import Lobby
from tui.service.rules_quota import RulesQuota


def remote_app(lobby: Lobby, name: str = "ann") -> RummyApp:
    return RummyApp(AppEnvironment(
        settings_store=SettingsStore(None), player_name=name, drive_bots=False,
        can_quit_to_shell=False, lobby=lobby.enter(name),
        rulesets_dir=player_rulesets_dir(name), rulesets_confined=True))


def messages(app: RummyApp) -> str:
    return "\n".join(str(n.message) for n in app._notifications)


def shown(app: RummyApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_a_remote_player_may_keep_only_so_many_rules_files(home: Path) -> None:
    folder = player_rulesets_dir("ann")
    folder.mkdir(parents=True)
    for number in range(RulesQuota.max_files):
        (folder / f"mine_{number}.yaml").write_text("extends: three_thirteen\n")
    lobby = Lobby()
    app = remote_app(lobby)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("r")
            await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen)
                             and app.screen.ready)
            app.screen.query_one("#rules-choice").value = "three_thirteen"
            await pilot.press("v")
            await wait_until(pilot, lambda: "the most this server allows" in messages(app))
            assert len(list(folder.glob("*.yaml"))) == RulesQuota.max_files
            assert str(home) not in messages(app)
    finally:
        lobby.close()


async def test_a_remote_players_file_may_not_grow_past_the_size_limit(home: Path) -> None:
    lobby = Lobby()
    app = remote_app(lobby)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            editor = await make_variant(pilot, app, "three_thirteen")
            assert str(home) not in shown(app) and "in your rules folder" in shown(app)
            before = editor.path.read_text()
            text_area = editor.query_one(YamlEditor)
            set_text(text_area, before + "# " + "x" * RulesQuota.max_bytes + "\n")
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: "at most 32 KiB" in messages(app))
            assert editor.path.read_text() == before
    finally:
        lobby.close()


async def test_a_remote_player_sees_no_server_path_in_a_broken_rules_file(home: Path) -> None:
    folder = player_rulesets_dir("ann")
    folder.mkdir(parents=True)
    (folder / "broken.yaml").write_text("extends: three_thirteen\nname: [broken\n")
    lobby = Lobby()
    app = remote_app(lobby)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("r")
            await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen)
                             and app.screen.ready)
            app.screen.query_one("#rules-choice").value = "broken"
            await wait_until(pilot, lambda: "broken.yaml" in shown(app))  # (in a worker)
            text = shown(app)
            assert "has mistakes" in text and "broken.yaml" in text
            assert str(home) not in text and str(folder) not in text
    finally:
        lobby.close()
