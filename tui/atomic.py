"""Write a file so that readers see the old contents or the new, whole, never half of one.

The one way the code base replaces a file it owns (saved games, settings, rulesets written
by the editor, exported records): the text goes to a temporary file with a name of its own
in the same folder, is flushed to disk, and then takes the target's place in one rename.
Two writers at once (two app windows, two processes) each write their own temporary file,
so neither can tear the other's; the last rename wins, whole.  A crash at any moment leaves
either the old file or the new one, and at worst a stray ``.NAME.*.tmp`` beside it, which
`remove_stale_temporaries` clears once it is old enough to be no live writer's.
"""

from __future__ import annotations

import contextlib
import glob
import os
import stat
import tempfile
import time
from pathlib import Path

NEW_FILE_MODE = 0o644  # rw-r--r--: a temporary file starts private (0600), so set it
STALE_AFTER = 600.0  # seconds: a live write takes milliseconds, so older is a killed one's


def write_atomic(path: Path, data: str | bytes, mode: int | None = None) -> None:
    """Replace `path` with `data` (text is written as UTF-8) in one step.

    The folder is created if need be.  The file keeps the permissions of the one it
    replaces; a new file gets `mode` (default ``0o644``).  Raises `OSError` when the folder
    cannot be written (the target is then left exactly as it was)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, _mode_for(path, mode))
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(path.parent)


def remove_stale_temporaries(path: Path, older_than: float = STALE_AFTER) -> int:
    """Remove the temporary files of `path` that writers killed mid-write left behind
    (``.NAME.*.tmp`` last changed more than `older_than` seconds ago); returns how many.
    A file that cannot be removed is left, silently: it is litter, not a fault."""
    path = Path(path)
    cutoff = time.time() - older_than
    removed = 0
    try:
        strays = list(path.parent.glob(f".{glob.escape(path.name)}.*.tmp"))
    except OSError:
        return 0
    for stray in strays:
        with contextlib.suppress(OSError):
            if stray.is_file() and not stray.is_symlink() and stray.stat().st_mtime < cutoff:
                stray.unlink()
                removed += 1
    return removed


def _mode_for(path: Path, mode: int | None) -> int:
    if mode is not None:
        return mode
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return NEW_FILE_MODE


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); where folders cannot be opened, skip."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
