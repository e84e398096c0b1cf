"""The autosave: the game's text taken after each change and written by a worker."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import work

from tui.atomic import write_atomic
from tui.engine.view import SeatView

from .table_view import TableView

SAVE_EVERY = 1.0  # seconds: the autosave is at most this far behind the table


class TableAutosave(TableView):
    def _autosave(self, view: SeatView) -> None:
        """Save after a change: at once when a deal ends, else within `SAVE_EVERY`
        seconds, every change in between saved together (bots at full speed change the
        table every few milliseconds; taking the game's text is about a millisecond and
        writing it as much again).  Leaving the table saves at once what is pending."""
        if self.session.save_path is None:
            return
        if view.phase in ("round_over", "game_over"):
            self._save_now()
        elif self._save_timer is None:
            self._save_timer = self.set_timer(SAVE_EVERY, self._save_now)

    def _save_now(self, in_worker: bool = True) -> None:
        """The game's text is taken here, on the UI thread, so it is one consistent state;
        writing it (atomically, with a sync to disk) is a worker's job.  Writes are
        numbered and an older one never replaces a newer."""
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = None
        path = self.session.save_path
        if path is None or self._view is None:
            return
        over = self._view.phase == "game_over"
        try:
            text = None if over else self.table.save_text()
        except Exception as exc:  # noqa: BLE001 - a failed save must never stop play
            self._save_failed(path, exc)
            return
        if not over and text is None:
            return  # a table that is not saved
        self._save_number += 1
        if in_worker:
            self._write_save(path, text, self._save_number)
        elif (failure := self._write_numbered(path, text, self._save_number)) is not None:
            self._save_failed(path, failure)

    @work(group="save")
    async def _write_save(self, path: Path, text: str | None, number: int) -> None:
        failure = await asyncio.to_thread(self._write_numbered, path, text, number)
        if failure is not None:
            self._save_failed(path, failure)

    def _write_numbered(self, path: Path, text: str | None, number: int) -> Exception | None:
        """Write save `number` (None: remove the save) unless a newer one is written;
        returns what went wrong, if anything."""
        with self._save_lock:
            if number < self._saved_number:
                return None  # a newer save is already written
            self._saved_number = number
            try:
                if text is None:
                    path.unlink(missing_ok=True)
                else:
                    write_atomic(path, text)
            except Exception as exc:  # noqa: BLE001 - a failed save must never stop play
                return exc
        return None

    def _save_failed(self, path: Path, exc: Exception) -> None:
        if not self._save_warned:
            self._save_warned = True
            self.notify(f"The game could not be saved to {path}: {exc}",
                        title="Autosave failed", severity="warning", timeout=8)

