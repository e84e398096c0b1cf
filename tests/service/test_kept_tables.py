"""The store of kept tables on its own: whatever was played, chatted and seated comes
back identical from the file; a damaged file or row is refused in one line and never
costs another table."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_kit import short_rules

from tui.engine.game import Game
from tui.engine.save import fingerprint
from tui.service.chat import ChatMessage
from tui.service.kept_tables import (
    CHAT_KEPT,
    DamagedTable,
    KeptHeader,
    KeptTable,
    KeptTableError,
    SqliteTables,
)

HEADER = KeptHeader("three_thirteen", "medium", "alice", 1_780_000_000.0)
SEATS = [
    {"person": "alice", "owner": "key:SHA256:abc", "rejoin_code": None, "bot": None,
     "name": "alice"},
    {"person": "bob", "owner": "session:1f2e", "rejoin_code": "K7Q-4MX", "bot": None,
     "name": "bob"},
    {"person": None, "owner": "", "rejoin_code": None, "bot": "medium", "name": "Ada"},
]


def new_game(seed: int = 3, rounds: int = 3) -> Game:
    return Game(short_rules(rounds), ["alice", "bob", "Ada"], seed)


def play(game: Game, choices: list[int], log=None) -> None:  # noqa: ANN001
    """Play `choices` (each picks one of the legal actions), dealing on as needed; the
    log is told after every change, as a shared table tells it."""
    for choice in choices:
        if game.phase == "game_over":
            return
        if game.phase == "round_over":
            game.next_round()
        else:
            legal = game.legal_actions(game.actor)
            game.apply(legal[choice % len(legal)])
        if log is not None:
            log.moved(game)


def loaded(store: SqliteTables, table_id: int) -> KeptTable:
    entry = store.load(table_id)
    assert isinstance(entry, KeptTable)
    return entry


def assert_same(a: Game, b: Game) -> None:
    assert fingerprint(a) == fingerprint(b)
    assert (a.phase, a.actor, a.round.number, a.totals) == (b.phase, b.actor,
                                                            b.round.number, b.totals)
    assert [x.to_json() for x in a.history] == [x.to_json() for x in b.history]
    for seat in range(a.players):
        assert a.view(seat) == b.view(seat)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1),
       choices=st.lists(st.integers(0, 1000), max_size=120))
def test_any_sequence_of_moves_comes_back_identical(tmp_path_factory, seed, choices):
    store = SqliteTables(tmp_path_factory.mktemp("kept"))
    game = new_game(seed)
    log = store.begin(7, HEADER, game, SEATS, [])
    play(game, choices, log)
    log.close()
    entry = loaded(store, 7)
    assert_same(entry.game, game)
    assert entry.seats == SEATS and entry.header == HEADER


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), first=st.lists(st.integers(0, 1000), max_size=60),
       then=st.lists(st.integers(0, 1000), max_size=60))
def test_a_table_brought_back_goes_on_being_kept(tmp_path_factory, seed, first, then):
    """Restart in the middle: the loaded game is played on and kept from where it was."""
    store = SqliteTables(tmp_path_factory.mktemp("kept"))
    game = new_game(seed)
    log = store.begin(1, HEADER, game, SEATS, [])
    play(game, first, log)
    log.close()
    again = loaded(store, 1).game
    log = store.resume(1, again)
    play(again, then, log)
    log.close()
    straight = new_game(seed)
    play(straight, first + then)
    assert_same(loaded(store, 1).game, straight)


def test_a_game_already_under_way_is_kept_whole(tmp_path: Path) -> None:
    game = new_game()
    play(game, list(range(40)))
    store = SqliteTables(tmp_path)
    store.begin(2, HEADER, game, SEATS, []).close()
    assert_same(loaded(store, 2).game, game)


def test_a_deal_dealt_without_a_move_is_kept(tmp_path: Path) -> None:
    """The summary over, the next deal is dealt: that deal (not the summary) comes back."""
    game, store = new_game(), SqliteTables(tmp_path)
    log = store.begin(1, HEADER, game, SEATS, [])
    rng = random.Random(2)
    while game.phase != "round_over":
        game.apply(rng.choice(game.legal_actions(game.actor)))
        log.moved(game)
    assert loaded(store, 1).game.phase == "round_over"
    game.next_round()
    log.moved(game)
    entry = loaded(store, 1)
    assert (entry.game.round.number, entry.game.phase) == (2, game.phase)
    assert_same(entry.game, game)


def test_seats_and_chat_come_back(tmp_path: Path) -> None:
    store = SqliteTables(tmp_path)
    said = [ChatMessage(1, "", "alice sat down."), ChatMessage(2, "bob", "hi <b>all</b>")]
    log = store.begin(1, HEADER, new_game(), SEATS, said)
    log.said(ChatMessage(3, "alice", "[red]hello[/red]"))
    seats = [dict(seat) for seat in SEATS]
    seats[1]["rejoin_code"] = "ABC-DEF"  # a new code after bob took his seat back
    log.seated(seats)
    log.close()
    entry = loaded(store, 1)
    assert entry.seats == seats
    assert entry.chat == [*said, ChatMessage(3, "alice", "[red]hello[/red]")]


def test_only_the_chat_lines_a_table_can_show_are_kept(tmp_path: Path) -> None:
    store = SqliteTables(tmp_path)
    log = store.begin(1, HEADER, new_game(), SEATS, [])
    for number in range(1, 3 * CHAT_KEPT + 7):
        log.said(ChatMessage(number, "bob", f"line {number}"))
    log.close()
    chat = loaded(store, 1).chat
    assert [m.number for m in chat] == list(range(2 * CHAT_KEPT + 7, 3 * CHAT_KEPT + 7))
    with sqlite3.connect(store.path_of(1)) as db:
        assert db.execute("SELECT count(*) FROM chat").fetchone()[0] < 2 * CHAT_KEPT


def test_a_move_is_one_row_committed_at_once(tmp_path: Path) -> None:
    """Each move is on disk (readable by another connection) as soon as `moved` returns."""
    game, store = new_game(), SqliteTables(tmp_path)
    log = store.begin(1, HEADER, game, SEATS, [])
    for _ in range(5):
        game.apply(game.legal_actions(game.actor)[0])
        log.moved(game)
        assert_same(loaded(store, 1).game, game)
    with sqlite3.connect(store.path_of(1)) as db:
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 1 + 5
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    log.close()


def test_ids_go_past_every_kept_file_and_drop_forgets_one(tmp_path: Path) -> None:
    store = SqliteTables(tmp_path)
    assert store.next_id() == 1 and store.load_all() == []
    store.begin(3, HEADER, new_game(), SEATS, []).close()
    (tmp_path / "table-9.sqlite").write_bytes(b"not a database at all" * 100)
    assert store.next_id() == 10
    with pytest.raises(KeptTableError, match="already exists"):
        store.begin(3, HEADER, new_game(), SEATS, [])
    assert store.drop(9) and not store.drop(9)
    assert [e.id for e in store.load_all()] == [3]


def test_a_removed_table_leaves_no_file(tmp_path: Path) -> None:
    game, store = new_game(), SqliteTables(tmp_path)
    log = store.begin(4, HEADER, game, SEATS, [])
    play(game, [0, 1, 2], log)
    log.remove()
    log.moved(game)  # (written no more)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------- damage
def kept_three(tmp_path: Path) -> SqliteTables:
    store = SqliteTables(tmp_path)
    for table_id in (1, 2, 3):
        game = new_game(seed=table_id)
        log = store.begin(table_id, HEADER, game, SEATS, [])
        play(game, list(range(25)), log)
        log.close()
    return store


def edit(store: SqliteTables, table_id: int, sql: str, *args: object) -> None:
    with sqlite3.connect(store.path_of(table_id)) as db:
        db.execute(sql, args)


@pytest.mark.parametrize(("damage", "reason"), [
    (lambda s: s.path_of(2).write_bytes(b"\x00garbage" * 512), "cannot be read"),
    (lambda s: s.path_of(2).write_bytes(b""), "cannot be read"),
    (lambda s: edit(s, 2, "DELETE FROM kept"), "no table in it"),
    (lambda s: edit(s, 2, "UPDATE moves SET action = '{\"kind\": \"draw_stock\"' "
                          "WHERE n = 3"), "damaged"),
    (lambda s: edit(s, 2, "UPDATE moves SET action = '{\"kind\": \"teleport\"}' "
                          "WHERE n = 3"), "damaged"),
    (lambda s: edit(s, 2, "UPDATE moves SET fingerprint = 'f00' "
                          "WHERE n = (SELECT max(n) FROM moves)"), "does not match"),
    (lambda s: edit(s, 2, "DELETE FROM moves WHERE n = 5"), "damaged"),
    (lambda s: edit(s, 2, "UPDATE kept SET seats = '[1, 2, 3]'"), "not a seat"),
    (lambda s: edit(s, 2, "UPDATE kept SET seats = ?", json.dumps(SEATS[:2])),
     "seats do not match"),
    (lambda s: edit(s, 2, "UPDATE kept SET seats = ?", json.dumps(
        [{**SEATS[0], "bot": "godlike"}, *SEATS[1:]])), "unknown computer player"),
    (lambda s: edit(s, 2, "UPDATE kept SET header = '[1e999999'"), "damaged"),
    (lambda s: edit(s, 2, "UPDATE kept SET header = ?", "[" * 100_000), "damaged"),
    (lambda s: edit(s, 2, "UPDATE kept SET header = json_set(header, '$.version', 99)"),
     "unknown version"),
    (lambda s: edit(s, 2, "UPDATE kept SET header = json_set(header, '$.game.seed', "
                          "'x')"), "damaged"),
    (lambda s: edit(s, 2, "DROP TABLE chat"), "cannot be read"),
])
def test_a_damaged_table_is_refused_and_the_others_load(tmp_path: Path, damage,
                                                        reason) -> None:
    store = kept_three(tmp_path)
    damage(store)
    entries = store.load_all()
    assert [e.id for e in entries] == [1, 2, 3]
    assert isinstance(entries[0], KeptTable) and isinstance(entries[2], KeptTable)
    bad = entries[1]
    assert isinstance(bad, DamagedTable) and reason in bad.reason, bad
    assert "\n" not in bad.reason and str(store.path_of(2)) in bad.reason
    assert store.path_of(2).exists()  # left for the host to look at


def test_loading_does_not_change_a_kept_file(tmp_path: Path) -> None:
    store = kept_three(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.suffix == ".sqlite"}
    store.load_all()
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.suffix == ".sqlite"}
    assert before == after
