"""The game service as workers meet it: over its real Unix socket, with scripted workers
that speak the wire protocol by hand (so they can also lie, garble and crash)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from scripted_worker import FAST, ScriptedWorker
from ssh_room import until

from tui.engine.save import fingerprint
from tui.service.authority import GameService, WorkerLink
from tui.service.wire import action_to_wire, encode, view_from_wire


async def _table_of_two(service: GameService, path: Path, bots: int = 0):
    """ann on worker 1, bob on worker 2, at one dealt three_thirteen table."""
    one = await ScriptedWorker.connect(path, 1)
    two = await ScriptedWorker.connect(path, 2)
    await one.reply(one.ask({"t": "enter", "s": 1, "name": "ann", "key": "SHA256:ann"}))
    await two.reply(two.ask({"t": "enter", "s": 1, "name": "bob", "key": "SHA256:bob"}))
    created = await one.reply(one.ask({"t": "create", "s": 1, "rules_key": "three_thirteen",
                                       "seats": 2 + bots, "fill": "random",
                                       "rules_text": None}))
    assert created["ok"], created
    [shared] = service.lobby.tables
    assert (await two.reply(two.ask({"t": "join", "s": 1, "table": shared.id,
                                     "code": ""})))["ok"]
    if bots:
        assert (await one.reply(one.ask({"t": "start", "s": 1})))["ok"]
    await until(lambda: 1 in one.views and 1 in two.views)
    for worker in (one, two):  # the chat of a place comes after the place itself
        first_chat = next(i for i, m in enumerate(worker.received) if m["t"] == "chat")
        chat = worker.received[first_chat]
        assert any(m["t"] == "place" and m["place"] and m["place"][4] == chat["ticket"]
                   for m in worker.received[:first_chat])
        assert any("sat down" in text for _, _, text in chat["messages"])
    return one, two, shared


def _state(service: GameService, shared: Any) -> tuple:
    table = shared.table
    return (fingerprint(table.game), len(table.game.history),
            json.dumps([list(s) for s in (x.seats for x in service.lobby.summaries())]),
            [(s.person, s.present) for s in shared.seats])


async def test_malformed_and_forged_messages_are_refused_and_change_nothing(
        service: GameService, tmp_path: Path) -> None:
    one, two, shared = await _table_of_two(service, tmp_path / "service.sock")
    game = shared.table.game
    mover = game.actor
    worker, other = (one, two) if mover == 0 else (two, one)
    hand_of_other = game.round.hands[1 - mover]
    before = _state(service, shared)
    [link_one] = [link for link in service.links if link.worker == 1]
    refused_before = sum(link.refused for link in service.links)
    draw = action_to_wire(game.legal_actions(mover)[0])
    bad = [
        b"this is not json\n",
        b'{"t": "act"}\n',
        b'{"t": "shutdown", "s": 1, "q": 1}\n',
        encode({"t": "act", "s": 1, "q": 90, "action": {"kind": "draw_stock"}}),
        encode({"t": "act", "s": 1, "q": 91, "action": {**draw, "seat": "0"}}),
        encode({"t": "act", "s": 1, "q": 92, "action": draw, "admin": True}),
        # forged: the other seat's move, sent for this worker's own session
        encode({"t": "act", "s": 1, "q": 93,
                "action": action_to_wire(game.legal_actions(mover)[0].__class__(1 - mover))}),
        # forged: a session this worker never opened (the other worker's is also "1")
        encode({"t": "act", "s": 7, "q": 94, "action": draw}),
        # the other player's card, by uid, as if it were in this hand
        encode({"t": "act", "s": 1, "q": 95, "action": {
            "kind": "discard", "seat": 1 - mover,
            "card": [hand_of_other[0].rank, hand_of_other[0].suit, hand_of_other[0].uid]}}),
        encode({"t": "join", "s": 1, "q": 96, "table": 999, "code": ""}),
        encode({"t": "enter", "s": 1, "q": 97, "name": "mallory", "key": ""}),
    ]
    for line in bad:
        other.raw(line)
    await until(lambda: sum(link.refused for link in service.links) - refused_before
                >= len(bad))
    for number in range(90, 98):
        reply = await other.reply(number)
        assert reply["ok"] is False and reply["error"], reply
    assert _state(service, shared) == before
    assert shared.table.game.round.hands[mover] == game.round.hands[mover]
    # ...and the worker whose move it is still plays as before.
    assert (await worker.reply(worker.ask({"t": "act", "s": 1, "action": draw})))["ok"]
    assert len(shared.table.game.history) == before[1] + 1
    assert link_one.sessions  # nobody was thrown out for the other worker's garbage


async def test_a_worker_that_dies_takes_only_its_sessions_and_the_seat_comes_back(
        service: GameService, tmp_path: Path) -> None:
    path = tmp_path / "service.sock"
    one, two, shared = await _table_of_two(service, path, bots=1)
    one.abort()  # worker 1 (ann's) crashes
    await until(lambda: len(service.links) == 1)
    ann = shared.seats[0]
    assert ann.person == "ann" and not ann.present  # her seat is kept for her
    assert shared.status == "playing"
    # The other worker carries on: bob still gets views and can chat.
    seen = len(two.received)
    assert (await two.reply(two.ask({"t": "say", "s": 1, "text": "still here"})))["ok"]
    await until(lambda: any(m["t"] == "chat" and "still here" in json.dumps(m)
                            for m in two.received[seen:]))
    # ann reconnects: her new session lands on worker 2; she is offered her seat back.
    back = two.ask({"t": "enter", "s": 2, "name": "ann", "key": "SHA256:ann"})
    assert (await two.reply(back))["ok"]
    await until(lambda: any(m["t"] == "place" and m["s"] == 2 and m["waiting"] == shared.id
                            for m in two.received))
    assert (await two.reply(two.ask({"t": "join", "s": 2, "table": shared.id,
                                     "code": ""})))["ok"]
    await until(lambda: 2 in two.views)
    assert shared.seats[0].present and two.views[2]["view"]["seat"] == 0
    # and a new worker may join the running service at any time.
    three = await ScriptedWorker.connect(path, 3)
    await until(lambda: any(m["t"] == "lobby" for m in three.received))


def _card_uids(value: Any) -> set[int]:
    """Every card uid anywhere in a message (cards travel as [rank, suit, uid])."""
    found: set[int] = set()
    if isinstance(value, list):
        if len(value) == 3 and isinstance(value[0], int) and isinstance(value[1], str) \
                and isinstance(value[2], int) and len(value[1]) == 1:
            found.add(value[2])
        else:
            for item in value:
                found |= _card_uids(item)
    elif isinstance(value, dict):
        for item in value.values():
            found |= _card_uids(item)
    return found


async def test_no_worker_is_ever_sent_another_seats_cards_over_a_whole_deal(
        service: GameService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[WorkerLink, dict[str, Any], dict[int, set[int]]]] = []
    original = WorkerLink.send

    def recording(link: WorkerLink, message: dict[str, Any]) -> None:
        # What nobody but its holder may know at this moment: every hand (by seat) and
        # the stock, less every card that has been public (pile, table, log).
        hidden: dict[int, set[int]] = {}
        for shared in service.lobby.tables:
            if shared.table is not None:
                game = shared.table.game
                st = game.round
                public = {c.uid for c in st.discard} | {c.uid for m in st.table
                                                         for c in m.cards}
                public |= {c.uid for event in game.log for c in event.cards}
                stock = {c.uid for c in st.stock} - public
                for seat, hand in enumerate(st.hands):
                    hidden[seat] = ({c.uid for c in hand} - public) | stock
        sent.append((link, message, hidden))
        original(link, message)

    monkeypatch.setattr(WorkerLink, "send", recording)
    one, two, shared = await _table_of_two(service, tmp_path / "service.sock", bots=1)
    seats = {one: 0, two: 1}

    async def play(worker: ScriptedWorker) -> None:
        """Play the first deal: the first legal move whenever the view offers one."""
        seat = seats[worker]
        while True:
            view = worker.views[1]["view"]
            if view["n"] > 1 or view["phase"] in ("round_over", "game_over"):
                return
            if view["legal"] and view["turn"] == seat:
                number = worker.ask({"t": "act", "s": 1, "action": view["legal"][0]})
                await worker.reply(number)
            await asyncio.sleep(0.001)

    await asyncio.wait_for(asyncio.gather(play(one), play(two)), 20)
    await until(lambda: shared.table.game.phase == "round_over")
    links = {link.worker: link for link in service.links}
    own = {1: 0, 2: 1}
    views = 0
    for link, message, hidden in sent:
        if link.worker not in own:
            continue
        seat = own[link.worker]
        assert message.get("s") in (None, 1), "a message about another worker's session"
        if message["t"] == "view":
            views += 1
            assert message["view"]["seat"] == seat
        if message["t"] == "view" and message["view"]["phase"] == "round_over":
            continue  # the deal is over: every hand is shown as scored
        others = set().union(*(uids for s, uids in hidden.items() if s != seat))
        leaked = _card_uids(message) & others
        assert not leaked, f"worker {link.worker} was sent hidden cards {leaked}: {message}"
    assert views >= 4 and links
    # The scan does see cards: each worker was sent its own hand.
    for worker in seats:
        first = next(m for m in worker.received if m["t"] == "view")
        assert len(view_from_wire(first["view"], shared.table.rules, []).hand) == 3


async def test_views_carry_the_turn_countdown_of_the_person_to_move(service, tmp_path):
    one, two, shared = await _table_of_two(service, tmp_path / "service.sock")
    await until(lambda: shared.turn_deadline is not None)
    await until(lambda: one.views[1].get("left") is not None)
    assert 0 < one.views[1]["left"] <= FAST.turn_timeout
    assert 0 < two.views[1]["left"] <= FAST.turn_timeout


async def test_one_door_for_every_worker_penalties_and_caps_alike(service, tmp_path):  # noqa: ANN001
    """The kernel spreads one address's connections over the workers: the service keeps
    the door for them all, so a penalty earned at one worker's door is kept at every
    other's, and the cap on logins in progress is the server's, not a worker's share."""
    from tui.net.door import Door
    from tui.net.remote import ServiceDoor, ServiceLink

    path = tmp_path / "service.sock"
    one = await ScriptedWorker.connect(path, 1)
    two = await ScriptedWorker.connect(path, 2)
    door = {"t": "door", "address": "10.0.0.9"}
    assert (await one.reply(one.ask({**door, "conn": 1})))["ok"]
    failed = await one.reply(one.ask({"t": "failed", "conn": 1, "address": "10.0.0.9",
                                      "user": "eve", "method": "password"}))
    assert failed["delay"] == 1
    one.send({"t": "settled", "conn": 1, "outcome": "abandoned"})  # counted once only
    refused = await two.reply(two.ask({**door, "conn": 1}))
    assert not refused["ok"] and "too many failed logins" in refused["error"]
    assert service.door.failures("10.0.0.9") == 1
    # A family of 8 at one address, spread over both workers: all may log in at once;
    # a ninth pushes out the oldest, at whichever worker holds it.
    family = {"t": "door", "address": "10.0.0.7"}
    answers = [await (one if n % 2 else two).reply((one if n % 2 else two).ask(
        {**family, "conn": 10 + n})) for n in range(8)]
    assert all(a["ok"] for a in answers)
    assert not [m for w in (one, two) for m in w.received if m["t"] == "evict"]
    assert (await one.reply(one.ask({**family, "conn": 30})))["ok"]
    await until(lambda: any(m["t"] == "evict" for m in two.received))
    assert [m["conn"] for m in two.received if m["t"] == "evict"] == [10]
    # A worker that goes takes its attempts in progress with it (uncounted).
    pending = service.door.pending
    two.abort()
    await until(lambda: service.door.pending == pending - 3)  # (its 4th was pushed out)
    assert service.door.failures("10.0.0.7") == 0
    # A real worker's door asks the service, and answers alone once it is gone.
    link = await ServiceLink.connect(path, 3)
    link.hello()
    own = Door()
    doorway = ServiceDoor(link, own)
    assert "too many failed logins" in await doorway.arrive(1, "10.0.0.9")
    assert await doorway.arrive(2, "10.0.0.10") == ""
    assert await doorway.failed(2, "10.0.0.10", "bob", "password") == 1
    assert service.door.failures("10.0.0.10") == 1 and own.keeper.failures("10.0.0.10") == 0
    await link.close()
    assert await doorway.arrive(3, "10.0.0.9") == ""  # its own door knows nothing of it
    assert own.pending == 1
