"""Test kit for rooms of real worker processes (what `rummy serve` runs): workers of a
test's own, each on a port of its own, so a session can be put on a chosen worker
rather than wherever the kernel spreads it."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import sys
from pathlib import Path

from ssh_room import until

import tui
from tui.net.workers import PASSWORD_ENV, WorkerRoom, reserve_port


class OwnWorker:
    """A worker process of the test's own, on a port only it listens on."""

    def __init__(self, room: WorkerRoom, number: int, host: str = "127.0.0.1") -> None:
        self.room = room
        self.number = number
        self.host = host
        self._reserved = reserve_port(host, 0)
        self.port: int = self._reserved.getsockname()[1]
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        settings = dataclasses.replace(self.room.pool.settings, host=self.host,
                                       port=self.port)
        env = dict(os.environ)
        root = str(Path(tui.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        env.pop(PASSWORD_ENV, None)
        if self.room.pool.password is not None:  # the room's password, as its own workers
            env[PASSWORD_ENV] = self.room.pool.password
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.net.workers", "--socket",
            str(self.room.pool.socket_path), "--worker", str(self.number),
            "--settings", settings.to_json(), env=env)
        await until(lambda: self.number in ready_workers(self.room), timeout=60,
                    what=f"worker {self.number} to say hello")

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await until(lambda: self.number not in ready_workers(self.room),
                    what=f"worker {self.number} gone from the service")

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        self._reserved.close()


def ready_workers(room: WorkerRoom) -> set[int]:
    return {link.worker for link in room.service.links if link.worker is not None}


def worker_of(room: WorkerRoom, name: str) -> int | None:
    for link in room.service.links:
        if any(s.guest.name == name for s in link.sessions.values()):
            return link.worker
    return None
