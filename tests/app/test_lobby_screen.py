"""The lobby screen and the table's chat line, driven by keys in Textual's pilot (two apps
sharing one lobby in one process, as over SSH but without the network)."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

from app_driver import wait_until as settle
from rulesets_helpers import watch_rule_reads

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.create_table import CreateTableScreen
from tui.app.screens.lobby import LobbyScreen
from tui.app.screens.table import TableScreen
from tui.app.widgets.chat import ChatBox, ChatInput
from tui.service.lobby import Lobby, LobbyConfig

FAST = LobbyConfig(bot_delay=0.01, grace=30, summary_pause=0, seed=3)
SIZE = (100, 30)


def guest_app(lobby: Lobby, name: str, rulesets: Path | None = None) -> RummyApp:
    """A player's app in the lobby (`rulesets`: their own confined folder, as over SSH)."""
    return RummyApp(AppEnvironment(player_name=name, lobby=lobby.enter(name), drive_bots=False,
                                   can_quit_to_shell=False, rulesets_dir=rulesets,
                                   rulesets_confined=rulesets is not None))


@asynccontextmanager
async def two_guests(lobby: Lobby):  # noqa: ANN201
    """alice and bob, each with their app running; the lobby is closed afterwards."""
    alice, bob = guest_app(lobby, "alice"), guest_app(lobby, "bob")
    try:
        async with alice.run_test(size=SIZE) as pa, bob.run_test(size=SIZE) as pb:
            yield alice, pa, bob, pb
    finally:
        lobby.close()


@asynccontextmanager
async def one_guest(lobby: Lobby, name: str, rulesets: Path | None = None,
                    size: tuple[int, int] = SIZE):  # noqa: ANN201
    """`name`'s app (`guest_app`) running and showing the lobby; the lobby is closed
    afterwards."""
    app = guest_app(lobby, name, rulesets)
    try:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            yield app, pilot
    finally:
        lobby.close()


async def choose(pilot, row, value) -> None:  # noqa: ANN001
    """Step the `label ◀ value ▶` row to `value` (it must be on offer)."""
    for _ in range(len(row.choices)):
        if row.value == value:
            return
        await pilot.press("right")
    assert row.value == value, f"{value!r} is not offered: {row.choices}"


async def open_create(pilot, app: RummyApp) -> CreateTableScreen:  # noqa: ANN001
    """Open the create-table dialog and wait for its rules to be read (in a worker)."""
    await pilot.press("c")
    await settle(pilot, lambda: isinstance(app.screen, CreateTableScreen) and app.screen.ready)
    return app.screen


async def create_by_keys(pilot, app: RummyApp, seats: int = 2) -> None:  # noqa: ANN001
    dialog = await open_create(pilot, app)
    await choose(pilot, dialog.query_one("#choose-rules"), "three_thirteen")
    await pilot.press("down")
    await choose(pilot, dialog.query_one("#choose-seats"), seats)
    await pilot.press("enter")
    await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def join_the_table(pilot, app: RummyApp) -> None:  # noqa: ANN001
    """Wait for the one table to show in the lobby, then join it."""
    await settle(pilot, lambda: app.screen.query_one("#table-list").row_count == 1)
    await pilot.press("j")


async def test_the_lobby_lists_tables_as_they_come_and_go():
    lobby = Lobby(FAST)
    async with two_guests(lobby) as (alice, pa, bob, pb):
        assert isinstance(alice.screen, LobbyScreen)
        await create_by_keys(pa, alice, seats=3)
        [shared] = lobby.tables
        assert shared.seats[0].person == "alice" and len(shared.seats) == 3
        board = bob.screen.query_one("#table-list")
        await settle(pb, lambda: board.row_count == 1)
        await pb.press("j")
        await settle(pa, lambda: shared.seats_taken() == 2)
        await pa.press("l")  # alice gets up: bob hosts the waiting table now
        assert shared.host == "bob" and shared.seats[0].is_open
        await pb.press("l")
        await settle(pb, lambda: board.row_count == 0 and lobby.tables == [])


async def test_refusals_show_up_as_notifications_not_crashes():
    lobby = Lobby(LobbyConfig(**{**FAST.__dict__, "max_tables": 1}))
    async with two_guests(lobby) as (alice, pa, bob, pb):
        await create_by_keys(pa, alice)
        await open_create(pb, bob)
        await pb.press("enter")
        await settle(pb, lambda: any("limit" in str(n.message) for n in bob._notifications))
        await pb.press("w")  # not started: nothing to watch yet
        await settle(pb, lambda: any("not started" in str(n.message)
                                     for n in bob._notifications))
        assert isinstance(bob.screen, LobbyScreen) and bob.is_running


async def test_chat_line_opens_with_slash_sends_with_enter_and_esc_gives_keys_back():
    lobby = Lobby(FAST)
    async with two_guests(lobby) as (alice, pa, bob, pb):
        await create_by_keys(pa, alice)
        await join_the_table(pb, bob)  # the table is full: it deals, both go to the table
        await settle(pa, lambda: isinstance(alice.screen, TableScreen))
        await settle(pb, lambda: isinstance(bob.screen, TableScreen))
        [shared] = lobby.tables
        box = alice.screen.query_one(ChatBox)
        assert not box.typing
        await pa.press("slash")
        assert box.typing and isinstance(alice.focused, ChatInput)
        await pa.press(*"gl hf", "s")  # letters go into the line, not to the table
        history = len(shared.table.game.history)
        await pa.press("enter")
        assert not box.typing
        assert shared.chat.messages[-1].text == "gl hfs"
        assert len(shared.table.game.history) == history
        other = bob.screen.query_one(ChatBox)
        await settle(pb, lambda: "gl hfs" in str(other.query_one("#chat-lines").render()))
        await pa.press("slash", "x", "escape")
        assert not box.typing and shared.chat.messages[-1].text == "gl hfs"
        # Flooding is slowed down with a word, not a crash.  (The chat's clock stands
        # still: on a loaded machine six sends could take longer than a burst, and the
        # flood was never seen.)
        shared.chat._clock = lambda: 1000.0
        for _ in range(6):
            await pa.press("slash", "y", "enter")
        await settle(pa, lambda: any("faster" in str(n.message) for n in alice._notifications))


async def test_leaving_the_table_keeps_the_seat_and_join_takes_it_back():
    lobby = Lobby(FAST)
    async with two_guests(lobby) as (alice, pa, bob, pb):
        await create_by_keys(pa, alice)
        await join_the_table(pb, bob)
        await settle(pb, lambda: isinstance(bob.screen, TableScreen))
        [shared] = lobby.tables
        await pb.press("q")
        await settle(pb, lambda: isinstance(bob.screen, LobbyScreen))
        assert not shared.seats[1].present and shared.status == "playing"
        await pb.press("j")
        await settle(pb, lambda: isinstance(bob.screen, TableScreen))
        assert shared.seats[1].present and bob.screen.seat == 1


async def test_a_players_own_rules_are_offered_for_a_new_table(tmp_path):  # noqa: ANN001
    """Over SSH each player has a folder of rulesets; creating a table offers them too
    (marked as theirs) and the table plays by them, loaded from that folder only."""
    folder = tmp_path / "ann"
    folder.mkdir()
    (folder / "quick_13.yaml").write_text(
        "extends: three_thirteen\nname: Quick Thirteen\ngoing_out: {bonus: -7}\n")
    lobby = Lobby(FAST)
    async with one_guest(lobby, "ann", folder) as (ann, pilot):
        rules = (await open_create(pilot, ann)).query_one("#choose-rules")
        assert ("Quick Thirteen (yours)", "quick_13") in rules.choices
        await choose(pilot, rules, "quick_13")
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(ann.screen, LobbyScreen))
        [shared] = lobby.tables
        assert shared.rules.name == "Quick Thirteen"
        assert shared.rules.going_out.bonus == -7 and shared.rules_key == "quick_13"


async def test_a_players_rules_that_break_after_listing_do_not_crash_the_dialog(tmp_path):  # noqa: ANN001
    folder = tmp_path / "ann"
    folder.mkdir()
    mine = folder / "quick_13.yaml"
    mine.write_text("extends: three_thirteen\nname: Quick Thirteen\n")
    lobby = Lobby(FAST)
    async with one_guest(lobby, "ann", folder) as (ann, pilot):
        dialog = await open_create(pilot, ann)
        mine.write_text("extends: three_thirteen\nname: [broken\n")  # edited meanwhile
        await choose(pilot, dialog.query_one("#choose-rules"), "quick_13")
        await pilot.press("enter")
        await settle(pilot, lambda: "no longer loads" in str(
            dialog.query_one("#create-about").render()))
        assert ann.screen is dialog and not lobby.tables


async def test_the_create_dialog_reads_the_rules_files_off_the_loop(monkeypatch):  # noqa: ANN001
    """Over SSH the loop draws every player's screen: listing the rulesets (every file
    read) and loading the rules on show happen in workers."""
    import threading

    reads = watch_rule_reads(monkeypatch)
    lobby = Lobby(FAST)
    async with one_guest(lobby, "ann") as (app, pilot):
        await create_by_keys(pilot, app)
        assert len(lobby.tables) == 1
    assert len(reads.every) >= 2  # the list, then the rules on show
    assert threading.get_ident() not in reads.every  # (the test runs on the app's loop)


async def test_enter_while_the_rules_are_read_creates_the_table_once_they_are(monkeypatch):  # noqa: ANN001
    import threading

    import tui.engine.ruleset as ruleset

    real_load = ruleset.load_ruleset
    release, reading = threading.Event(), threading.Event()

    def held(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        reading.set()
        release.wait(10)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(ruleset, "load_ruleset", held)
    lobby = Lobby(FAST)
    app = guest_app(lobby, "ann")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("c")
            await settle(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            dialog = app.screen
            await settle(pilot, reading.is_set)
            assert not dialog.ready
            await pilot.press("enter")  # the rules on show are still being read
            assert app.screen is dialog and not lobby.tables
            release.set()
            # the table is made by the dialog's result callback, which may come a moment
            # after the lobby shows again (seen in CI on a loaded machine)
            await settle(pilot, lambda: bool(lobby.tables))
            [shared] = lobby.tables
            assert shared.rules_key == dialog.chosen_key
    finally:
        release.set()
        lobby.close()
