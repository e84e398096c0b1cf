"""Test kit for HAProxy in front of worker "machines" on loopback addresses: the shipped
docs/haproxy.cfg, run as it is, its addresses given through the environment."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
from pathlib import Path

import pytest

CONFIG = Path(__file__).resolve().parents[2] / "docs" / "haproxy.cfg"
HAPROXY = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
needs_haproxy = pytest.mark.skipif(
    HAPROXY is None,
    reason="haproxy is not installed (Debian package haproxy; .ci/run installs it)")


PROBE = "127.0.0.250"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class HAProxy:
    """haproxy -f docs/haproxy.cfg, listening on 127.0.0.1:`port`, round robin over
    `workers` (HOST:PORT each; the file names two)."""

    def __init__(self, workers: list[str]) -> None:
        assert len(workers) == 2, "docs/haproxy.cfg names two worker machines"
        self.workers = workers
        self.port = 0
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> HAProxy:
        haproxy = HAPROXY
        assert haproxy is not None
        self.port = free_port()
        env = dict(os.environ, RUMMY_LISTEN=f"127.0.0.1:{self.port}",
                   RUMMY_WORKER1=self.workers[0], RUMMY_WORKER2=self.workers[1])
        self.process = await asyncio.create_subprocess_exec(
            haproxy, "-db", "-f", str(CONFIG), env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        # Until it listens (or says why it cannot); the probe comes from an address of
        # its own, as the door would count its abandoned connection against it.
        while True:
            if self.process.returncode is not None:
                assert self.process.stderr is not None
                raise AssertionError(f"haproxy ended: {(await self.process.stderr.read())!r}")
            try:
                _, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(PROBE, 0))
            except OSError:
                if loop.time() > deadline:
                    raise
                await asyncio.sleep(0.05)
                continue
            writer.close()
            return self

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()
