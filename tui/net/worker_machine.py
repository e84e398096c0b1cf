"""A worker machine: `rummy serve --workers-only`, session workers for a game service
that runs on another machine.

The SSH front is the one `rummy serve` runs (same host key and `--authorized-keys`, so a
player cannot tell which machine they landed on); each worker process links to the
service over TCP with TLS (`tui.net.tls_link`) and keeps that link through outages
(`tui.net.remote.ServiceLink.keep`).  Who is who, the door's counts and every table stay
with the service.
"""

from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path

from tui.net.workers import WorkerPool, WorkerSettings, hold_front


class WorkerMachine:
    """This machine's workers, listening for players and linked to a remote service."""

    def __init__(self, pool: WorkerPool, reserved: socket.socket, host: str, key_path: Path,
                 fingerprint: str) -> None:
        self.pool = pool
        self._reserved = reserved
        self.host = host
        self.port: int = reserved.getsockname()[1]
        self.host_key_path = key_path
        self.host_key_fingerprint = fingerprint

    @classmethod
    async def open(cls, settings: WorkerSettings, workers: int,
                   password: str | None) -> WorkerMachine:
        """Check the settings (`ServeError`/`LinkError` naming what is wrong), then start
        `workers` worker processes on `settings.host`/`settings.port` (0: one is picked,
        and they all share it)."""
        from tui.net.tls_link import parse_address, worker_context

        assert settings.service is not None and settings.tls is not None
        parse_address(settings.service, "--service")
        worker_context(Path(settings.tls))  # a missing or bad certificate is told here
        key, key_path, reserved = hold_front(settings.host, settings.port,
                                             settings.host_key or None,
                                             settings.authorized_keys)
        port = reserved.getsockname()[1]
        pool = WorkerPool(None, replace(settings, port=port, host_key=str(key_path)),
                          workers, password)
        machine = cls(pool, reserved, settings.host, key_path, key.get_fingerprint())
        await pool.start()
        return machine

    async def close(self) -> None:
        """Stop the workers (their players are told)."""
        await self.pool.stop()
        self._reserved.close()
