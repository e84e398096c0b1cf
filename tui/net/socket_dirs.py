"""The private folders under the temporary directory where a server's game service and
its session workers meet (one Unix socket each).

A server that exits cleanly removes its folder; one killed (`kill -9`, a crash, a power
cut) leaves it behind.  Each folder holds the pid of the service that made it, so the
next server started by the same user removes every folder whose service is gone.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)

PREFIX = "rummy-service-"
PID_FILE = "service.pid"
YOUNG = 60.0
"""Seconds during which a folder without a pid file may be one being made right now."""


def private_socket_dir(root: Path | None = None) -> Path:
    """A new folder readable by this user only, after removing those left behind."""
    remove_stale_socket_dirs(root)
    folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=root))
    (folder / PID_FILE).write_text(str(os.getpid()), encoding="ascii")
    return folder


def remove_stale_socket_dirs(root: Path | None = None) -> list[Path]:
    """Remove this user's socket folders whose service is no longer running."""
    root = Path(root or tempfile.gettempdir())
    removed = []
    for folder in root.glob(PREFIX + "*"):
        try:
            if folder.is_symlink() or not folder.is_dir() \
                    or folder.stat().st_uid != os.getuid():
                continue
        except OSError:
            continue
        if _in_use(folder):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
        log.info("removed %s, left behind by a server that was stopped abruptly", folder)
    return removed


def _in_use(folder: Path) -> bool:
    try:
        pid = int((folder / PID_FILE).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        try:  # no pid (yet): a folder being made now, or from an older version
            return time.time() - folder.stat().st_mtime < YOUNG
        except OSError:
            return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists (another user's process): not ours to judge
        return True
    return True
