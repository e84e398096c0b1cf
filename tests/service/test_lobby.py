"""The SSH lobby service on its own (no terminal, no SSH): tables, seats, the bot driver,
grace periods, closing, limits and what a seat may see."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import weakref

import pytest

from tui.bots import make_bot
from tui.engine.actions import DrawStock, IllegalAction
from tui.engine.ruleset.loader import load_ruleset_text
from tui.service.lobby import Lobby, LobbyConfig, LobbyError, _load_rules
from tui.service.seat_handle import SeatTable

FAST = LobbyConfig(bot_delay=0, grace=0.05, summary_pause=0, summary_timeout=5, seed=11)
SHORT_GAME = "extends: three_thirteen\nname: Short\nrounds:\n  - {cards: 3, wild: [3]}\n" \
             "  - {cards: 4, wild: [4]}\n"


def short_rules(key: str):  # noqa: ANN201
    if key == "short":
        return load_ruleset_text(SHORT_GAME, key="short")
    return _load_rules(key)


def lobby(**changes) -> Lobby:
    config = LobbyConfig(**{**FAST.__dict__, **changes})
    return Lobby(config, rules_loader=short_rules)


async def until(condition, timeout: float = 20.0) -> None:  # noqa: ANN001
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, f"timed out waiting for {condition}"
        await asyncio.sleep(0.005)


async def play_for(seat_table: SeatTable, stop) -> None:  # noqa: ANN001
    """A person playing whenever it is their move (a random bot's choice), until `stop()`."""
    bot = make_bot("random", seat_table.seat)
    while not stop():
        view = seat_table.view()
        if view.my_turn:
            seat_table.act(seat_table.seat, bot.choose(view))
        await asyncio.sleep(0)


# ---------------------------------------------------------------------- seats


async def test_host_sits_friends_join_and_start_fills_open_chairs_with_bots():
    lob = lobby()
    alice = lob.enter("alice")
    bob = lob.enter("bob")
    handle = alice.create("three_thirteen", 3, "easy")
    assert handle.seat == 0
    [summary] = lob.summaries()
    assert (summary.status, summary.taken, summary.host) == ("waiting", 1, "alice")
    assert bob.join(summary.id).seat == 1
    alice.start()
    shared = lob.table(summary.id)
    assert shared.status == "playing"
    assert [s.name for s in shared.seats][:2] == ["alice", "bob"]
    assert shared.seats[2].bot == "easy" and shared.table.is_bot(2)
    assert not shared.table.is_bot(0) and not shared.table.is_bot(1)
    assert shared.table.game.names[:2] == ["alice", "bob"]
    lob.close()


async def test_a_full_table_starts_by_itself():
    lob = lobby()
    alice, bob = lob.enter("alice"), lob.enter("bob")
    table_id = alice.create("three_thirteen", 2, "easy").shared.id
    bob.join(table_id)
    assert lob.table(table_id).status == "playing"
    lob.close()


async def test_refusals_say_why():
    lob = lobby(max_tables=1, max_spectators=1)
    alice, bob, carol = lob.enter("alice"), lob.enter("bob"), lob.enter("carol")
    with pytest.raises(LobbyError, match="for 2 to 8 players, not 9"):
        alice.create("three_thirteen", 9, "easy")
    with pytest.raises(LobbyError, match="no 'genius' bot"):
        alice.create("three_thirteen", 3, "genius")
    with pytest.raises(LobbyError, match="No rules named"):
        alice.create("no_such_game", 3, "easy")
    with pytest.raises(LobbyError, match="No rules named"):  # never a path on the server
        Lobby(FAST).create("alice", "rulesets/three_thirteen.yaml", 3, "easy")
    assert lob.tables == []  # nothing half-made is left behind
    table_id = alice.create("three_thirteen", 2, "easy").shared.id
    with pytest.raises(LobbyError, match="limit"):
        bob.create("three_thirteen", 2, "easy")
    with pytest.raises(LobbyError, match="not started yet"):
        carol.watch(table_id)
    with pytest.raises(LobbyError, match="Only players seated"):
        lob.table(table_id).start("carol")
    bob.join(table_id)  # full: starts
    with pytest.raises(LobbyError, match="already started"):
        carol.join(table_id)
    carol.watch(table_id)
    with pytest.raises(LobbyError, match="1 spectators"):
        lob.enter("dave").watch(table_id)
    with pytest.raises(LobbyError, match="no table 99"):
        carol.join(99)
    lob.close()


async def test_the_same_name_cannot_sit_twice_while_present():
    lob = lobby()
    first, second = lob.enter("Alice"), lob.enter("alice")
    table_id = first.create("three_thirteen", 3, "easy").shared.id
    with pytest.raises(LobbyError, match="already at table"):
        second.join(table_id)
    assert lob.table(table_id).seats_taken() == 1
    lob.close()


async def test_leaving_a_waiting_table_frees_the_chair_and_the_last_one_out_closes_it():
    lob = lobby()
    alice, bob = lob.enter("alice"), lob.enter("bob")
    table_id = alice.create("three_thirteen", 3, "easy").shared.id
    bob.join(table_id)
    alice.leave()
    shared = lob.table(table_id)
    assert shared.seats[0].is_open and shared.host == "bob"
    bob.close()
    assert shared.status == "closed" and lob.tables == []
    assert lob.guests == [alice]


# ---------------------------------------------------------------------- what a seat sees


async def test_a_seat_only_ever_sees_its_own_hand_and_acts_only_for_itself():
    lob = lobby()
    alice, bob, carol = lob.enter("alice"), lob.enter("bob"), lob.enter("carol")
    table_id = alice.create("three_thirteen", 3, "easy").shared.id
    bob.join(table_id)
    alice.start()
    shared = lob.table(table_id)
    game = shared.table.game
    mine = alice.handle.table()
    assert mine.view(1).hand == tuple(game.round.hands[0])  # asks for bob's: gets its own
    assert mine.view(1).seat == 0
    watching = carol.watch(table_id).table()
    assert watching.view().hand == () and watching.view().legal == ()
    turn = game.actor
    with pytest.raises(IllegalAction, match="watching"):
        watching.act(-1, DrawStock(turn))
    other = 1 if turn != 1 else 0
    with pytest.raises(IllegalAction, match="your own seat"):
        shared_seat(lob, "alice" if other == 0 else "bob").act(turn, DrawStock(turn))
    with pytest.raises(IllegalAction):
        mine.undo(0)
    assert mine.bot_to_move() is None and mine.step_bot() is None and not mine.can_undo(0)
    assert "watching" in watching.hint()
    lob.close()


def shared_seat(lob: Lobby, name: str) -> SeatTable:
    guest = next(g for g in lob.guests if g.name == name)
    return guest.handle.table()


async def test_a_released_seat_can_no_longer_act_or_listen():
    lob = lobby(grace=30)
    alice, bob = lob.enter("alice"), lob.enter("bob")
    table_id = alice.create("three_thirteen", 2, "easy").shared.id
    bob.join(table_id)
    shared = lob.table(table_id)
    old = alice.handle.table()
    calls = []
    old.subscribe(lambda: calls.append(1))
    alice.leave()
    with pytest.raises(IllegalAction, match="no longer seated"):
        old.act(0, DrawStock(0))
    listeners = shared.listeners
    shared.chat.announce("ping")
    shared.ready(0)
    assert calls == [] and listeners == shared.listeners
    lob.close()


async def test_a_failing_listener_never_breaks_anyone_elses_move():
    lob = lobby()
    alice, bob = lob.enter("alice"), lob.enter("bob")
    table_id = alice.create("three_thirteen", 2, "easy").shared.id
    bob.join(table_id)
    shared = lob.table(table_id)

    def broken() -> None:
        raise RuntimeError("a session's screen blew up")

    bob.handle.subscribe(broken)
    seen = []
    alice.handle.subscribe(lambda: seen.append(1))
    actor = shared.table.game.actor
    player = alice if actor == 0 else bob
    player.handle.table().act(actor, DrawStock(actor))
    assert shared.table.game.phase == "play" and seen
    lob.close()


# ---------------------------------------------------------------------- the driver


@pytest.mark.looptime
async def test_bots_play_people_play_and_the_next_deal_waits_for_everyone_who_is_there():
    lob = lobby(summary_timeout=30)
    alice, bob = lob.enter("alice"), lob.enter("bob")
    table_id = alice.create("short", 3, "random").shared.id
    bob.join(table_id)
    alice.start()
    shared = lob.table(table_id)
    game = shared.table.game
    over = lambda: game.phase == "round_over"  # noqa: E731
    await asyncio.gather(play_for(alice.handle.table(), over), play_for(bob.handle.table(), over))
    assert any(a.seat == 2 for a in game.history)  # the bot moved
    alice.handle.table().next_round()
    await asyncio.sleep(5)  # the loop's clock is looptime's: the driver runs, time is not waited
    assert game.phase == "round_over" and game.round.number == 1  # bob has not seen it
    assert shared.chat.messages[-1].text == "alice is ready for the next deal; waiting for bob."
    bob.handle.table().next_round()
    await until(lambda: game.round.number == 2)
    over2 = lambda: game.phase == "game_over"  # noqa: E731
    await asyncio.gather(play_for(alice.handle.table(), over2),
                         play_for(bob.handle.table(), over2))
    await until(lambda: shared.status == "finished")
    alice.close()
    assert shared.status == "finished"
    bob.close()
    assert shared.status == "closed" and lob.tables == []


async def test_the_next_deal_comes_after_a_timeout_if_someone_never_looks():
    lob = lobby(summary_timeout=0.2)
    alice = lob.enter("alice")
    table_id = alice.create("short", 2, "random").shared.id
    alice.start()
    game = lob.table(table_id).table.game
    await play_for(alice.handle.table(), lambda: game.phase == "round_over")
    await until(lambda: game.round.number == 2, timeout=5)
    lob.close()


# ---------------------------------------------------------------------- leaving, coming back


async def test_a_player_who_leaves_gets_a_bot_after_the_grace_and_takes_the_seat_back():
    lob = lobby(grace=0.1)
    alice, bob = lob.enter("alice"), lob.enter("bob", key="SHA256:bob")
    table_id = alice.create("three_thirteen", 3, "easy").shared.id
    bob.join(table_id)
    alice.start()
    shared = lob.table(table_id)
    bob.close()
    assert shared.seats[1].describe("medium") == "away"
    assert not shared.table.is_bot(1)
    await until(lambda: shared.table.is_bot(1))
    assert shared.seats[1].standin
    assert shared.seat_specs()[1].bot == "away, medium bot plays"
    back = lob.enter("BOB", key="SHA256:bob")
    assert lob.waiting_seat(back.identity) is shared
    handle = back.join(table_id)
    assert handle.seat == 1 and not shared.table.is_bot(1) and shared.seats[1].present
    texts = [m.text for m in shared.chat.messages]
    assert any("bob left" in t for t in texts) and "bob is back." in texts
    lob.close()


@pytest.mark.looptime
async def test_coming_back_within_the_grace_means_no_bot_ever_plays_the_seat():
    lob = lobby(grace=0.3)
    alice, bob = lob.enter("alice"), lob.enter("bob")
    table_id = alice.create("three_thirteen", 2, "easy").shared.id
    bob.join(table_id)
    shared = lob.table(table_id)
    bob.leave()
    bob.join(table_id)
    await asyncio.sleep(3)  # on looptime's clock: ten graces pass at once
    assert not shared.table.is_bot(1) and not shared.seats[1].standin


async def test_a_table_with_nobody_left_closes_once_the_graces_are_over():
    lob = lobby(grace=0.1)
    alice, bob, carol = lob.enter("alice"), lob.enter("bob"), lob.enter("carol")
    table_id = alice.create("three_thirteen", 3, "easy").shared.id
    bob.join(table_id)
    alice.start()
    shared = lob.table(table_id)
    carol.watch(table_id)
    closed = []
    carol.handle.subscribe(lambda: closed.append(shared.status))
    alice.close()
    bob.close()
    assert shared.status == "playing"  # they may still come back
    await until(lambda: shared.status == "closed")
    assert lob.tables == [] and "closed" in closed
    assert carol.shared is None
    await asyncio.sleep(0)
    assert shared._driver is None


# ---------------------------------------------------------------------- lobby list


async def test_lobby_listeners_hear_of_every_change_and_a_broken_one_is_contained():
    lob = lobby()
    heard = []
    lob.subscribe(lambda: heard.append(len(lob.tables)))
    lob.subscribe(lambda: 1 / 0)
    alice = lob.enter("alice")
    alice.create("three_thirteen", 2, "easy")
    alice.close()
    assert heard[-1] == 0 and 1 in heard


async def test_the_table_keeps_nothing_of_the_context_it_was_started_from():
    """The driver task and grace timers must not hold the context of the app that
    happened to start the game or drop a player (that would keep the app alive)."""
    lob = lobby(grace=30)
    alice, bob = lob.enter("alice"), lob.enter("bob")
    table_id = alice.create("three_thirteen", 3, "easy").shared.id
    bob.join(table_id)
    marker_var: contextvars.ContextVar[object] = contextvars.ContextVar("marker")

    class Marker:
        pass

    marker = Marker()
    ref = weakref.ref(marker)

    async def as_some_app(held: object) -> None:
        marker_var.set(held)
        alice.start()
        bob.leave()  # a grace timer starts here

    await asyncio.create_task(as_some_app(marker))
    del marker
    await asyncio.sleep(0)  # the finished task lets go of its context
    gc.collect()
    assert ref() is None
    assert lob.table(table_id)._grace and lob.table(table_id)._driver is not None
    lob.close()


# ---------------------------------------------------------------------- table numbers


async def test_tables_kept_on_disk_keep_their_numbers_and_new_ones_come_after():
    lob = lobby()
    try:
        lob.reserve_ids_above(7)  # tables 1-7 kept on disk (some may not load)
        back = lob.create("alice", "short", 2, "easy", table_id=3)
        assert back.id == 3
        with pytest.raises(LobbyError, match="already open"):
            lob.create("bob", "short", 2, "easy", table_id=3)
        assert lob.create("bob", "short", 2, "easy").id == 8
        lob.reserve_ids_above(2)  # never numbers a table twice
        assert lob.create("carol", "short", 2, "easy").id == 9
        assert sorted(t.id for t in lob.tables) == [3, 8, 9]
    finally:
        lob.close()
