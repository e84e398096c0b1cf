"""Issue 33: the record counts the moves a player took back (records version 4), and a
database from before keeps every game, counted as none taken back."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from records_kit import T0, finished_game, seats

from tui.records import RecordStore, default_store, record_finished_game
from tui.records.record import GameRecord
from tui.records.schema import MIGRATIONS, SCHEMA_VERSION
from tui.records.store import DB_NAME


def test_a_table_is_recorded_with_its_count_of_undos(home: Path) -> None:
    from tui.service.interface import SeatSpec
    from tui.service.table import Table

    game = finished_game(seed=4)
    table = Table(game.rules, [SeatSpec("Ada"), SeatSpec("Ben", "random")], game=game)
    table.undos = 3
    outcome = record_finished_game(table, started_at=T0)
    assert outcome.record_id is not None
    assert default_store().get(outcome.record_id).undos == 3
    assert default_store().get(record_finished_game(
        finished_game(seed=5), seats(), T0).record_id or 0).undos == 0  # a bare game: none


def test_a_version_3_database_gains_the_count_and_keeps_its_games(home: Path) -> None:
    path = home / "data" / DB_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    for step in MIGRATIONS[:3]:
        step(conn)
    conn.execute("PRAGMA user_version = 3")
    old = GameRecord.from_game(finished_game(seed=6), seats(), T0)
    conn.execute(
        "INSERT INTO games (uid, ruleset_key, ruleset_name, ruleset_text, seed, players,"
        " scores, winners, started_at, finished_at, actions, fingerprint)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (old.uid, old.ruleset_key, old.ruleset_name, old.ruleset_text, old.seed,
         json.dumps([{"name": s.name, "bot": s.bot} for s in old.seats]),
         json.dumps([list(p) for p in old.scores]), json.dumps(list(old.winners)),
         old.started_at.isoformat(), old.finished_at.isoformat(),
         json.dumps(list(old.actions)), old.fingerprint))
    for seat, spec in enumerate(old.seats):
        conn.execute("INSERT INTO seats VALUES (1, ?, ?, ?, ?, ?)",
                     (seat, spec.name, spec.bot, old.totals[seat], int(seat in old.winners)))
    conn.commit()
    conn.close()
    store = RecordStore(path)
    summaries = store.summaries()
    assert store.notice is None, store.notice
    (summary,) = summaries
    kept = store.get(summary.id)
    assert kept.uid == old.uid and kept.totals == old.totals and kept.undos == 0
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert "undos" in [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    conn.close()
