"""Kept tables in the lobby (no SSH): a game started is kept as it is played; a lobby
started again on the same folder brings it back under its number with the same state;
owners take their seats back by key or rejoin code; bots hold the seats of owners who
stay away; finished and abandoned games are forgotten; damaged files are skipped."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from test_lobby import lobby, play_for, until

from tui.engine.save import fingerprint
from tui.records.recorder import default_store
from tui.service.kept_tables import KeptTableError, SqliteTables
from tui.service.lobby import Lobby, LobbyError
from tui.service.table_keeper import TableKeeper, describe_kept, drop_kept

ALICE_KEY = "SHA256:alice-key"


def keeper_for(lob: Lobby, folder: Path) -> TableKeeper:
    keeper = TableKeeper.open(folder, lob)
    assert keeper is not None
    return keeper


def stop(lob: Lobby, keeper: TableKeeper) -> None:
    """The server stops as `rummy serve` stops it."""
    keeper.stop()
    lob.close()
    keeper.close()


async def started_game(tmp_path: Path, **config):  # noqa: ANN003, ANN201
    """alice (keyed) and bob (keyless) at a table with one bot, a few moves in."""
    lob = lobby(turn_timeout=None, **config)
    keeper = keeper_for(lob, tmp_path)
    keeper.restore()
    alice, bob = lob.enter("alice", ALICE_KEY), lob.enter("bob")
    table_id = alice.create("short", 3, "random").shared.id
    code = bob.join(table_id).rejoin_code
    alice.start()
    shared = lob.table(table_id)
    moves = len(shared.table.game.history)
    done = lambda: len(shared.table.game.history) >= moves + 9  # noqa: E731
    await _play_some(alice, bob, done)
    bob.chat().say("see you after the restart")
    return lob, keeper, shared, code


async def _play_some(alice, bob, done) -> None:  # noqa: ANN001
    players = [asyncio.create_task(play_for(guest.table(), done)) for guest in (alice, bob)]
    await until(done)
    await asyncio.gather(*players)


async def test_a_lobby_started_again_brings_the_game_back_as_it_was(tmp_path: Path) -> None:
    lob, keeper, shared, code = await started_game(tmp_path)
    stop(lob, keeper)
    game = shared.table.game
    seats = shared.seat_records()

    again = lobby(turn_timeout=None, grace=30)
    keeper = keeper_for(again, tmp_path)
    assert keeper.restore() == [shared.id]
    back = again.table(shared.id)
    assert fingerprint(back.table.game) == fingerprint(game)
    assert back.table.game.view(0) == game.view(0)
    assert (back.status, back.seat_records()) == ("playing", seats)
    assert [s.present for s in back.seats] == [False, False, False]
    assert "see you after the restart" in [m.text for m in back.chat.messages]
    # The owners take their seats back: alice by her key, bob by his rejoin code.
    alice = again.enter("alice", ALICE_KEY)
    assert alice.waiting_table() == shared.id
    assert alice.join(shared.id).seat == 0
    bob = again.enter("bob")
    with pytest.raises(LobbyError, match="rejoin code"):
        bob.join(shared.id)
    with pytest.raises(LobbyError, match="SSH key"):
        again.enter("alice")  # the name, without the key
    assert bob.join(shared.id, code).seat == 1
    # A new table is numbered after the kept one.
    assert again.enter("carol").create("short", 2, "random").shared.id > shared.id
    stop(again, keeper)


async def test_owners_who_stay_away_get_bots_and_the_table_stays(tmp_path: Path) -> None:
    lob, keeper, shared, _ = await started_game(tmp_path)
    stop(lob, keeper)
    again = lobby(turn_timeout=None, grace=0.05, summary_timeout=0.2)
    keeper = keeper_for(again, tmp_path)
    keeper.restore()
    back = again.table(shared.id)
    await until(lambda: back.seats[0].standin and back.seats[1].standin)
    moves = len(back.table.game.history)
    await until(lambda: len(back.table.game.history) > moves + 5)
    assert back.status == "playing"  # not closed for being deserted
    alice = again.enter("alice", ALICE_KEY)
    assert alice.join(shared.id).seat == 0 and not back.seats[0].standin
    stop(again, keeper)


async def test_a_game_nobody_comes_back_to_is_played_out_recorded_and_closed(
        tmp_path: Path) -> None:
    lob, keeper, shared, _ = await started_game(tmp_path)
    stop(lob, keeper)
    again = lobby(turn_timeout=None, grace=0.05)
    keeper = keeper_for(again, tmp_path)
    keeper.restore()
    back = again.table(shared.id)
    await until(lambda: back.status == "closed", timeout=60)
    assert back.table.game.phase == "game_over" and again.tables == []
    await until(lambda: back.table.record_outcome is not None)
    assert default_store().count() == 1
    assert not SqliteTables(tmp_path).path_of(shared.id).exists()
    stop(again, keeper)


async def test_a_finished_game_is_recorded_then_forgotten(tmp_path: Path) -> None:
    lob, keeper, shared, _ = await started_game(tmp_path)
    path = SqliteTables(tmp_path).path_of(shared.id)
    assert path.exists()
    for guest in list(lob.guests):
        guest.leave()  # bots play both seats to the end
    shared.held_for_owners = True  # (and the table waits for its record)
    await until(lambda: shared.table.record_outcome is not None, timeout=60)
    await until(lambda: not path.exists())
    assert default_store().count() == 1
    stop(lob, keeper)


async def test_a_deserted_table_is_forgotten_but_a_stopping_server_keeps_its_games(
        tmp_path: Path) -> None:
    lob, keeper, shared, _ = await started_game(tmp_path)
    path = SqliteTables(tmp_path).path_of(shared.id)
    for guest in list(lob.guests):
        guest.close()
    await until(lambda: shared.status == "closed")
    assert not path.exists()
    stop(lob, keeper)

    lob, keeper, shared, _ = await started_game(tmp_path)
    stop(lob, keeper)
    assert SqliteTables(tmp_path).path_of(shared.id).exists()


async def test_a_damaged_table_is_skipped_with_a_log_line(tmp_path: Path, caplog) -> None:
    lob, keeper, shared, _ = await started_game(tmp_path)
    stop(lob, keeper)
    (tmp_path / "table-5.sqlite").write_bytes(b"\x13garbage" * 300)
    again = lobby(turn_timeout=None, grace=30)
    keeper = keeper_for(again, tmp_path)
    with caplog.at_level(logging.ERROR, "tui.service.table_keeper"):
        assert keeper.restore() == [shared.id]
    [line] = [r.getMessage() for r in caplog.records if "kept table 5" in r.getMessage()]
    assert "skipped" in line and "--drop-table 5" in line
    assert again.enter("carol").create("short", 2, "random").shared.id == 6
    assert "cannot be loaded" in describe_kept(tmp_path)[-1]
    stop(again, keeper)
    assert drop_kept(tmp_path, 5) == "kept table 5 dropped"
    assert [line.split()[0] for line in describe_kept(tmp_path)] == [str(shared.id)]


async def test_one_server_keeps_a_folder_and_drop_waits_for_it_to_stop(
        tmp_path: Path) -> None:
    lob, keeper, shared, _ = await started_game(tmp_path)
    other = lobby()
    assert TableKeeper.open(tmp_path, other) is None
    with pytest.raises(KeptTableError, match="stop it first"):
        drop_kept(tmp_path, shared.id)
    with pytest.raises(KeptTableError, match="no kept table 99"):
        drop_kept(tmp_path, 99)
    [line] = describe_kept(tmp_path)
    assert "alice (key)" in line and "bob (rejoin code)" in line and "(bot)" in line
    stop(lob, keeper)
    other.close()
    drop_kept(tmp_path, shared.id)
    assert describe_kept(tmp_path) == []


async def test_every_move_and_chat_line_is_on_disk_before_anyone_is_told(
        tmp_path: Path) -> None:
    """A listener of the table (what sends a move to the players' screens) always finds
    the move already kept: a server killed at any instant shows nobody a lost move."""
    lob, keeper, shared, _ = await started_game(tmp_path)
    store = SqliteTables(tmp_path)
    seen: list[tuple[int, int]] = []
    lines: list[bool] = []

    def on_change() -> None:
        game = shared.table.game
        seen.append((len(game.history), len(store.load(shared.id).game.history)))

    shared.subscribe(on_change)
    shared.chat.subscribe(lambda message: lines.append(
        message in store.load(shared.id).chat))
    alice, bob = lob.guests
    done = lambda: len(shared.table.game.history) >= 30  # noqa: E731
    await _play_some(alice, bob, done)
    alice.chat().say("and this line")
    assert len(seen) >= 10 and all(shown == kept for shown, kept in seen)
    assert lines and all(lines)
    stop(lob, keeper)


async def test_a_table_whose_file_fails_plays_on_unkept(tmp_path: Path, caplog) -> None:
    lob, keeper, shared, _ = await started_game(tmp_path)
    path = SqliteTables(tmp_path).path_of(shared.id)

    def broken(game) -> None:  # noqa: ANN001
        raise OSError("disk full")

    shared.kept.moved = broken  # type: ignore[union-attr, method-assign]
    alice, bob = lob.guests
    moves = len(shared.table.game.history)
    with caplog.at_level(logging.ERROR, "tui.service.shared_table"):
        await _play_some(alice, bob, lambda: len(shared.table.game.history) >= moves + 4)
    assert shared.kept is None and not path.exists()  # no stale game left to come back
    assert any("cannot keep it on disk" in r.getMessage() for r in caplog.records)
    stop(lob, keeper)


async def test_a_game_that_ended_before_the_restart_is_recorded_not_reopened(
        tmp_path: Path) -> None:
    """Killed between the last move and the record: recorded at the next start."""
    import random

    from records_kit import short_rules

    from tui.engine.game import Game
    from tui.service.kept_tables import KeptHeader

    game = Game(short_rules(1), ["alice", "Ben"], 9)
    seats = [{"person": "alice", "owner": "key:x", "rejoin_code": None, "bot": None,
              "name": "alice"},
             {"person": None, "owner": "", "rejoin_code": None, "bot": "random", "name": "Ben"}]
    log = SqliteTables(tmp_path).begin(3, KeptHeader("three_thirteen", "random", "alice",
                                                     1.8e9), game, seats, [])
    rng = random.Random(1)
    while game.phase != "game_over":
        game.apply(rng.choice(game.legal_actions(game.actor)))
        log.moved(game)
    log.close()
    lob = lobby()
    keeper = keeper_for(lob, tmp_path)
    assert keeper.restore() == [] and lob.tables == []
    await until(lambda: not SqliteTables(tmp_path).path_of(3).exists())
    assert default_store().count() == 1
    stop(lob, keeper)


async def test_kept_tables_past_the_table_limit_wait_on_disk(tmp_path: Path, caplog) -> None:
    from records_kit import short_rules

    from tui.engine.game import Game
    from tui.service.kept_tables import KeptHeader

    seats = [{"person": name, "owner": f"key:{name}", "rejoin_code": None, "bot": None,
              "name": name} for name in ("alice", "bob")]
    for table_id in (2, 4):
        SqliteTables(tmp_path).begin(table_id, KeptHeader("short", "random", "alice", 1.8e9),
                                     Game(short_rules(), ["alice", "bob"], table_id), seats,
                                     []).close()
    lob = lobby(max_tables=1, grace=30)
    keeper = keeper_for(lob, tmp_path)
    with caplog.at_level(logging.ERROR, "tui.service.table_keeper"):
        assert keeper.restore() == [2]
    assert any("kept table 4 not brought back" in r.getMessage() and "limit" in
               r.getMessage() for r in caplog.records)
    stop(lob, keeper)
    assert SqliteTables(tmp_path).path_of(4).exists()
    lob = lobby(max_tables=2, grace=30)
    keeper = keeper_for(lob, tmp_path)
    assert keeper.restore() == [2, 4]
    stop(lob, keeper)
