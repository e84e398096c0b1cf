"""Keeping a server's shared tables across restarts: every game that starts in the lobby
is written down as it is played (`tui.service.kept_tables`), and a server started again
on the same data folder brings every unfinished one back to its lobby.

A table comes back under its old number, with the same hands, turn and scores; every
owner is away, and keeps their seat for the grace period from the restart (by their key,
or a keyless player by the rejoin code their table showed), after which a bot plays it
until they return.  A game that had ended (the server stopped before it was recorded)
is recorded now and forgotten; a kept table that cannot be loaded is reported in the log
and left on disk, untouched, for the host to look at or drop.

While the server stops (`stop()`), the tables are closed without being forgotten.
Only one server keeps the tables of a folder at a time: a second one started on the same
data folder plays without keeping its tables (and says so).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tui.engine.game import Game
from tui.file_lock import FileLock
from tui.records import RecordOutcome, record_finished_game
from tui.records.recorder import default_store
from tui.service.chat import ChatMessage
from tui.service.interface import SeatSpec
from tui.service.kept_tables import (
    LOCK_FILE,
    DamagedTable,
    KeptHeader,
    KeptTable,
    KeptTableError,
    SeatRecord,
    SqliteTables,
    TableLog,
    TableStore,
)
from tui.service.lobby import Lobby, LobbyError
from tui.service.seats import Seat
from tui.service.shared_table import SharedTable
from tui.service.table import Table, write_record

log = logging.getLogger(__name__)


class TableKeeper:
    """The kept tables of one running server, tied to its lobby."""

    def __init__(self, store: TableStore, lobby: Lobby, lock: FileLock | None = None) -> None:
        self.store = store
        self.lobby = lobby
        self._lock = lock
        self._begun: set[int] = set()  # tables kept (or tried) already, by id
        self._unsubscribe = lobby.subscribe(self._lobby_changed)

    @classmethod
    def open(cls, folder: Path, lobby: Lobby) -> TableKeeper | None:
        """Keep `lobby`'s tables in `folder`; None (logged) when another running server
        keeps that folder's tables or the folder cannot be used."""
        lock = FileLock(Path(folder) / LOCK_FILE)
        try:
            held = lock.acquire()
        except OSError as exc:
            log.error("kept tables: cannot use %s (%s): games will not survive a restart",
                      folder, exc.strerror or exc)
            return None
        if not held:
            log.warning("kept tables: another rummy serve keeps the tables in %s: this one "
                        "does not keep its games", folder)
            return None
        return cls(SqliteTables(folder), lobby, lock)

    # ------------------------------------------------------------------ coming back
    def restore(self) -> list[int]:
        """Bring every unfinished kept table back to the lobby; the ids brought back."""
        back: list[int] = []
        for entry in self.store.load_all():
            self._begun.add(entry.id)
            if isinstance(entry, DamagedTable):
                log.error("kept table %s skipped: %s (left on disk; `rummy serve "
                          "--drop-table %s` forgets it)", entry.id, entry.reason, entry.id)
                continue
            if entry.game.phase == "game_over":
                self._record(entry)
                continue
            try:
                self._bring_back(entry)
            except (LobbyError, KeptTableError) as exc:
                log.error("kept table %s not brought back: %s (left on disk)", entry.id, exc)
                continue
            back.append(entry.id)
        self.lobby.reserve_ids_above(self.store.next_id() - 1)  # loadable or not
        return back

    def _bring_back(self, entry: KeptTable) -> SharedTable:
        game, header = entry.game, entry.header
        seats = [Seat(person=seat["person"], owner=seat["owner"] or "",
                      rejoin_code=seat["rejoin_code"], bot=seat["bot"],
                      name=seat["name"] or "") for seat in entry.seats]
        shared = self.lobby.create(header.host, header.rules_key, game.players,
                                   header.fill_level, rules=game.rules, table_id=entry.id)
        try:
            specs = [SeatSpec(seat.name, None if seat.person else seat.bot) for seat in seats]
            table = Table(game.rules, specs, game.seed, game=game,
                          started_at=header.started_at)
            shared.chat.restore(entry.chat)
            shared.kept = self.store.resume(entry.id, game)
            shared.resume(table, seats)
        except Exception:
            shared.kept = None
            shared.close()
            raise
        shared.chat.announce("The server was restarted: the game goes on where it was. "
                             "Each player keeps their seat: connect again to take it back.")
        log.info("kept table %s brought back: %s, deal %s, %s move(s)", entry.id,
                 game.rules.name, game.round.number, len(game.history))
        return shared

    def _record(self, entry: KeptTable) -> None:
        """A game that ended before the server stopped: recorded now, then forgotten."""
        game, header = entry.game, entry.header
        specs = [SeatSpec(str(s["name"]), s["bot"] if not s["person"] else None)
                 for s in entry.seats]
        store = default_store()

        def done(outcome: RecordOutcome, _on_loop: bool) -> None:
            if outcome.record_id is None:  # kept until it can be recorded
                log.error("kept table %s had finished but was not recorded: %s", entry.id,
                          outcome.message)
                return
            self.store.drop(entry.id)
            log.info("kept table %s had finished: recorded and forgotten", entry.id)

        write_record(lambda: record_finished_game(game, specs, header.started_at,
                                                  store=store), done)

    # ------------------------------------------------------------------ playing
    def _lobby_changed(self) -> None:
        """A game that just began is written down from its first move."""
        for shared in self.lobby.tables:
            if shared.table is None or shared.kept is not None or shared.id in self._begun \
                    or shared.status != "playing":
                continue
            self._begun.add(shared.id)
            self._begin(shared, shared.table)

    def _begin(self, shared: SharedTable, table: Table) -> None:
        header = KeptHeader(shared.rules_key, shared.fill_level, shared.host,
                            table.started_at)
        try:
            shared.kept = self.store.begin(shared.id, header, table.game,
                                           shared.seat_records(), shared.chat.messages)
        except Exception:
            log.exception("table %s: cannot keep it on disk: a restart of the server will "
                          "not bring it back", shared.id)

    # ------------------------------------------------------------------ stopping
    def stop(self) -> None:
        """The server is stopping: from now on a table that closes stays kept (unless
        its game is over and recorded); no new game is kept."""
        self._unsubscribe()
        for shared in self.lobby.tables:
            if shared.kept is not None:
                shared.kept = _Stopping(shared.kept, shared)

    def close(self) -> None:
        """Stop writing (every table stays kept) and let the folder go."""
        self.stop()
        for shared in self.lobby.tables:
            kept, shared.kept = shared.kept, None
            if kept is not None:
                kept.close()
        if self._lock is not None:
            self._lock.release()


@dataclass
class _Stopping:
    """A table's log while the server stops: closing the table keeps it."""

    log: TableLog
    shared: SharedTable

    @property
    def table_id(self) -> int:
        return self.log.table_id

    def moved(self, game: Game) -> None:
        self.log.moved(game)

    def seated(self, seats: Sequence[SeatRecord]) -> None:
        self.log.seated(seats)

    def said(self, message: ChatMessage) -> None:
        self.log.said(message)

    def close(self) -> None:
        self.log.close()

    def remove(self) -> None:
        table = self.shared.table
        if table is not None and table.record_outcome is not None:
            self.log.remove()  # over and recorded: forgotten even now
        else:
            self.log.close()


# ---------------------------------------------------------------------- the host's tools
def describe_kept(folder: Path) -> list[str]:
    """One line per kept table in `folder`, for `rummy serve --list-tables`."""
    import datetime

    lines = []
    for entry in SqliteTables(folder).load_all():
        if isinstance(entry, DamagedTable):
            lines.append(f"{entry.id:>4}  cannot be loaded: {entry.reason}")
            continue
        game = entry.game
        who = ", ".join(_owner(seat) for seat in entry.seats)
        when = datetime.datetime.fromtimestamp(entry.updated).strftime("%Y-%m-%d %H:%M")
        state = ("finished" if game.phase == "game_over"
                 else f"deal {game.round.number} of {len(game.rules.rounds)}")
        lines.append(f"{entry.id:>4}  {game.rules.name}, {state}, last move {when}: {who}")
    return lines


def _owner(seat: SeatRecord) -> str:
    if not seat.get("person"):
        return f"{seat.get('name')} (bot)"
    owner = seat.get("owner") or ""
    how = "key" if owner.startswith("key:") else "rejoin code"
    return f"{seat.get('name')} ({how})"


def drop_kept(folder: Path, table_id: int) -> str:
    """Forget kept table `table_id` (`rummy serve --drop-table`); `KeptTableError` when
    there is none, or while a server keeps this folder (it would write the table again)."""
    lock = FileLock(Path(folder) / LOCK_FILE)
    store = SqliteTables(folder)
    if not store.path_of(table_id).exists():
        raise KeptTableError(f"there is no kept table {table_id} in {folder}")
    if not lock.acquire():
        raise KeptTableError("a running rummy serve keeps these tables: stop it first")
    try:
        store.drop(table_id)
    finally:
        lock.release()
    return f"kept table {table_id} dropped"
