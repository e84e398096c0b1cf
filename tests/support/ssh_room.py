"""Test kit for the SSH card room, shared by the end-to-end tests and the benchmark.

`open_room()` starts the real server (lobby app per session) on 127.0.0.1 port 0 in this
process, so a test can both type on scripted terminals and look at the authoritative
table.  The players only ever act by keys; the state is read to decide which key a
person would press now and to know when the screens must have caught up.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import asyncssh

from tui.commands.serve import LobbyApps
from tui.engine.actions import GoOut
from tui.net.server import Server
from tui.net.startup import start_server
from tui.net.testing import TerminalClient
from tui.service.lobby import Lobby, LobbyConfig
from tui.service.shared_table import SharedTable

RIGHT, LEFT, UP, DOWN = "\x1b[C", "\x1b[D", "\x1b[A", "\x1b[B"
ENTER = "\r"
IN_PLAY = ("draw", "play", "buy")
FAST = LobbyConfig(bot_delay=0.01, grace=0.4, summary_pause=0.05, summary_timeout=30, seed=5)


@dataclass
class Room:
    server: Server
    lobby: Lobby

    @property
    def port(self) -> int:
        return self.server.port

    async def close(self) -> None:
        await self.server.close()
        self.lobby.close()


async def open_room(config: LobbyConfig = FAST, **server_options) -> Room:  # noqa: ANN003
    lobby = Lobby(config)
    apps = LobbyApps(lobby)
    server_options.setdefault("idle_timeout", None)
    server = await start_server(apps, "127.0.0.1", 0, on_session_end=apps.session_ended,
                                **server_options)
    return Room(server, lobby)


async def until(condition: Callable[[], bool], timeout: float = 20.0,
                what: str = "") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await asyncio.sleep(0.005)


@functools.cache
def key_of(name: str) -> asyncssh.SSHKey:
    """The SSH key `name` logs in with (one per name, the same all session long)."""
    return asyncssh.generate_private_key("ssh-ed25519", comment=f"{name}@test")


async def arrive(port: int, name: str, size: tuple[int, int] = (80, 24),
                 client_class: type[TerminalClient] = TerminalClient,
                 keyed: bool = False, **options: Any) -> TerminalClient:
    """Connect as `name` (with `name`'s own SSH key if `keyed`) and wait for the lobby
    (or the table, for a player coming back)."""
    if keyed:
        options["client_keys"] = [key_of(name)]
    client = await client_class.connect(port, username=name, size=size, **options)
    await client.wait_until(lambda: f"you are {name}" in client.text
                            or "Your turn" in client.text or "cards · " in client.text)
    return client


def shown_choice(client: TerminalClient, label: str) -> str | None:
    """The value a `label   ◀ value ▶` row of a form shows now (`< value >` on a terminal
    without UTF-8)."""
    found = re.search(re.escape(label) + r"\s+[◀<] (.*?) [▶>]", client.text)
    return found.group(1) if found else None


async def choose(client: TerminalClient, label: str, wanted: str, limit: int = 12) -> None:
    """Press → on the focused `label ◀ value ▶` row until it shows `wanted` (one press at
    a time, each waited for, so a slow screen never makes it overshoot)."""
    for _ in range(limit):
        current = shown_choice(client, label)
        if current == wanted:
            return
        client.send(RIGHT)
        await client.wait_until(lambda c=current: shown_choice(client, label) != c, timeout=5)
    raise AssertionError(f"{wanted!r} never offered; screen:\n{client.text}")


async def create_table(client: TerminalClient, rules: str = "Three Thirteen", seats: int = 3,
                       bots: str = "medium") -> None:
    """Create a table by keys, the way a player does."""
    client.send("c")
    await client.wait_for("New table")
    # the dialog lists the rules, and reads the ones on show, in a worker: wait for each
    await client.wait_until(lambda: shown_choice(client, "Rules") not in (None, "—"))
    await choose(client, "Rules", rules)
    await client.wait_until(lambda: "Reading " not in client.text)
    client.send(DOWN)
    await choose(client, "Seats", str(seats))
    client.send(DOWN)
    await choose(client, "Empty seats", f"{bots} bots")
    client.send(ENTER)
    await client.wait_for("You are seated")


async def join_and_deal(host: TerminalClient, host_name: str, guest: TerminalClient,
                        guest_name: str) -> None:
    """`guest`, in the lobby, joins the table `host` made (`create_table`) and `host` deals:
    both show the first deal of Three Thirteen."""
    await guest.wait_for(f"{host_name}, ")
    guest.send("j")
    await host.wait_until(lambda: f"{host_name}, {guest_name}" in host.text)
    host.send("s")
    await host.wait_for("Deal 1 of 11")
    await guest.wait_for("Deal 1 of 11")


def person_seats(shared: SharedTable) -> dict[str, int]:
    return {seat.person: i for i, seat in enumerate(shared.seats) if seat.person}


def key_for(shared: SharedTable, seat: int) -> str:
    """The key a person in `seat` presses now: draw, go out if they can, else discard."""
    assert shared.table is not None
    view = shared.table.view(seat)
    if view.phase == "draw":
        return "s"
    if view.phase == "buy":
        return "n"  # pass: people here never buy
    if any(isinstance(a, GoOut) for a in view.legal):
        return "o"
    return "d"


async def play_move(client: TerminalClient, shared: SharedTable, seat: int,
                    timeout: float = 10.0) -> None:
    """Press the key for `seat`'s move and wait until the table took it (retrying if the
    screen was not ready for it yet)."""
    assert shared.table is not None
    game = shared.table.game
    done = len(game.history)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(game.history) == done and game.actor == seat:
        client.send(key_for(shared, seat))
        try:
            await until(lambda: len(game.history) > done, timeout=0.5)
        except AssertionError:
            if loop.time() > deadline:
                raise AssertionError(f"seat {seat} never moved; screen:\n{client.text}") \
                    from None


async def play_until(shared: SharedTable, players: dict[int, TerminalClient],
                     stop: Callable[[], bool], timeout: float = 60.0) -> None:
    """People (by keys) and bots (by the table) play until `stop()`."""
    assert shared.table is not None
    table = shared.table
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not stop():
        assert loop.time() < deadline, "the game did not get there in time"
        actor = table.game.actor
        if actor in players and not table.is_bot(actor) and table.game.phase in IN_PLAY:
            await play_move(players[actor], shared, actor)
        else:
            await asyncio.sleep(0.005)
