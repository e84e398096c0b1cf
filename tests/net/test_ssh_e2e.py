"""End to end over real SSH on 127.0.0.1: players with PTYs create and join a table in the
lobby, play by keys, resize, chat, drop and come back, and a spectator watches."""

from __future__ import annotations

import asyncio
import gc
import re
import weakref

import pytest
from ssh_room import (
    ENTER,
    FAST,
    IN_PLAY,
    Room,
    arrive,
    create_table,
    join_and_deal,
    open_room,
    play_until,
    until,
)

from tui.cli import build_parser, main
from tui.commands import serve as serve_command
from tui.service.lobby import LobbyConfig


async def seat_two(room: Room, seats: int = 3):  # noqa: ANN201
    """alice creates a table, bob (with his SSH key) joins it, alice deals; returns both
    and the table."""
    alice = await arrive(room.port, "alice")
    await create_table(alice, "Three Thirteen", seats, "medium")
    bob = await arrive(room.port, "bob", keyed=True)
    await join_and_deal(alice, "alice", bob, "bob")
    [shared] = room.lobby.tables
    return alice, bob, shared


async def test_two_players_create_join_play_resize_chat_drop_and_come_back(room):
    alice, bob, shared = await seat_two(room)
    assert [s.person for s in shared.seats] == ["alice", "bob", None]
    assert shared.table.is_bot(2) and not shared.table.is_bot(0)
    game = shared.table.game
    players = {0: alice, 1: bob}

    # A few moves by keys from both terminals; every screen follows.
    await play_until(shared, players, lambda: len([a for a in game.history if a.seat < 2]) >= 4
                     or game.phase not in IN_PLAY)
    moved = {a.seat for a in game.history}
    assert {0, 1} <= moved

    # Resizing one terminal re-lays that screen only.
    alice.resize(120, 36)
    await alice.wait_for("Σ")  # the score sheet column appears on wide terminals
    assert "Σ" not in bob.text

    # Chat reaches everyone at the table, escape sequences and all cleaned.
    alice.send("/")
    await alice.wait_for("Say something")
    alice.send("hello ")
    alice.send("\x1b[200~b\x07\x1b[31mob\x1b[201~")  # a paste with control characters
    alice.send(ENTER)
    await bob.wait_for("alice: hello ")
    await alice.wait_for("alice: hello ")
    said = shared.chat.messages[-1]
    assert said.sender == "alice" and said.text.startswith("hello ")
    assert said.text.isprintable() and "ob" in said.text

    # bob vanishes: his seat waits, then a bot plays it; alice plays on.
    bob.abort()
    await alice.wait_for("bob (away)")
    await until(lambda: shared.table.is_bot(1), what="the stand-in bot")
    await alice.wait_for("bob (away, medium bot plays)")
    await play_until(shared, {0: alice}, lambda: any(
        a.seat == 1 for a in game.history[-6:]) or game.phase not in IN_PLAY)

    # bob comes back with his key: straight to his seat, the bot stands up.
    back = await arrive(room.port, "bob", keyed=True)
    await back.wait_for("Deal ")
    await until(lambda: not shared.table.is_bot(1) and shared.seats[1].present)
    hand = shared.table.view(1).hand
    await back.wait_for(f"{len(hand)} cards")
    await alice.wait_until(lambda: "bob (away" not in alice.text)

    await play_until(shared, {0: alice, 1: back}, lambda: game.phase == "round_over")
    await alice.wait_for("— over")
    await back.wait_for("— over")
    alice.send(ENTER)
    back.send(ENTER)
    await until(lambda: game.round.number == 2, what="the second deal")
    await alice.wait_for("Deal 2 of 11")
    await back.wait_for("Deal 2 of 11")
    await alice.close()
    await back.close()


async def test_a_spectator_sees_no_hand_and_cannot_play(room):
    alice, bob, shared = await seat_two(room)
    carol = await arrive(room.port, "carol")
    await carol.wait_for("playing")
    carol.send("w")
    await carol.wait_for("Deal 1 of 11")
    assert "Your hand" not in carol.text and "cards · " not in carol.text.split("\n")[-6]
    assert shared.spectators
    game = shared.table.game
    before = len(game.history)
    carol.send("s")
    await carol.wait_for("watching")  # "you are watching this table, not playing at it"
    assert len(game.history) == before or game.history[before].seat != -1
    carol.send("q")
    await carol.wait_for("you are carol")
    await until(lambda: not shared.spectators)
    for client in (alice, bob, carol):
        await client.close()


async def test_one_session_crashing_leaves_the_others_and_the_table_playing(room):
    alice, bob, shared = await seat_two(room)
    [bob_info] = [i for i in room.server.sessions if i.username == "bob"]
    screen = bob_info.app.screen

    def broken() -> None:
        raise RuntimeError("bob's screen fails on purpose")

    screen.refresh_table = broken  # the next change at the table crashes bob's app
    game = shared.table.game
    await play_until(shared, {0: alice}, lambda: bob.closed.is_set()
                     or game.phase not in IN_PLAY, timeout=30)
    await bob.wait_closed()
    assert b"hit a bug" in bob.output
    await until(lambda: not shared.seats[1].present)
    await until(lambda: shared.table.is_bot(1), what="a bot for bob")
    await play_until(shared, {0: alice}, lambda: game.phase == "round_over")
    await alice.wait_for("— over")
    assert shared.status == "playing"
    await alice.close()


async def test_the_last_person_leaving_closes_the_table(room):
    alice, bob, shared = await seat_two(room)
    await alice.close()
    await bob.close()
    await until(lambda: shared.status == "closed", what="the table to close")
    assert room.lobby.tables == []


async def test_the_number_of_tables_is_limited():
    config = LobbyConfig(**{**FAST.__dict__, "max_tables": 1})
    room = await open_room(config)
    try:
        alice = await arrive(room.port, "alice")
        await create_table(alice, "Three Thirteen", 2, "medium")
        bob = await arrive(room.port, "bob")
        bob.send("c")
        await bob.wait_for("New table")
        bob.send(ENTER)
        await bob.wait_for("limit")
        assert len(room.lobby.tables) == 1
        await alice.close()
        await bob.close()
    finally:
        await room.close()


async def test_idle_sessions_time_out_and_their_empty_table_closes():
    room = await open_room(idle_timeout=3)
    try:
        alice = await arrive(room.port, "alice")
        [guest] = room.lobby.guests
        guest.create("three_thirteen", 3, "medium")  # seated, then nobody types
        await alice.wait_for("You are seated")
        await alice.wait_closed(timeout=30)
        assert b"without input" in alice.output
        await until(lambda: room.lobby.tables == [] and room.lobby.guests == [])
    finally:
        await room.close()


async def test_joining_is_refused_with_a_reason_when_the_game_has_started(room):
    alice, bob, shared = await seat_two(room)
    dave = await arrive(room.port, "dave")
    await dave.wait_for("playing")
    dave.send("j")
    await dave.wait_for("already started")
    assert dave.text.count("dave") >= 1 and len(shared.seats) == 3
    for client in (alice, bob, dave):
        await client.close()
    await asyncio.sleep(0)


async def test_rummy_serve_opens_the_card_room_by_default():
    lines: list[str] = []
    stop = asyncio.Event()
    task = asyncio.create_task(serve_command.serve(port=0, stop=stop, report=lines.append,
                                                   lobby_config=FAST))
    await until(lambda: any("listening" in line for line in lines) or task.done())
    port = int(re.search(r"127\.0\.0\.1:(\d+)", "\n".join(lines)).group(1))
    guest = await arrive(port, "guest")
    assert "No tables yet" in guest.text
    guest.send("q")  # quitting the app ends the session
    await guest.wait_closed()
    assert guest.exit_status == 0
    stop.set()
    assert await asyncio.wait_for(task, 15) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--max-tables", "0"], "--max-tables 0: must be at least 1"),
        (["serve", "--bot-delay", "-1"], "--bot-delay -1: must be between 0 and 60"),
        (["serve", "--grace", "-5"], "--grace -5: cannot be negative"),
    ],
)
def test_card_room_options_are_checked(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_card_room_options_parse_with_their_defaults():
    args = build_parser(["serve"]).parse_args(["serve"])
    assert (args.max_tables, args.bot_delay, args.grace) == (16, 0.8, 60.0)
    args = build_parser(["serve"]).parse_args(
        ["serve", "--max-tables", "3", "--bot-delay", "0", "--grace", "5"])
    assert (args.max_tables, args.bot_delay, args.grace) == (3, 0.0, 5.0)


async def test_reconnecting_at_once_still_finds_the_seat(room):
    alice, bob, shared = await seat_two(room)
    bob.abort()  # and straight back, maybe before the server has noticed the drop
    back = await arrive(room.port, "bob", keyed=True)
    await back.wait_for("Deal 1 of 11", timeout=20)
    await until(lambda: shared.seats[1].present and not shared.table.is_bot(1))
    assert "you are bob" not in back.text
    await alice.close()
    await back.close()


async def test_a_finished_session_leaves_nothing_behind_while_its_table_plays_on(room):
    alice, bob, shared = await seat_two(room)
    bob.send("/")
    await bob.wait_for("Say something")
    bob.send("bye\r")
    await alice.wait_for("bob: bye")
    [info] = [i for i in room.server.sessions if i.username == "bob"]
    app = weakref.ref(info.app)
    listeners = shared.listeners
    del info
    bob.abort()
    await until(lambda: len(room.server.sessions) == 1 and not shared.seats[1].present)
    assert shared.listeners == listeners - 1  # bob's table screen no longer listens
    assert len(room.lobby.guests) == 1

    def freed() -> bool:  # once any work in flight (a hand being solved) is done
        gc.collect()
        return app() is None

    await until(freed, timeout=10, what="bob's app to be freed")
    await alice.close()
