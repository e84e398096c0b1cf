"""An advisory lock on a file, between processes (and between open files of one process).

Used where two running copies of rummy-tui must not do the same thing at once: one app
window holds the saved-game slot for as long as it runs, and setting a damaged records file
aside happens once however many processes find it damaged.  POSIX ``flock`` and Windows
``msvcrt.locking`` both release the lock when the holder exits, even by ``kill -9``, so a
crashed app never leaves the slot taken.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO


class FileLock:
    """An exclusive lock on `path` (created if need be); `acquire` tries without waiting."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._handle: IO[bytes] | None = None

    @property
    def held(self) -> bool:
        return self._handle is not None

    def acquire(self) -> bool:
        """Take the lock if nobody holds it; False (and nothing held) if somebody does.
        Raises `OSError` if the lock file cannot be created."""
        if self._handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+b")  # noqa: SIM115 - kept open while the lock is held
        try:
            if not _try_lock(handle):
                handle.close()
                return False
        except BaseException:
            handle.close()
            raise
        self._handle = handle
        return True

    def acquire_waiting(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the lock; False if it stayed taken."""
        deadline = time.monotonic() + timeout
        while not self.acquire():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                _unlock(handle)
            handle.close()


@contextlib.contextmanager
def locked(path: Path, timeout: float) -> Iterator[bool]:
    """Hold the lock on `path` for a block, waiting up to `timeout` seconds; yields whether
    it was obtained (the block runs either way: the lock is a courtesy between processes)."""
    lock = FileLock(path)
    try:
        got = lock.acquire_waiting(timeout)
    except OSError:
        got = False
    try:
        yield got
    finally:
        lock.release()


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(handle: IO[bytes]) -> bool:
        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        fcntl.flock(handle, fcntl.LOCK_UN)
