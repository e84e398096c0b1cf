"""Records that fail soft: bad rows skipped and reported, upgrades that survive duplicates
and bad rows, readable games rescued from a damaged file, read-only and full stores still
shown."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from records_kit import T0, finished_game, seats, write_v1_database

from tui.cli import main
from tui.records import RecordStore, RecordsUnavailable, record_finished_game
from tui.records.base import RecordError
from tui.records.record import GameRecord
from tui.records.store import DB_NAME


def db_path(home: Path) -> Path:
    return home / "data" / DB_NAME


def records(*seeds: int) -> list[GameRecord]:
    return [GameRecord.from_game(finished_game(seed=s), seats(), T0 + s * 60, T0 + s * 60 + 30)
            for s in seeds]


def stored(home: Path, *seeds: int) -> RecordStore:
    store = RecordStore(db_path(home))
    for record in records(*seeds):
        store.add(record)
    return store


def damage(home: Path, record_id: int, column: str, value: object) -> None:
    conn = sqlite3.connect(db_path(home))
    cast = "CAST(? AS TEXT)" if isinstance(value, bytes) else "?"  # bytes: text, not UTF-8
    conn.execute(f"UPDATE games SET {column} = {cast} WHERE id = ?", (value, record_id))
    conn.commit()
    conn.close()


# ---------------------------------------------------------------------- bad rows


@pytest.mark.parametrize(("column", "value"), [
    ("winners", "[0, "), ("scores", "not json"), ("started_at", "yesterday"),
    ("finished_at", "2024-13-45T00:00:00"), ("winners", '{"a": 1}'),
    ("ruleset_key", b"\xff\xfe"), pytest.param("winners", "[" * 10_000, id="deep-nesting"),
])
def test_a_bad_row_is_skipped_and_reported(home: Path, column: str, value: object) -> None:
    stored(home, 1, 2, 3)
    damage(home, 2, column, value)
    store = RecordStore(db_path(home))
    if column == "ruleset_key":  # a name that is not UTF-8 still reads (replaced)
        assert [s.id for s in store.summaries()] == [3, 2, 1]
        return
    assert [s.id for s in store.summaries()] == [3, 1]
    notice = store.pop_notice()
    assert notice is not None and "#2" in notice and "could not be read" in notice


def test_a_bad_row_is_refused_by_get_with_its_number(home: Path) -> None:
    stored(home, 1, 2)
    damage(home, 1, "actions", "[{]")
    store = RecordStore(db_path(home))
    with pytest.raises(RecordError, match="#1 is damaged"):
        store.get(1)
    assert store.get(2).seed == 2


def test_stats_and_replay_report_a_bad_row_without_a_traceback(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stored(home, 1, 2)
    damage(home, 1, "scores", "{oops")
    damage(home, 1, "actions", "{oops")
    assert main(["stats"]) == 0
    out, err = capsys.readouterr()
    assert "#1" in err and "could not be read" in err
    assert "Traceback" not in out + err
    assert main(["replay", "1", "--print"]) == 1
    out, err = capsys.readouterr()
    assert "#1 is damaged" in err and "Traceback" not in err
    assert main(["replay", "2", "--print"]) == 0


# ---------------------------------------------------------------------- upgrades


def test_a_version_1_database_with_a_duplicated_game_upgrades(home: Path) -> None:
    first, second = records(1, 2)
    write_v1_database(db_path(home), [first, second, first])
    store = RecordStore(db_path(home))
    assert sorted(s.id for s in store.summaries()) == [1, 2]
    assert store.get(1).uid == first.uid
    assert store.add(first) == 1 and store.count() == 2
    assert store.add(records(3)[0]) == 4  # numbers are never reused


def test_a_version_1_database_with_a_bad_row_upgrades_and_reports_it(home: Path) -> None:
    write_v1_database(db_path(home), records(1, 2, 3))
    conn = sqlite3.connect(db_path(home))
    conn.execute("UPDATE games SET players = 'garbage' WHERE id = 2")
    conn.commit()
    conn.close()
    store = RecordStore(db_path(home))
    assert sorted(s.id for s in store.summaries()) == [1, 3]
    assert "#2" in (store.pop_notice() or "")
    assert store.add(records(4)[0]) == 4


# ---------------------------------------------------------------------- salvage


def test_readable_games_are_rescued_from_a_damaged_file(home: Path) -> None:
    store = stored(home, *range(1, 17))
    path = db_path(home)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    del store
    data = bytearray(path.read_bytes())
    broken = pages // 2  # a page in the middle of the games
    data[broken * page:(broken + 1) * page] = b"\x5a" * page
    path.write_bytes(bytes(data))
    fresh = RecordStore(path)
    rescued = fresh.summaries()
    notice = fresh.pop_notice() or ""
    assert "damaged" in notice and "copied into the fresh file" in notice
    assert 8 <= len(rescued) < 16
    ids = {s.id for s in rescued}
    for record_id in sorted(ids)[::5]:  # rescued games keep their numbers and replay
        assert fresh.get(record_id).rebuild().seed == record_id
    assert fresh.add(records(41)[0]) not in ids


# ---------------------------------------------------------------------- read-only, full


def read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection the store makes is read-only, as on a read-only mount."""
    def connect(self: RecordStore) -> sqlite3.Connection:
        conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                               isolation_level=None)
        return conn

    monkeypatch.setattr(RecordStore, "_connect", connect)


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection may use no page beyond those the file has: the disk is full."""
    original = RecordStore._connect

    def connect(self: RecordStore) -> sqlite3.Connection:
        conn = original(self)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        return conn

    monkeypatch.setattr(RecordStore, "_connect", connect)


@pytest.mark.parametrize("medium", [read_only, full_disk])
def test_an_old_database_that_cannot_be_written_is_still_read(
        home: Path, monkeypatch: pytest.MonkeyPatch, medium) -> None:  # noqa: ANN001
    old = records(1, 2)
    write_v1_database(db_path(home), old)
    before = db_path(home).read_bytes()
    medium(monkeypatch)
    store = RecordStore(db_path(home))
    assert sorted(s.totals for s in store.summaries()) == sorted(r.totals for r in old)
    assert store.get(1).uid == old[0].uid
    assert "cannot be written" in (store.pop_notice() or "")
    with pytest.raises(RecordsUnavailable, match="cannot be written"):
        store.add(records(3)[0])
    outcome = record_finished_game(finished_game(seed=4), seats(), T0, store=store)
    assert outcome.record_id is None and "cannot be written" in (outcome.message or "")
    if medium is read_only:
        assert db_path(home).read_bytes() == before


def test_a_current_database_on_a_read_only_medium_is_read(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stored(home, 1, 2)
    read_only(monkeypatch)
    store = RecordStore(db_path(home))
    assert [s.id for s in store.summaries()] == [2, 1]
    with pytest.raises(RecordsUnavailable):
        store.add(records(3)[0])


# ---------------------------------------------------------------------- a damaged header


def flip_user_version(home: Path, version: int) -> None:
    """Write `version` into the header's user_version (bytes 60-63, big-endian), as one
    flipped byte does: -1 is 0xFFFFFFFF, -16777213 is the top byte of 3 flipped."""
    path = db_path(home)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    data[60:64] = version.to_bytes(4, "big", signed=True)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("version", [-1, -2, -16777213, -(2 ** 31)])
def test_a_negative_records_version_is_damage_reported_and_the_games_kept(
        home: Path, version: int) -> None:
    stored(home, 1, 2, 3)
    flip_user_version(home, version)
    store = RecordStore(db_path(home))
    assert sorted(s.id for s in store.summaries()) == [1, 2, 3]
    notice = store.pop_notice() or ""
    assert "damaged" in notice and "3 recorded games" in notice
    # recording goes on, in the fresh file, and again after reopening it
    assert store.add(records(4)[0]) == 4
    again = RecordStore(db_path(home))
    assert sorted(s.id for s in again.summaries()) == [1, 2, 3, 4]
    assert again.pop_notice() is None
    assert list(home.glob(f"data/{DB_NAME}.damaged-*")), "the damaged file is kept aside"


def test_stats_with_a_negative_records_version_reports_without_a_traceback(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stored(home, 1, 2)
    flip_user_version(home, -16777213)
    assert main(["stats"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "damaged" in err
    assert "2" in out
