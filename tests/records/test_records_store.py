"""The records database: recording, damaged files, older schemas, concurrent writers."""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from records_kit import T0, finished_game, seats, write_v1_database

from tui.records import RecordStore, RecordsUnavailable, default_store, record_finished_game
from tui.records.record import GameRecord
from tui.records.replay import Replay
from tui.records.schema import SCHEMA_VERSION
from tui.records.store import DB_NAME, RecordNotFound

ROOT = Path(__file__).resolve().parents[2]



def db_path(home: Path) -> Path:
    return home / "data" / DB_NAME


# ---------------------------------------------------------------------- recording


def test_a_finished_game_is_recorded_with_everything(home: Path) -> None:
    game = finished_game(seed=3, players=3)
    outcome = record_finished_game(game, seats(3, level="random"), T0, finished_at=T0 + 754)
    assert outcome.message is None and outcome.record_id is not None
    record = default_store().get(outcome.record_id)
    assert record.id == outcome.record_id
    assert record.names == game.names
    assert [s.bot for s in record.seats] == [None, "random", "random"]
    assert record.seed == game.seed
    assert record.scores == tuple(tuple(p) for p in game.scores)
    assert record.totals == tuple(game.totals)
    assert record.winners == game.winners
    assert record.duration == 754
    assert record.started_at == datetime.fromtimestamp(T0, UTC)
    assert [a["kind"] for a in record.actions] == [a.kind for a in game.history]
    # the full ruleset text, which loads back to the rules the game was played by
    from tui.engine.ruleset.loader import load_ruleset_text

    loaded = load_ruleset_text(record.ruleset_text, key=record.ruleset_key)
    assert dataclasses.replace(loaded, source="") == dataclasses.replace(game.rules, source="")
    assert record.ruleset_name == game.rules.name
    (summary,) = default_store().summaries()
    assert summary.id == record.id and summary.totals == record.totals
    assert summary.rounds == len(game.scores) and summary.duration == 754


def test_the_database_is_in_wal_mode_with_the_current_schema(home: Path) -> None:
    record_finished_game(finished_game(), seats(), T0)
    conn = sqlite3.connect(db_path(home))
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_a_table_is_recorded_with_its_seats(home: Path) -> None:
    from tui.service.interface import SeatSpec
    from tui.service.table import Table

    game = finished_game(seed=4)
    table = Table(game.rules, [SeatSpec("Ada"), SeatSpec("Ben", "random")], game=game)
    outcome = record_finished_game(table, started_at=T0)
    record = default_store().get(outcome.record_id)
    assert [(s.name, s.bot) for s in record.seats] == [("Ada", None), ("Ben", "random")]


def test_recording_the_same_game_twice_keeps_one_record(home: Path) -> None:
    game = finished_game(seed=5)
    first = record_finished_game(game, seats(), T0)
    second = record_finished_game(game, seats(), T0)
    assert first.record_id == second.record_id
    assert default_store().count() == 1


def test_an_unfinished_game_is_refused(home: Path) -> None:
    from tui.engine.game import Game

    game = Game(finished_game().rules, ["Ada", "Ben"], 1)
    with pytest.raises(ValueError, match="finished"):
        record_finished_game(game, seats(), T0)


def test_an_abandoned_game_is_kept_as_abandoned_and_never_counted_as_played(
        home: Path) -> None:
    from tui.engine.ruleset.loader import load_ruleset
    from tui.records import record_abandoned_game
    from tui.service.table import SeatSpec, Table

    table = Table(load_ruleset("three_thirteen"), [SeatSpec("Ann"), SeatSpec("Bo", "easy")], 4)
    for _ in range(6):
        seat = table.game.actor
        table.act(seat, table.view(seat).legal[0])
    written = table.abandon()  # (no loop running: written at once)
    assert written is not None and written.done()
    outcome = written.result()
    assert outcome.record_id is not None and outcome.message is None
    assert record_abandoned_game(table).record_id == outcome.record_id  # kept once
    store = default_store()
    assert store.abandoned_count() == 1 and store.count() == 0 and store.summaries() == []
    conn = sqlite3.connect(db_path(home))
    deal, actions = conn.execute("SELECT deal, actions FROM abandoned").fetchone()
    assert deal == 1 and len(json.loads(actions)) == 6


def test_a_missing_record_says_so(home: Path) -> None:
    store = RecordStore(db_path(home))
    with pytest.raises(RecordNotFound, match="no recorded game #7"):
        store.get(7)


def test_delete_forgets_a_record(home: Path) -> None:
    store = RecordStore(db_path(home))
    a = store.add(GameRecord.from_game(finished_game(seed=1), seats(), T0))
    b = store.add(GameRecord.from_game(finished_game(seed=2), seats(), T0))
    assert store.delete(a) and not store.delete(a)
    assert [s.id for s in store.summaries()] == [b]
    conn = sqlite3.connect(db_path(home))
    assert conn.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (a,)).fetchone()[0] == 0


# ---------------------------------------------------------------------- damage


def test_a_garbage_file_is_set_aside_and_play_goes_on(home: Path) -> None:
    path = db_path(home)
    path.parent.mkdir(parents=True)
    garbage = b"this is not a database, it is a shopping list\n" * 200
    path.write_bytes(garbage)
    path.with_name(DB_NAME + "-wal").write_bytes(b"stale log")
    outcome = record_finished_game(finished_game(), seats(), T0)
    assert outcome.record_id is not None
    assert outcome.message is not None and "damaged" in outcome.message
    aside = sorted(path.parent.glob(DB_NAME + ".damaged-*"))
    kept = [p for p in aside if not p.name.endswith("-wal")]
    assert len(kept) == 1 and kept[0].read_bytes() == garbage
    assert kept[0].name in outcome.message
    assert default_store().count() == 1
    # the message is given once
    assert record_finished_game(finished_game(seed=2), seats(), T0).message is None


def test_a_database_with_a_corrupt_page_is_set_aside(home: Path) -> None:
    path = db_path(home)
    store = RecordStore(path)
    store.add(GameRecord.from_game(finished_game(seed=1), seats(), T0))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    data[100:page] = bytes(range(256)) * ((page - 100) // 256) + bytes((page - 100) % 256)
    path.write_bytes(bytes(data))
    fresh = RecordStore(path)
    assert fresh.summaries() == []
    notice = fresh.pop_notice()
    assert notice is not None and "damaged" in notice
    assert len(list(path.parent.glob(DB_NAME + ".damaged-*"))) == 1
    assert fresh.add(GameRecord.from_game(finished_game(seed=2), seats(), T0)) == 1


def test_a_file_damaged_while_open_is_replaced_on_the_next_write(home: Path) -> None:
    path = db_path(home)
    store = RecordStore(path)
    store.add(GameRecord.from_game(finished_game(seed=1), seats(), T0))
    for side in path.parent.glob(DB_NAME + "-*"):
        side.unlink()
    path.write_bytes(b"\0garbage" * 1000)
    record_id = store.add(GameRecord.from_game(finished_game(seed=2), seats(), T0))
    assert record_id == 1 and store.count() == 1
    assert "damaged" in (store.pop_notice() or "")


def test_two_stores_finding_the_same_damage_set_it_aside_once(home: Path) -> None:
    path = db_path(home)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage" * 500)
    records = [GameRecord.from_game(finished_game(seed=s), seats(), T0) for s in (1, 2, 3, 4)]
    stores = [RecordStore(path) for _ in records]
    barrier = threading.Barrier(len(records))
    errors: list[BaseException] = []

    def write(store: RecordStore, record: GameRecord) -> None:
        try:
            barrier.wait()
            store.add(record)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=pair)
               for pair in zip(stores, records, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len([p for p in path.parent.glob(DB_NAME + ".damaged-*")
                if not p.name.endswith(("-wal", "-shm"))]) == 1
    assert RecordStore(path).count() == 4


# ---------------------------------------------------------------------- schema versions

def test_a_version_1_database_is_upgraded_in_place_keeping_every_game(home: Path) -> None:
    path = db_path(home)
    old = [GameRecord.from_game(finished_game(seed=s, players=2 + s % 2),
                                seats(2 + s % 2), T0 + s * 3600, T0 + s * 3600 + 600)
           for s in (1, 2, 3)]
    write_v1_database(path, old)
    store = RecordStore(path)
    summaries = store.summaries()
    assert [s.id for s in summaries] == [3, 2, 1]  # newest first
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    seat_rows = conn.execute("SELECT COUNT(*) FROM seats").fetchone()[0]
    assert seat_rows == sum(len(r.seats) for r in old)
    conn.close()
    for original, summary in zip(old, reversed(summaries), strict=True):
        assert summary.totals == original.totals
        assert summary.winners == original.winners
        assert summary.seats == original.seats
        assert summary.ruleset_name == original.ruleset_name  # read from the ruleset text
        upgraded = store.get(summary.id)
        assert upgraded.uid == original.uid
        assert upgraded.fingerprint is None  # version 1 kept none
        assert upgraded.actions == original.actions
        # and the old record still replays to its recorded scores
        assert Replay(upgraded).end().totals == original.totals
        assert upgraded.rebuild().totals == list(original.totals)
    # an old record exports to a file that imports (and proves itself) anywhere
    from tui.records.exchange import export_record, import_record_file

    exported = export_record(store.get(1), home / "old.rummy.json")
    elsewhere = RecordStore(home / "elsewhere" / DB_NAME)
    assert import_record_file(exported, elsewhere) == (1, True)
    assert elsewhere.get(1).totals == old[0].totals
    # a game kept by version 1 is recognised when recorded (or imported) again
    assert store.add(old[0]) == 1 and store.count() == 3
    assert store.add(GameRecord.from_game(finished_game(seed=9), seats(), T0)) == 4


def test_a_database_from_a_newer_version_is_left_untouched(home: Path) -> None:
    path = db_path(home)
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.executescript("CREATE TABLE future (x); PRAGMA user_version = 99;")
    conn.close()
    before = path.read_bytes()
    outcome = record_finished_game(finished_game(), seats(), T0)
    assert outcome.record_id is None
    assert outcome.message is not None and "newer version" in outcome.message
    assert path.read_bytes() == before
    with pytest.raises(RecordsUnavailable, match="newer version"):
        RecordStore(path).summaries()


def test_an_unwritable_folder_is_reported_not_raised(home: Path) -> None:
    blocker = home / "data"
    blocker.write_text("a file where the data folder should be")
    outcome = record_finished_game(finished_game(), seats(), T0)
    assert outcome.record_id is None
    assert outcome.message is not None and "records" in outcome.message


# ---------------------------------------------------------------------- concurrency


def test_games_finishing_at_once_in_threads_are_all_recorded(home: Path) -> None:
    games = [finished_game(seed=s) for s in range(10, 22)]
    shared = default_store()
    barrier = threading.Barrier(len(games))
    outcomes: list = [None] * len(games)

    def finish(i: int) -> None:
        # half the sessions share the process-wide store, half open their own
        store = shared if i % 2 else RecordStore(db_path(home))
        barrier.wait()
        outcomes[i] = record_finished_game(games[i], seats(), T0 + i, store=store)

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(len(games))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = [o.record_id for o in outcomes]
    assert None not in ids and len(set(ids)) == len(games)
    assert all(o.message is None for o in outcomes)
    assert {s.id: s.totals for s in shared.summaries()} == {
        o.record_id: tuple(g.totals) for o, g in zip(outcomes, games, strict=True)}


WRITER = """
import sys, time
from pathlib import Path
from records_kit import T0, finished_game, seats, write_v1_database
from tui.records import record_finished_game
worker, count, gate = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
games = [finished_game(seed=1000 * worker + i) for i in range(count)]
(gate / f"ready-{worker}").touch()
while not (gate / "go").exists():  # all start together, however slow the machine
    time.sleep(0.005)
for i, game in enumerate(games):
    outcome = record_finished_game(game, seats(), T0 + worker * 100 + i)
    assert outcome.record_id is not None and outcome.message is None, outcome
    print(outcome.record_id, *game.totals, flush=True)
"""


def test_separate_processes_writing_at_once_lose_nothing(home: Path, tmp_path: Path) -> None:
    """Several server processes finishing games together, from a database none has created
    yet (so they also race to create and migrate it)."""
    import time

    env = {**os.environ, "RUMMY_HOME": str(home),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "support"), str(ROOT)])}
    gate = tmp_path / "gate"
    gate.mkdir()
    workers, count = 4, 5
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(w), str(count), str(gate)],
                              env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for w in range(workers)]
    while len(list(gate.glob("ready-*"))) < workers and all(p.poll() is None for p in procs):
        time.sleep(0.005)  # waiting for the writers to be ready, not timing them
    (gate / "go").touch()
    lines = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        lines += out.split("\n")
    written = {int(line.split()[0]): tuple(int(x) for x in line.split()[1:])
               for line in lines if line.strip()}
    assert len(written) == workers * count
    store = RecordStore(db_path(home))
    assert {s.id: s.totals for s in store.summaries()} == written
    conn = sqlite3.connect(db_path(home))
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


async def test_sessions_on_one_event_loop_record_together(home: Path) -> None:
    """How an SSH server records: every session hands the write to a worker thread."""
    import asyncio

    games = [finished_game(seed=s) for s in range(30, 36)]
    outcomes = await asyncio.gather(*(
        asyncio.to_thread(record_finished_game, game, seats(), T0 + i)
        for i, game in enumerate(games)))
    assert sorted(o.record_id for o in outcomes) == list(range(1, len(games) + 1))
    assert default_store().count() == len(games)


def abandon_a_game(seed: int, moves: int) -> None:
    """A two-seat Three Thirteen table given up after `moves` moves (recorded at once)."""
    from tui.engine.ruleset.loader import load_ruleset
    from tui.service.table import SeatSpec, Table

    table = Table(load_ruleset("three_thirteen"), [SeatSpec("Ann"), SeatSpec("Bo", "easy")],
                  seed)
    for _ in range(moves):
        seat = table.game.actor
        table.act(seat, table.view(seat).legal[0])
    written = table.abandon()
    assert written is not None and written.result().record_id is not None


def test_abandoned_games_are_listed_with_where_they_stood(home: Path) -> None:
    abandon_a_game(4, 6)
    abandon_a_game(5, 3)
    listed = default_store().abandoned_games()
    assert [g.deal for g in listed] == [1, 1]
    assert {tuple(s.name for s in g.seats) for g in listed} == {("Ann", "Bo")}
    assert all(g.totals == (0, 0) and g.ruleset_name == "Three Thirteen" for g in listed)
    assert listed[0].abandoned_at >= listed[1].abandoned_at


def test_a_damaged_abandoned_row_is_left_out_and_reported(home: Path) -> None:
    abandon_a_game(4, 6)
    abandon_a_game(5, 3)
    conn = sqlite3.connect(db_path(home))
    conn.execute("UPDATE abandoned SET players = '[{' WHERE id = 1")
    conn.commit()
    conn.close()
    store = default_store()
    assert [g.id for g in store.abandoned_games()] == [2]
    assert "#1" in (store.pop_notice() or "")


def test_rummy_stats_shows_the_abandoned_games(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    abandon_a_game(4, 6)
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Abandoned: 1 game given up unfinished" in out
    line = next(ln for ln in out.splitlines() if ln.lstrip().startswith("1 "))
    assert "Three Thirteen" in line and "Ann 0" in line and line.rstrip().endswith("1")
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(g["players"], g["deal"]) for g in data["abandoned"]] == [(["Ann", "Bo"], 1)]
    assert main(["stats", "--player", "Cleo", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["abandoned"] == []
