"""Real SSH sessions on 127.0.0.1 against the counter app: screens, keys, resize,
colours, isolation between players, teardown."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import weakref

import pytest
from ssh_room import until

from tui.net.server import Server
from tui.net.startup import start_server
from tui.net.testing import CounterApp, TerminalClient, counter_factory


@pytest.fixture
async def server():
    srv = await start_server(counter_factory, "127.0.0.1", 0)
    try:
        yield srv
    finally:
        await srv.close()


async def join(server: Server, name: str = "alice", **kwargs) -> TerminalClient:
    client = await TerminalClient.connect(server.port, username=name, **kwargs)
    await client.wait_for(f"user={name} count=0")
    return client


async def wait_sessions(server: Server, count: int, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(server.sessions) != count:
        assert loop.time() < deadline, f"{len(server.sessions)} sessions, wanted {count}"
        await asyncio.sleep(0.02)


async def test_player_sees_their_name_and_keys_update_the_screen(server):
    alice = await join(server)
    assert "size=80x24" in alice.text
    alice.send("+")
    await alice.wait_for("count=1")
    alice.send("++")
    await alice.wait_for("count=3")
    await alice.close()


async def test_the_server_port_is_the_real_one_and_sessions_are_listed(server):
    assert server.port > 0
    alice = await join(server)
    [info] = server.sessions
    assert (info.username, info.term_type, info.size) == ("alice", "xterm-256color", (80, 24))
    assert isinstance(info.app, CounterApp)
    assert info.app.session_seen is info  # current_session() inside the app
    await alice.close()
    await wait_sessions(server, 0)


async def test_window_change_reaches_the_app(server):
    alice = await join(server)
    alice.resize(100, 30)
    await alice.wait_for("size=100x30")
    assert server.sessions[0].size == (100, 30)
    alice.resize(60, 15)
    await alice.wait_for("size=60x15")


@pytest.mark.parametrize(
    ("term", "env", "expected"),
    [
        ("xterm-256color", {}, "color=256"),
        ("xterm", {}, "color=standard"),
        ("xterm", {"COLORTERM": "truecolor"}, "color=truecolor"),
    ],
)
async def test_colour_depth_follows_each_clients_terminal(server, term, env, expected):
    client = await join(server, term_type=term, env=env)
    assert expected in client.text
    if expected == "color=standard":
        # No 256-colour or 24-bit colour codes reach a plain xterm.
        assert b"\x1b[38;5;" not in client.output and b"\x1b[38;2;" not in client.output


async def test_a_lone_escape_is_an_escape_key_and_arrows_are_not(server):
    alice = await join(server)
    alice.send("\x1b")
    await alice.wait_for("esc=1")
    alice.send("\x1b[A")  # an arrow key: must not count as escape
    alice.send("+")
    await alice.wait_for("count=1")
    # keys reach the app in the order they were sent: an escape read from the arrow, at
    # once or after the escape delay, would have come before the `+`
    assert "esc=1" in alice.text


async def test_mouse_clicks_arrive_through_sgr_reports(server):
    alice = await join(server)
    assert b"\x1b[?1006h" in alice.output  # SGR mouse reporting was switched on
    alice.send("\x1b[<0;3;1M\x1b[<0;3;1m")  # press and release on the status line
    await alice.wait_for("clicks=1")


async def test_two_players_each_see_only_their_own_app(server, capfd):
    alice = await join(server, "alice")
    bob = await join(server, "bob")
    alice.send("+++")
    bob.send("+")
    await alice.wait_for("user=alice count=3")
    await bob.wait_for("user=bob count=1")
    alice.send("p")  # the app prints to stdout: that goes to the server's log only
    bob.send("p")
    alice.send("+")
    bob.send("+")
    await alice.wait_for("count=4")
    await bob.wait_for("count=2")
    assert b"bob" not in alice.output and b"count=3" not in bob.output
    assert b"alice" not in bob.output
    assert b"PRINTED-BY" not in alice.output + bob.output
    captured = capfd.readouterr()
    assert "PRINTED-BY-alice" in captured.out and "PRINTED-BY-bob" in captured.out


async def test_sessions_ending_in_any_order_leave_sys_stdout_and_free_apps_and_lines(server):
    stdout_before = sys.stdout
    alice = await join(server, "alice")
    bob = await join(server, "bob")
    for player in (alice, bob):  # typing is what once kept finished apps alive
        player.send("+\x1b[A\x1b[<0;3;1M\x1b[<0;3;1m")
        await player.wait_for("count=1")
    apps = [weakref.ref(info.app) for info in server.sessions]
    drawn = [weakref.ref(widget._styles_cache) for info in server.sessions
             for widget in info.app.screen.walk_children(with_self=True)]
    await alice.close()  # the first to start ends first: the out-of-order case
    await wait_sessions(server, 1)
    await bob.close()
    await wait_sessions(server, 0)
    assert sys.stdout is stdout_before
    for _ in range(3):
        gc.collect()
    assert [ref() for ref in apps] == [None, None]
    assert [ref for ref in drawn if ref() is not None] == []  # nor what they drew (#6665)


async def test_an_abrupt_disconnect_does_not_disturb_the_other_player(server):
    alice = await join(server, "alice")
    bob = await join(server, "bob")
    alice_app = weakref.ref(server.sessions[0].app)
    alice.send("+")
    await alice.wait_for("count=1")
    alice.abort()
    await wait_sessions(server, 1)
    bob.send("++")
    await bob.wait_for("count=2")
    assert [info.username for info in server.sessions] == ["bob"]
    gc.collect()
    assert alice_app() is None


async def test_a_crashing_app_ends_only_its_own_session(server, caplog, capfd):
    alice = await join(server, "alice")
    bob = await join(server, "bob")
    caplog.set_level(logging.DEBUG, logger="tui.net.session")
    alice.send("!")
    await alice.wait_closed()
    assert alice.exit_status == 1
    assert b"hit a bug" in alice.output and b"seat is kept" in alice.output
    # One line says who crashed and why; no traceback floods the server's output.
    [line] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    message = line.getMessage()
    assert "alice from 127.0.0.1" in message and "\n" not in message
    assert "RuntimeError: the test app crashes on purpose (at testing.py:" in message
    assert "Traceback" not in capfd.readouterr().err
    bob.send("+")
    await bob.wait_for("count=1")
    await wait_sessions(server, 1)


async def test_quitting_restores_the_terminal_and_closes_with_status_0(server):
    alice = await join(server)
    alice.send("q")
    await alice.wait_closed()
    assert alice.exit_status == 0
    tail = bytes(alice.output[-200:])
    assert b"\x1b[?1049l" in tail and b"\x1b[?1000l" in tail and b"\x1b[?25h" in tail
    await wait_sessions(server, 0)


async def test_closing_the_server_tells_players_and_ends_their_sessions(tmp_path):
    srv = await start_server(counter_factory, "127.0.0.1", 0)
    alice = await join(srv)
    await srv.close()
    await alice.wait_closed()
    assert b"shutting down" in alice.output
    assert srv.sessions == []


async def test_many_keys_in_one_packet_are_all_counted(server):
    alice = await join(server)
    alice.send("+" * 50)
    await alice.wait_for("count=50")


class KeyTallyApp(CounterApp):
    """The counter app, also counting every key it is handed (bound or not)."""

    def __init__(self, info) -> None:  # noqa: ANN001
        super().__init__(info)
        self.keys_seen = 0

    def on_key(self) -> None:
        self.keys_seen += 1


async def test_a_flooding_player_does_not_hold_up_the_others():
    """Bob's key is handled while Alice's flood is still arriving: it does not wait behind
    her 16 KiB (an order of events, not a time: the machine may be slow)."""
    srv = await start_server(KeyTallyApp, "127.0.0.1", 0)
    try:
        alice = await join(srv, "alice")
        bob = await join(srv, "bob")
        [alice_app] = [i.app for i in srv.sessions if i.username == "alice"]
        flood = 16384
        alice.send("x" * flood)  # an unbound key, 16 KiB of it
        await until(lambda: alice_app.keys_seen > 0, what="the flood to start arriving")
        bob.send("+")
        await bob.wait_for("count=1")
        assert alice_app.keys_seen < flood, "bob's key waited for the whole flood"
        alice.send("+")
        await alice.wait_for("count=1", timeout=60)
        assert alice_app.keys_seen == flood + 1  # nothing of hers was lost on the way
    finally:
        await srv.close()


async def test_a_failing_app_factory_ends_only_that_session():
    calls: list[str] = []

    def factory(info):
        calls.append(info.username)
        if info.username == "broken":
            raise ValueError("the lobby could not seat this player")
        return CounterApp(info)

    srv = await start_server(factory, "127.0.0.1", 0)
    try:
        bob = await join(srv, "bob")
        broken = await TerminalClient.connect(srv.port, username="broken")
        await broken.wait_closed()
        assert broken.exit_status == 1 and b"hit a bug" in broken.output
        bob.send("+")
        await bob.wait_for("count=1")
        assert calls == ["bob", "broken"]
    finally:
        await srv.close()


class StuckApp(CounterApp):
    """An app whose key handler never returns, so it never handles its exit request;
    `stuck` is set once it is inside that handler."""

    def __init__(self, info) -> None:  # noqa: ANN001
        super().__init__(info)
        self.stuck = asyncio.Event()

    async def on_key(self, event) -> None:
        if event.key == "h":
            self.stuck.set()
            await asyncio.Event().wait()


async def test_an_app_that_does_not_exit_is_cancelled_after_a_grace_period(monkeypatch):
    monkeypatch.setattr("tui.net.session.EXIT_GRACE_SECONDS", 0.3)
    srv = await start_server(StuckApp, "127.0.0.1", 0)
    try:
        stuck = await join(srv, "stuck")
        stuck_app = weakref.ref(srv.sessions[0].app)
        inside = srv.sessions[0].app.stuck  # (the event holds no reference to the app)
        stuck.send("h")
        await asyncio.wait_for(inside.wait(), 10)  # inside its never-ending handler
        stuck.abort()
        await wait_sessions(srv, 0, timeout=5)
        gc.collect()
        assert stuck_app() is None
    finally:
        await srv.close()


async def test_the_server_side_can_close_one_session_with_a_message(server):
    alice = await join(server, "alice")
    bob = await join(server, "bob")
    [alice_info] = [info for info in server.sessions if info.username == "alice"]
    assert alice_info.active and alice_info.idle_seconds < 5
    alice_info.close("The host gave your seat to someone else.")
    await alice.wait_closed()
    assert b"gave your seat" in alice.output
    assert not alice_info.active and alice_info.app is None
    bob.send("+")
    await bob.wait_for("count=1")
