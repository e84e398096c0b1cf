"""A scripted worker for the game service's tests: it speaks the wire protocol by hand
over the service's real Unix socket (so it can also lie, garble and crash)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ssh_room import until

from tui.service.lobby import LobbyConfig
from tui.service.wire import decode, encode

FAST = LobbyConfig(bot_delay=0, grace=30, summary_pause=0, summary_timeout=5, seed=3)


class ScriptedWorker:
    """A worker process stand-in: writes requests, keeps everything it is sent."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received: list[dict[str, Any]] = []
        self.views: dict[int, dict[str, Any]] = {}  # session -> its latest view message
        self.replies: dict[int, dict[str, Any]] = {}
        self._numbers = iter(range(1, 10**6))
        self._task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def connect(cls, path: Path, worker: int) -> ScriptedWorker:
        reader, writer = await asyncio.open_unix_connection(str(path), limit=1 << 21)
        self = cls(reader, writer)
        self.send({"t": "hello", "worker": worker})
        return self

    async def _read(self) -> None:
        while line := await self.reader.readline():
            message = decode(line)
            self.received.append(message)
            if message["t"] == "view":
                self.views[message["s"]] = message
            elif message["t"] == "reply":
                self.replies[message["q"]] = message

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(encode(message))

    def raw(self, line: bytes) -> None:
        self.writer.write(line)

    def ask(self, message: dict[str, Any]) -> int:
        number = next(self._numbers)
        self.send({**message, "q": number})
        return number

    async def reply(self, number: int) -> dict[str, Any]:
        await until(lambda: number in self.replies)
        return self.replies[number]

    def abort(self) -> None:
        """Die the way a killed process does: the socket just goes."""
        self._task.cancel()
        self.writer.transport.abort()
