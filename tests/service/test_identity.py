"""Seats belong to players, not to names: a key owns its name; a keyless player takes a
dropped seat back only with the seat's one-time rejoin code; the same player coming back
while an old session lingers takes the seat over and the old session is told."""

from __future__ import annotations

import logging

import pytest

from tui.service.identity import NameBook, NameTaken, same_code
from tui.service.lobby import Lobby, LobbyConfig, LobbyError

CONFIG = LobbyConfig(bot_delay=0, grace=30, summary_pause=0, summary_timeout=5, seed=11)


def playing(lob: Lobby, first, second) -> int:  # noqa: ANN001
    table_id = first.create("three_thirteen", 2, "easy").shared.id
    second.join(table_id)  # the table is full: it deals
    assert lob.table(table_id).status == "playing"
    return table_id


def test_the_first_key_to_use_a_name_owns_it_for_good(tmp_path):  # noqa: ANN001
    path = tmp_path / "names.sqlite"
    book = NameBook(path)
    assert book.admit("Alice", "SHA256:a").key == "SHA256:a"
    assert book.admit("alice", "SHA256:a").has_key  # any case, same key: fine
    with pytest.raises(Exception, match="another player's key"):
        book.admit("ALICE", "SHA256:b")
    with pytest.raises(Exception, match="SSH key"):
        book.admit("alice")  # no key at all
    book.close()
    again = NameBook(path)  # the server restarted
    assert again.owner("alice") == "SHA256:a"
    assert not again.admit("bob").has_key and again.owner("bob") is None  # keyless: no claim


def test_rejoin_codes_compare_however_they_are_typed():
    assert same_code("k7q 4mx", "K7Q-4MX") and same_code("K7Q4MX", "K7Q-4MX")
    assert not same_code("K7Q4MY", "K7Q-4MX") and not same_code("", None)


async def test_another_key_cannot_enter_under_an_owned_name():
    lob = Lobby(CONFIG)
    lob.enter("alice", key="SHA256:alice")
    with pytest.raises(LobbyError, match="belongs to another"):
        lob.enter("alice", key="SHA256:eve")
    with pytest.raises(LobbyError, match="SSH key"):
        lob.enter("Alice")
    lob.close()


async def test_a_keyless_impostor_never_gets_a_dropped_seat_without_its_code():
    lob = Lobby(CONFIG)
    alice, bob = lob.enter("alice"), lob.enter("bob")
    table_id = playing(lob, alice, bob)
    shared = lob.table(table_id)
    code = bob.handle.rejoin_code
    assert code and alice.handle.rejoin_code and code != alice.handle.rejoin_code
    bob.close()  # bob dropped
    eve = lob.enter("bob")  # someone else, same name, no key
    assert lob.waiting_seat(eve.identity) is None
    assert lob.seat_behind_code(eve.identity) is shared
    with pytest.raises(LobbyError, match="rejoin code"):
        eve.join(table_id)
    with pytest.raises(LobbyError, match="not it"):
        eve.join(table_id, "AAA-AAA" if code != "AAA-AAA" else "BBB-BBB")
    assert not shared.seats[1].present and eve.handle is None
    # The real bob, from a new session, with his code:
    back = lob.enter("bob")
    handle = back.join(table_id, code.lower().replace("-", " "))
    assert handle.seat == 1 and shared.seats[1].present
    assert handle.rejoin_code and handle.rejoin_code != code  # the code was one use only
    back.leave()
    with pytest.raises(LobbyError, match="not it"):
        lob.enter("bob").join(table_id, code)
    lob.close()


async def test_a_key_takes_its_seat_back_and_an_impostor_key_does_not():
    lob = Lobby(CONFIG)
    alice = lob.enter("alice", key="SHA256:alice")
    bob = lob.enter("bob", key="SHA256:bob")
    table_id = playing(lob, alice, bob)
    assert bob.handle.rejoin_code is None  # a key needs no code
    bob.close()
    with pytest.raises(LobbyError):
        lob.enter("bob", key="SHA256:eve")
    back = lob.enter("bob", key="SHA256:bob")
    assert lob.waiting_seat(back.identity) is lob.table(table_id)
    assert back.join(table_id).seat == 1
    lob.close()


async def test_coming_back_while_the_old_session_lingers_replaces_it():
    lob = Lobby(CONFIG)
    told: list[str] = []
    alice = lob.enter("alice", key="SHA256:alice")
    bob = lob.enter("bob", key="SHA256:bob", on_replaced=lambda: told.append("old bob"))
    table_id = playing(lob, alice, bob)
    shared = lob.table(table_id)
    old = bob.handle
    # bob's connection froze; he reconnects before the server noticed.
    again = lob.enter("bob", key="SHA256:bob")
    assert lob.waiting_seat(again.identity) is shared
    handle = again.join(table_id)
    assert told == ["old bob"] and not old.active and bob.handle is None
    assert handle.seat == 1 and shared.seats[1].present
    bob.close()  # the stale session ending later does not unseat the new one
    assert shared.seats[1].present and handle.active
    # Keyless: the same with the code; without it, the lingering session keeps the seat.
    carol_told: list[str] = []
    lob2 = Lobby(CONFIG)
    dan = lob2.enter("dan")
    carol = lob2.enter("carol", on_replaced=lambda: carol_told.append("old carol"))
    table2 = playing(lob2, dan, carol)
    code = carol.handle.rejoin_code
    with pytest.raises(LobbyError, match="rejoin code"):
        lob2.enter("carol").join(table2)
    assert carol_told == [] and carol.handle.active
    lob2.enter("carol").join(table2, code)
    assert carol_told == ["old carol"]
    lob.close()
    lob2.close()


async def test_the_lobby_cleans_a_name_whoever_sends_it():
    lob = Lobby(CONFIG)
    guest = lob.enter("eve\x1b]8;;https://x\x07" + "e" * 40)
    assert guest.name.isprintable() and len(guest.name) == 24
    lob.close()


def test_a_key_the_host_named_takes_the_name_from_an_earlier_claimant(tmp_path, caplog):  # noqa: ANN001
    path = tmp_path / "names.sqlite"
    first = NameBook(path)
    first.admit("alice", "SHA256:early")  # before the host named anyone
    first.close()
    book = NameBook(path, host_names={"SHA256:host": "Alice"})
    caplog.set_level(logging.WARNING, logger="tui.service.identity")
    assert book.admit("alice", "SHA256:host").key == "SHA256:host"
    assert book.owner("ALICE") == "SHA256:host"
    assert any("SHA256:early" in r.getMessage() and "lost it" in r.getMessage()
               for r in caplog.records)
    with pytest.raises(NameTaken, match="kept by the host"):
        book.admit("alice", "SHA256:early")  # the earlier claimant lost it
    book.close()
    again = NameBook(path)  # kept after a restart, even without the file
    assert again.owner("alice") == "SHA256:host"


def test_a_name_the_host_gave_is_nobody_elses_even_while_unclaimed():
    book = NameBook(host_names={"SHA256:host": "alice"})
    for key in ("SHA256:other", ""):
        with pytest.raises(NameTaken, match="kept by the host"):
            book.admit("Alice", key)
    assert book.owner("alice") is None
    assert book.admit("bob", "SHA256:host").key == "SHA256:host"  # under another name: first come
