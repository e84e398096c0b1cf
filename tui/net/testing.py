"""Test kit for the SSH transport, shared by tests and benchmarks.

`TerminalClient` is a scripted SSH player: an asyncssh client whose output goes into a
small terminal emulator (pyte), so checks read the screen a person would see instead of
guessing from escape codes. `CounterApp` is a tiny app that shows what the server told
it (player, size, colours) and counts keys, escapes and clicks.

pyte is a test dependency (the `test` extra); it is imported only when a client is made.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any

import asyncssh
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.widgets import Static

from tui.net.session import SessionInfo, current_session


class CounterApp(App[None]):
    """Shows `user=NAME count=N esc=N clicks=N size=WxH color=SYSTEM` on one line.

    `+` counts, Esc counts escapes, a click on the line counts clicks, `!` raises (a
    crashing app), `p` prints to stdout (must never reach any player), `q` quits.
    """

    CSS = "#status { height: 1; }"
    BINDINGS = [("plus", "count", "count"), ("escape", "escape", "esc"), ("q", "quit", "quit")]

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.info = info
        self.count = 0
        self.escapes = 0
        self.clicks = 0
        self.size_seen: Size = Size(*info.size)
        self.session_seen: SessionInfo | None = None

    def compose(self) -> ComposeResult:
        yield Static(self._status(), id="status")

    def _status(self) -> str:
        w, h = self.size_seen
        return (
            f"user={self.info.player_name} count={self.count} esc={self.escapes} "
            f"clicks={self.clicks} size={w}x{h} color={self.console.color_system}"
        )

    def _show(self) -> None:
        self.query_one("#status", Static).update(self._status())

    def on_mount(self) -> None:
        self.session_seen = current_session()

    def action_count(self) -> None:
        self.count += 1
        self._show()

    def action_escape(self) -> None:
        self.escapes += 1
        self._show()

    def on_click(self, event: events.Click) -> None:
        self.clicks += 1
        self._show()

    def on_resize(self, event: events.Resize) -> None:
        self.size_seen = event.size
        self._show()

    def on_key(self, event: events.Key) -> None:
        if event.key == "exclamation_mark":
            raise RuntimeError("the test app crashes on purpose")
        if event.key == "p":
            print(f"PRINTED-BY-{self.info.username}")


def counter_factory(info: SessionInfo) -> CounterApp:
    """App factory serving one `CounterApp` per session."""
    return CounterApp(info)


class KeylessClient(asyncssh.SSHClient):
    """Answers a keyboard-interactive login that asks nothing, as OpenSSH does (asyncssh
    on its own tries keyboard-interactive only with a password): how a client without a
    key gets into an open server."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: Sequence[tuple[str, bool]]
    ) -> list[str] | None:
        return [] if not prompts else None


class _ClientSession(asyncssh.SSHClientSession):
    def __init__(self, client: TerminalClient) -> None:
        self._client = client

    def data_received(self, data: bytes, datatype: Any) -> None:
        self._client._received(data, datatype)

    def connection_lost(self, exc: Exception | None) -> None:
        self._client._lost()


class TerminalClient:
    """One connected player with a PTY; `text` is what their screen shows now."""

    def __init__(self, size: tuple[int, int]) -> None:
        import pyte

        self.screen = pyte.Screen(*size)
        self._rows: list[str] = []
        self._stream = pyte.ByteStream(self.screen)
        self.output = bytearray()
        self.stderr = bytearray()
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()
        self.last_change = 0.0

    @classmethod
    async def connect(
        cls,
        port: int,
        *,
        host: str = "127.0.0.1",
        username: str = "alice",
        term_type: str | None = "xterm-256color",
        size: tuple[int, int] = (80, 24),
        password: str | None = None,
        client_keys: Sequence[asyncssh.SSHKey] | None = (),
        env: dict[str, str] | None = None,
        command: str | None = None,
        source: str | None = None,
        sock: socket.socket | None = None,
    ) -> TerminalClient:
        """Connect and open a session (with a PTY unless `term_type` is None), from the
        loopback address `source` if given (the door counts by address), or over `sock`,
        a connected socket (that already sent a load balancer's header, say)."""
        client = cls(size)
        client.conn = await asyncssh.connect(
            host,
            port,
            username=username,
            password=password,
            client_keys=client_keys,
            known_hosts=None,
            agent_path=None,
            preferred_auth="publickey,keyboard-interactive,password",
            client_factory=None if password else KeylessClient,
            local_addr=(source, 0) if source else None,
            sock=sock,
        )
        kwargs: dict[str, Any] = {"encoding": None, "env": env or {}}
        if term_type is not None:
            kwargs.update(term_type=term_type, term_size=size)
        if command is not None:
            kwargs["command"] = command
        client.chan, _ = await client.conn.create_session(lambda: _ClientSession(client), **kwargs)
        return client

    # -- what the server sent ---------------------------------------------------------

    def _received(self, data: bytes, datatype: Any) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr.extend(data)
        else:
            self.output.extend(data)
            self._stream.feed(data)
        self.last_change = time.perf_counter()
        self._changed.set()

    def _lost(self) -> None:
        self.closed.set()
        self._changed.set()

    @property
    def text(self) -> str:
        """The screen's text, one line per row.

        Only the rows pyte marked dirty are rebuilt: re-rendering whole screens on
        every packet cost the benchmark's client more CPU than the server it measured.
        """
        screen = self.screen
        if len(self._rows) != screen.lines:
            self._rows = [""] * screen.lines
            screen.dirty.update(range(screen.lines))
        columns = range(screen.columns)
        for y in screen.dirty:
            if 0 <= y < screen.lines:
                row = screen.buffer[y]
                self._rows[y] = "".join(row[x].data for x in columns)
        screen.dirty.clear()
        return "\n".join(self._rows)

    @property
    def exit_status(self) -> int | None:
        return None if self.chan is None else self.chan.get_exit_status()

    async def wait_until(self, check: Callable[[], bool], timeout: float = 10.0) -> None:
        """Wait until `check()` holds, re-checking whenever output arrives."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not check():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met in {timeout}s; screen:\n{self.text}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                pass

    async def wait_for(self, text: str, timeout: float = 10.0) -> None:
        """Wait until `text` is on screen."""
        await self.wait_until(lambda: text in self.text, timeout)

    async def wait_closed(self, timeout: float = 10.0) -> None:
        await asyncio.wait_for(self.closed.wait(), timeout)

    # -- what the player does -----------------------------------------------------------

    def send(self, data: str | bytes) -> None:
        """Type: `data` goes to the server exactly as given."""
        assert self.chan is not None
        self.chan.write(data.encode() if isinstance(data, str) else data)

    def resize(self, width: int, height: int) -> None:
        """Change the window size (an SSH window-change request)."""
        assert self.chan is not None
        self.screen.resize(height, width)
        self._rows = []
        self.chan.change_terminal_size(width, height)

    async def close(self) -> None:
        """Leave politely: close the connection and wait for it."""
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()

    def abort(self) -> None:
        """Vanish: drop the TCP connection without any goodbye."""
        if self.conn is not None:
            self.conn.abort()
