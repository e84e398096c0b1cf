"""Test kit for worker machines: `rummy serve --workers-only` processes on loopback
addresses of their own (127.0.0.2, 127.0.0.3), linked over TLS to a game service (on
127.0.0.4), with certificates made by `tui.net.certs`."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import asyncssh
from ssh_room import until

import tui
from tui.net.certs import CA_CERT, make_certs

SERVICE_HOST = "127.0.0.4"
ROOT = Path(tui.__file__).resolve().parents[1]


def certificates(folder: Path, workers: list[str]) -> Path:
    """A CA, the service's certificate for `SERVICE_HOST` and one per worker name."""
    make_certs(folder, SERVICE_HOST, workers)
    return folder


def foreign_certificate(folder: Path, real: Path, name: str = "intruder") -> Path:
    """A worker folder with a certificate from another CA, but trusting the real one
    (as an intruder who copied the public ca.pem would): only the service can refuse."""
    make_certs(folder, SERVICE_HOST, [name])
    (folder / name / CA_CERT).write_bytes((real / CA_CERT).read_bytes())
    return folder / name


def host_key(folder: Path) -> Path:
    """An SSH host key file shared by the worker machines (as the host copies it)."""
    path = folder / "host_key"
    if not path.exists():
        asyncssh.generate_private_key("ssh-ed25519").write_private_key(str(path))
        path.chmod(0o600)
    return path


class WorkerMachine:
    """`rummy serve --workers-only` in a process of its own, on `host` and a free port."""

    def __init__(self, home: Path, host: str, service_port: int, tls: Path, key: Path,
                 *extra: str) -> None:
        self.home = home
        self.host = host
        self.args = ["--workers-only", "--service", f"{SERVICE_HOST}:{service_port}",
                     "--tls", str(tls), "--host", host, "--port", "0", "--workers", "1",
                     "--host-key", str(key), "--idle-timeout", "0", *extra]
        self.said: list[str] = []
        self.log: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0
        self._readers: list[asyncio.Task[None]] = []

    async def start(self, linked: bool = True) -> WorkerMachine:
        """Start it; wait until it listens (and, if `linked`, the service answered it)."""
        env = dict(os.environ, RUMMY_HOME=str(self.home), PYTHONPATH=str(ROOT))
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui", "serve", *self.args, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [asyncio.create_task(self._read(self.proc.stdout, self.said)),
                         asyncio.create_task(self._read(self.proc.stderr, self.log))]
        await until(lambda: any("listening on" in line for line in self.said)
                    or self.proc.returncode is not None, 60, "the worker machine to listen")
        line = next(line for line in self.said if "listening on" in line)
        self.port = int(re.search(re.escape(self.host) + r":(\d+)", line).group(1))
        if linked:
            await self.linked()
        return self

    async def linked(self, times: int = 1) -> None:
        """Until its worker has been answered by the service `times` times."""
        await until(lambda: self.said_times("linked to the game service") >= times, 60,
                    f"the worker machine on {self.host} to link ({times})")

    def said_times(self, text: str) -> int:
        return sum(text in line for line in self.log)

    @staticmethod
    async def _read(stream: asyncio.StreamReader, into: list[str]) -> None:
        while line := await stream.readline():
            into.append(line.decode(errors="replace").rstrip())

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 30)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        await asyncio.gather(*self._readers, return_exceptions=True)
