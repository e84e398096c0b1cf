"""The saved-game file, owned by one running app at a time.

Two app windows of one player share the user data folder.  If both autosaved to the same
file they would overwrite each other's game after every move, and "Continue" in one would
pick up the other's.  So the file is a slot: an app claims it (an advisory lock on a file
beside it, released when the app exits, even if it crashes) before it saves or continues a
game, and a second window that finds it taken plays without saving and says so.  The slot
is claimed lazily, so a window opened second gets it once the first one has closed.
"""

from __future__ import annotations

from pathlib import Path

from tui.atomic import remove_stale_temporaries
from tui.file_lock import FileLock

TAKEN_MESSAGE = ("Another rummy window is using your saved game, so games in this window are "
                 "not saved: Continue finds this window's game while the window stays open. "
                 "Close the other window to save here.")


class SaveSlot:
    """The save file at `path` and the lock that says which app may write it."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = FileLock(self.path.with_name(self.path.name + ".lock"))

    @property
    def held(self) -> bool:
        return self._lock.held

    def claim(self) -> bool:
        """Take the slot if no other app has it (True also when this app already has it)."""
        try:
            held = self._lock.acquire()
        except OSError:  # the folder cannot be written: nothing could be saved anyway
            return False
        if held:  # only the slot's holder writes it: any old temporary is a killed write's
            remove_stale_temporaries(self.path)
        return held

    def release(self) -> None:
        self._lock.release()

    def has_game(self) -> bool:
        return self.path.exists()



def set_aside(path: Path) -> Path | None:
    """Rename a save that cannot be loaded to ``NAME.damaged`` (a later one replaces an
    earlier one), so a new game can take the slot; None if it could not be moved."""
    target = path.with_name(path.name + ".damaged")
    try:
        path.replace(target)
    except OSError:
        try:
            path.unlink()
        except OSError:
            return None
        return None
    return target
