"""A scripted SSH player for tests and benchmarks: an asyncssh client whose output
goes into a small terminal emulator (pyte), so checks read the screen a person would
see instead of guessing from escape codes.

pyte is a test dependency (the `test` extra); it is imported only here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

import asyncssh


class _ClientSession(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self, client: TerminalClient) -> None:
        self._client = client

    def data_received(self, data: bytes, datatype: Any) -> None:  # type: ignore[override]
        self._client._received(data, datatype)

    def connection_lost(self, exc: Exception | None) -> None:
        self._client._lost()


class TerminalClient:
    """One connected player with a PTY; `text` is what their screen shows now."""

    def __init__(self, size: tuple[int, int]) -> None:
        import pyte

        self.screen = pyte.Screen(*size)
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
    ) -> TerminalClient:
        """Connect and open a session (with a PTY unless `term_type` is None)."""
        client = cls(size)
        client.conn = await asyncssh.connect(
            host,
            port,
            username=username,
            password=password,
            client_keys=client_keys,
            known_hosts=None,
            agent_path=None,
            preferred_auth=(
                "publickey,keyboard-interactive,password" if password or client_keys else "none"
            ),
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
        """The screen's text, one line per row."""
        return "\n".join(self.screen.display)

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
