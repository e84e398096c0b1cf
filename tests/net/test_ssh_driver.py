"""The SSH driver, terminal link, colour choice and stream isolation, without SSH.

A fake channel records what the driver writes; a fake app records what it posts.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
import weakref

import pytest
from textual import events

from tui.net import isolation
from tui.net.colors import color_system_for
from tui.net.driver import SSHDriver
from tui.net.terminal import APP_QUEUE_HIGH, INPUT_CHUNK, RemoteTerminal


class FakeChannel:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.backlog = 0
        self.paused = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def get_write_buffer_size(self) -> int:
        return self.backlog

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    @property
    def text(self) -> str:
        return b"".join(self.writes).decode()


class FakeConsole:
    size = (0, 0)


class FakeApp:
    def __init__(self) -> None:
        self.posted: list[events.Message] = []
        self.console = FakeConsole()

    def post_message(self, message: events.Message) -> bool:
        self.posted.append(message)
        return True

    def keys(self) -> list[str]:
        return [m.key for m in self.posted if isinstance(m, events.Key)]


@pytest.fixture
async def rig() -> tuple[FakeApp, FakeChannel, RemoteTerminal, SSHDriver]:
    app = FakeApp()
    channel = FakeChannel()
    terminal = RemoteTerminal(channel, (90, 30))
    driver = SSHDriver(app, terminal=terminal)  # type: ignore[arg-type]
    return app, channel, terminal, driver


async def test_start_sets_up_the_terminal_in_one_write_and_reports_the_size(rig):
    app, channel, terminal, driver = rig
    driver.start_application_mode()
    assert len(channel.writes) == 1
    out = channel.text
    for sequence in ("\x1b[?1049h", "\x1b[?1000h", "\x1b[?1006h", "\x1b[?25l", "\x1b[?2004h"):
        assert sequence in out
    resizes = [m for m in app.posted if isinstance(m, events.Resize)]
    assert [r.size for r in resizes] == [(90, 30)]
    assert app.console.size == (90, 30)


async def test_keys_typed_before_the_app_started_are_delivered_once_it_has(rig):
    app, _channel, terminal, driver = rig
    terminal.data_received(b"ab")
    assert app.keys() == []
    driver.start_application_mode()
    assert app.keys() == ["a", "b"]


async def test_plain_keys_arrows_enter_and_ctrl_keys(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    terminal.data_received(b"x\x1b[A\r\x03")
    assert app.keys() == ["x", "up", "enter", "ctrl+c"]


async def test_a_lone_escape_is_delivered_after_the_escape_delay(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    terminal.data_received(b"\x1b")
    assert app.keys() == []  # could still be the start of a sequence
    await until(lambda: app.keys() != [])  # the escape delay's timer, however late it runs
    assert app.keys() == ["escape"]


async def test_an_escape_sequence_split_across_packets_is_one_key(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    terminal.data_received(b"\x1b")
    await asyncio.sleep(0)  # the rest comes in a later packet, well within the escape delay
    terminal.data_received(b"[B")
    assert app.keys() == ["down"]
    # and no lone Esc follows: the escape delay's timer is gone with the finished sequence
    assert driver._tick_handle is None


async def test_kitty_keyboard_protocol_keys_are_understood(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    terminal.data_received(b"\x1b[97u\x1b[27u")  # "a", then Esc, as kitty reports them
    assert app.keys() == ["a", "escape"]


async def test_a_finished_driver_leaves_no_parser_behind():
    """Textual's parser caches keys per instance (the cache key holds the parser); a
    parser kept alive keeps its last key event, whose sender is the whole app."""
    terminal = RemoteTerminal(FakeChannel(), (80, 24))
    driver = SSHDriver(FakeApp(), terminal=terminal)  # type: ignore[arg-type]
    driver.start_application_mode()
    terminal.data_received(b"x\x1b[98u")
    parser = weakref.ref(driver._parser)
    driver.stop_application_mode()
    driver.close()
    del driver
    gc.collect()
    assert parser() is None


async def test_sgr_mouse_reports_become_mouse_events(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    terminal.data_received(b"\x1b[<0;5;3M\x1b[<0;5;3m")
    mouse = [m for m in app.posted if isinstance(m, events.MouseEvent)]
    assert [type(m) for m in mouse] == [events.MouseDown, events.MouseUp]
    assert (mouse[0].x, mouse[0].y, mouse[0].button) == (4, 2, 1)


async def test_utf8_split_across_packets_and_invalid_bytes_never_break_input(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    terminal.data_received("é".encode()[:1])
    terminal.data_received("é".encode()[1:])
    terminal.data_received(b"\xff")
    terminal.data_received(b"z")
    characters = [m.character for m in app.posted if isinstance(m, events.Key)]
    assert characters == ["é", "\ufffd", "z"]


async def test_window_change_posts_a_resize_and_updates_the_driver_size(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    terminal.resized(120, 40)
    await until(lambda: driver._size == (120, 40))
    resizes = [m.size for m in app.posted if isinstance(m, events.Resize)]
    assert resizes[-1] == (120, 40)
    assert driver._size == (120, 40)
    assert terminal.size == (120, 40)


async def test_output_of_one_loop_turn_leaves_as_one_write(rig):
    _app, channel, _terminal, driver = rig
    driver.write("one ")
    driver.write("two ")
    driver.write("three")
    assert channel.writes == []
    await asyncio.sleep(0)
    assert channel.writes == [b"one two three"]


async def test_stop_restores_the_terminal_and_later_input_and_output_are_dropped(rig):
    app, channel, terminal, driver = rig
    driver.start_application_mode()
    driver.stop_application_mode()
    out = channel.writes[-1].decode()
    for sequence in ("\x1b[?1049l", "\x1b[?1000l", "\x1b[?1006l", "\x1b[?25h", "\x1b[?2004l"):
        assert sequence in out
    terminal.data_received(b"k")
    assert "k" not in app.keys()
    driver.close()
    before = len(channel.writes)
    driver.write("late")
    driver.flush()
    assert len(channel.writes) == before


async def test_urls_never_open_on_the_server(rig, monkeypatch):
    _app, _channel, _terminal, driver = rig
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url))
    driver.open_url("https://example.invalid/")
    assert opened == []


class RecordingSink:
    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.queued = 0
        self.asked = 0  # how often the terminal looked at the app's backlog

    def feed(self, data: bytes) -> None:
        self.chunks.append(data)

    def resize(self, width: int, height: int) -> None:
        pass

    def backlog(self) -> int:
        self.asked += 1
        return self.queued


async def test_input_before_the_app_is_ready_holds_the_client_until_it_is():
    channel = FakeChannel()
    terminal = RemoteTerminal(channel, (80, 24))
    terminal.data_received(b"early")
    assert channel.paused  # SSH flow control holds the client meanwhile
    sink = RecordingSink()
    terminal.attach(sink)
    assert b"".join(sink.chunks) == b"early" and not channel.paused


async def test_a_flood_is_delivered_in_order_a_chunk_per_loop_turn():
    channel = FakeChannel()
    terminal = RemoteTerminal(channel, (80, 24), input_rate=None)
    sink = RecordingSink()
    terminal.attach(sink)
    flood = bytes(range(256)) * 40
    terminal.data_received(flood)
    assert len(sink.chunks) == 1 and channel.paused  # one chunk now, the rest later
    for _ in range(len(flood) // INPUT_CHUNK + 10):
        if not channel.paused:
            break
        await asyncio.sleep(0)
    assert b"".join(sink.chunks) == flood
    assert max(len(chunk) for chunk in sink.chunks) <= INPUT_CHUNK
    assert not channel.paused


async def test_a_session_gets_no_more_input_than_its_rate():
    now = [100.0]
    channel = FakeChannel()
    terminal = RemoteTerminal(channel, (80, 24), input_rate=1000, input_burst=200,
                              clock=lambda: now[0])
    sink = RecordingSink()
    terminal.attach(sink)
    terminal.data_received(b"k" * 1000)  # a flood: more than the burst
    for _ in range(40):  # many loop turns, but the clock stands still
        await asyncio.sleep(0)
    assert len(b"".join(sink.chunks)) == 200 and channel.paused
    now[0] += 0.125  # an eighth of a second: 125 more bytes may go
    await until(lambda: len(b"".join(sink.chunks)) >= 325)
    now[0] += 5  # however long the wait, no more than a burst at once
    await until(lambda: len(b"".join(sink.chunks)) >= 525)
    for _ in range(40):
        await asyncio.sleep(0)
    assert len(b"".join(sink.chunks)) == 525 and channel.paused
    for _ in range(5):  # time goes on: the rest follows, a burst at a time
        delivered = len(b"".join(sink.chunks))
        now[0] += 10
        await until(lambda seen=delivered: len(b"".join(sink.chunks)) > seen
                    or not channel.paused)
    assert b"".join(sink.chunks) == b"k" * 1000 and not channel.paused


async def test_a_thousand_window_changes_reach_the_app_as_one_at_the_last_size(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    for step in range(1000):
        terminal.resized(80 + step % 50, 24 + step % 20)
    terminal.resized(133, 41)
    await until(lambda: driver._size == (133, 41))
    sizes = [m.size for m in app.posted if isinstance(m, events.Resize)]
    assert sizes == [(90, 30), (133, 41)]  # the first paint, then the last size once


async def test_window_changes_after_one_was_drawn_are_drawn_again_at_the_last_size(rig):
    app, _channel, terminal, driver = rig
    driver.start_application_mode()
    terminal.resized(100, 30)
    await until(lambda: driver._size == (100, 30))
    terminal.resized(110, 35)  # a drag goes on: drawn again, once, at its last size
    terminal.resized(120, 40)
    await until(lambda: driver._size == (120, 40))
    sizes = [m.size for m in app.posted if isinstance(m, events.Resize)]
    assert sizes == [(90, 30), (100, 30), (120, 40)]


async def until(condition, limit: int = 2000) -> None:  # noqa: ANN001
    for _ in range(limit):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never happened")


async def test_input_waits_while_the_app_is_behind():
    channel = FakeChannel()
    terminal = RemoteTerminal(channel, (80, 24))
    sink = RecordingSink()
    sink.queued = APP_QUEUE_HIGH + 1
    terminal.attach(sink)
    terminal.data_received(b"abc")
    assert sink.chunks == [] and channel.paused
    await until(lambda: sink.asked >= 3)  # it looked again, twice, and still held back
    assert sink.chunks == [] and channel.paused
    sink.queued = 0
    await until(lambda: sink.chunks == [b"abc"])
    assert not channel.paused


def test_a_client_that_stops_reading_trips_the_overflow_once():
    channel = FakeChannel()
    tripped: list[int] = []
    terminal = RemoteTerminal(
        channel, (80, 24), max_backlog=100, on_overflow=lambda: tripped.append(1)
    )
    terminal.write(b"a" * 10)
    assert tripped == []
    channel.backlog = 101
    terminal.write(b"b")
    terminal.write(b"c")
    assert tripped == [1]


def test_writes_after_close_go_nowhere():
    channel = FakeChannel()
    terminal = RemoteTerminal(channel, (80, 24))
    terminal.close()
    terminal.write(b"gone")
    assert channel.writes == []


@pytest.mark.parametrize(
    ("term", "env", "expected"),
    [
        ("xterm-256color", {}, "256"),
        ("screen-256color", {}, "256"),
        ("xterm", {}, "standard"),
        ("vt100", {}, "standard"),
        ("", {}, "standard"),
        (None, {}, "standard"),
        ("xterm", {"COLORTERM": "truecolor"}, "truecolor"),
        ("xterm-256color", {"COLORTERM": "24bit"}, "truecolor"),
        ("xterm-direct", {}, "truecolor"),
        ("foot-truecolor", {}, "truecolor"),
        ("xterm-kitty", {}, "truecolor"),
    ],
)
def test_colour_depth_comes_from_the_client_terminal(term, env, expected):
    assert color_system_for(term, env) == expected


def test_out_of_order_app_exits_leave_sys_stdout_as_it_was():
    """The trap: redirect_stdout restores what it saw on entry, so two apps that end in
    the other order leave sys.stdout pointing at the first app's capture. With the
    shared server streams, sys.stdout ends up where it started."""
    original = sys.stdout
    isolation.acquire_streams()
    first = contextlib.redirect_stdout(isolation.SERVER_STDOUT)
    first.__enter__()
    isolation.acquire_streams()
    second = contextlib.redirect_stdout(isolation.SERVER_STDOUT)
    second.__enter__()
    first.__exit__(None, None, None)  # the first app ends first
    isolation.release_streams()
    assert sys.stdout is original
    second.__exit__(None, None, None)  # restores what it saw: the shared stream
    assert sys.stdout is isolation.SERVER_STDOUT
    isolation.release_streams()
    assert sys.stdout is original


async def test_the_test_clients_screen_text_matches_the_emulator():
    from tui.net.testing import TerminalClient

    client = TerminalClient((12, 3))
    client._received("héllo\r\n世界x".encode(), None)
    assert client.text.splitlines() == client.screen.display
    client._received(b"\x1b[1;1HHE", None)  # overwrite the start of the first row
    assert client.text.splitlines() == client.screen.display
    assert client.text.startswith("HEllo")
