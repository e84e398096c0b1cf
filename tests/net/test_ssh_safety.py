"""`rummy serve` tried as an outsider would: real SSH clients with PTYs and a terminal
emulator against the card room on 127.0.0.1 port 0, one test per hole of issue #12.

Impersonation (by key and by password) never reaches the victim's seat or hand; markup
names and rule names crash nobody and send no hyperlink; idle sockets do not lock real
players out; wrong passwords are slowed and logged; a vt100 client gets no deep colour
after a truecolor one; a frozen client and a player who never moves do not stall the
table; a returning player replaces their lingering session.

The three slowest (several terminals around a dealt table) are marked `slow`: run them with
`python -m pytest -m slow tests/net/test_ssh_safety.py`; the identity rules they show end
to end are also checked on the lobby service alone, quickly, in tests/service.
"""

from __future__ import annotations

import asyncio
import logging
import re

import asyncssh
import pytest
from ssh_room import ENTER, arrive, create_table, key_of, open_room, until

from tui.engine.cards import RANK_NAMES, SUIT_SYMBOLS
from tui.net.door import DoorLimits
from tui.net.startup import DEFAULT_KEEPALIVE, KEEPALIVE_COUNT
from tui.net.testing import TerminalClient
from tui.paths import player_rulesets_dir
from tui.service.lobby import LobbyConfig
from tui.service.shared_table import SharedTable

OSC8 = b"\x1b]8;"
DEEP_COLOUR = re.compile(rb"\x1b\[[0-9;]*(?:38|48);[25];")
SLOW_BOTS = LobbyConfig(bot_delay=0.05, grace=30, summary_pause=0.05, seed=5)



def hand_words(shared: SharedTable, seat: int) -> set[str]:
    """How `seat`'s cards are written on a screen (`7♥`), to look for them elsewhere."""
    assert shared.table is not None
    return {RANK_NAMES[c.rank] + SUIT_SYMBOLS[c.suit]
            for c in shared.table.game.round.hands[seat] if not c.is_joker}


async def sit_alice_and(room, victim: str, **victim_options) -> tuple:  # noqa: ANN001
    """alice hosts a 2-seat table, `victim` joins it: the game deals."""
    alice = await arrive(room.port, "alice", **victim_options)
    await create_table(alice, "Three Thirteen", 2, "medium")
    victim_client = await arrive(room.port, victim, **victim_options)
    await victim_client.wait_for("alice")
    victim_client.send("j")
    await victim_client.wait_for("Deal 1 of")
    [shared] = room.lobby.tables
    return alice, victim_client, shared


@pytest.mark.slow  # several terminals and a whole table: ~7-10 s
async def test_another_key_never_gets_a_dropped_players_seat():
    room = await open_room(SLOW_BOTS)
    try:
        alice, bob, shared = await sit_alice_and(room, "bob", keyed=True)
        secret = hand_words(shared, 1)
        bob.abort()
        await until(lambda: not shared.seats[1].present, what="bob's drop noticed")
        eve_key = asyncssh.generate_private_key("ssh-ed25519")
        eve = await TerminalClient.connect(room.port, username="bob", client_keys=[eve_key])
        await eve.wait_closed()
        assert eve.exit_status == 1 and b"belongs to another player's key" in eve.output
        assert not shared.seats[1].present
        assert not any(word in eve.text for word in secret)
        # Without a key at all, the name is refused the same way.
        keyless = await TerminalClient.connect(room.port, username="BOB")
        await keyless.wait_closed()
        assert b"logs in with an SSH key" in keyless.output and not shared.seats[1].present
        # bob, with his own key, is straight back at his seat.
        back = await arrive(room.port, "bob", keyed=True)
        await back.wait_for("Deal 1 of")
        await until(lambda: shared.seats[1].present)
        await alice.close()
        await back.close()
    finally:
        await room.close()


@pytest.mark.slow  # several terminals and a whole table: ~7-10 s
async def test_a_keyless_impostor_needs_the_rejoin_code_and_never_sees_the_hand():
    room = await open_room(SLOW_BOTS, password="friends")
    try:
        alice, bob, shared = await sit_alice_and(room, "bob", password="friends")
        code = shared.seats[1].rejoin_code
        assert code and f"rejoin code {code}" in bob.text  # on bob's own screen only
        assert code not in alice.text
        secret = hand_words(shared, 1)
        bob.abort()
        await until(lambda: not shared.seats[1].present, what="bob's drop noticed")
        eve = await arrive(room.port, "bob", password="friends")
        await eve.wait_for("you are bob")  # the lobby, not bob's table
        eve.send("j")
        await eve.wait_for("Take your seat back at table")
        eve.send("AAA-AAA" if code != "AAA-AAA" else "BBB-BBB")
        eve.send(ENTER)
        await eve.wait_for("not it")
        assert not shared.seats[1].present
        assert "Deal 1 of" not in eve.text and not any(word in eve.text for word in secret)
        await eve.close()
        # The real bob types the code he was shown: his seat and hand are his again.
        back = await arrive(room.port, "bob", password="friends")
        await back.wait_for("you are bob")
        back.send("j")
        await back.wait_for("Take your seat back at table")
        back.send(code.lower())
        back.send(ENTER)
        await back.wait_for("Deal 1 of")
        await until(lambda: shared.seats[1].present)
        new_code = shared.seats[1].rejoin_code
        assert new_code != code  # one use only
        await back.wait_for(f"rejoin code {new_code}")
        await alice.close()
        await back.close()
    finally:
        await room.close()


async def test_authorized_keys_name_their_players(tmp_path, caplog):  # noqa: ANN001
    keys = tmp_path / "friends_keys"
    bob, eve = key_of("bob"), key_of("eve")
    keys.write_text(
        bob.export_public_key().decode().strip() + "\n"  # comment bob@test: plays as bob
        + 'environment="RUMMY_NAME=Evelyn" '
        + eve.export_public_key().decode().strip() + "\n")
    room = await open_room(SLOW_BOTS, authorized_keys=keys)
    try:
        as_eve = await TerminalClient.connect(room.port, username="bob", client_keys=[eve])
        await as_eve.wait_for("you are Evelyn")  # the host named her key; "bob" is ignored
        as_bob = await TerminalClient.connect(room.port, username="root", client_keys=[bob])
        await as_bob.wait_for("you are bob")
        stranger = asyncssh.generate_private_key("ssh-ed25519")
        caplog.set_level(logging.WARNING, logger="tui.net.player_connection")
        with pytest.raises(asyncssh.PermissionDenied):
            await TerminalClient.connect(room.port, username="bob", client_keys=[stranger])
        await until(lambda: any("login refused from 127.0.0.1 as 'bob'" in r.getMessage()
                                for r in caplog.records), what="the refusal logged")
        await as_eve.close()
        await as_bob.close()
    finally:
        await room.close()


async def test_markup_names_and_rule_names_crash_nobody_and_send_no_hyperlink():
    hostile = "eve[/][link=http://x.y]"
    folder = player_rulesets_dir(hostile)
    folder.mkdir(parents=True)
    (folder / "evil.yaml").write_text(
        'extends: three_thirteen\nname: "x[/] [link=https://x.example]y"\n'
        'description: "[@click=app.quit]d"\n')
    room = await open_room(SLOW_BOTS)
    try:
        eve = await arrive(room.port, hostile)
        await create_table(eve, "x[/] [link=https://x.example]y (yours)", 2, "medium")
        mallory = await arrive(room.port, "[@click=app.quit]mal")
        await mallory.wait_for("x[/] [link=")
        mallory.send("j")
        await mallory.wait_for("Deal 1 of")
        await eve.wait_for("Deal 1 of")
        assert "[@click=app.quit]mal"[:8] in eve.text and hostile[:10] in mallory.text
        for client in (eve, mallory):
            assert OSC8 not in client.output and not client.closed.is_set()
        await eve.close()
        await mallory.close()
    finally:
        await room.close()


async def test_twice_max_sessions_idle_sockets_do_not_stop_a_real_login():
    sessions = 20
    room = await open_room(SLOW_BOTS, max_sessions=sessions,
                           door_limits=DoorLimits(login_grace=30))
    try:
        idle = [await asyncio.open_connection("127.0.0.1", room.port)
                for _ in range(2 * sessions)]
        cap = room.server.door.limits.pending_per_address
        await until(lambda: room.server.door.pending == cap, what="the door's cap")
        # The oldest idle sockets were closed to keep `cap` in progress from this address.
        for reader, _ in idle[:-cap]:
            while await reader.read(1024):
                pass
        alice = await arrive(room.port, "alice")  # logs in: pushes out the oldest idle one
        assert "you are alice" in alice.text
        await alice.close()
        for _, writer in idle:
            writer.close()
    finally:
        await room.close()


async def test_a_connection_that_never_logs_in_is_closed_after_the_login_grace():
    room = await open_room(SLOW_BOTS, door_limits=DoorLimits(login_grace=0.3))
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", room.port)
        while await asyncio.wait_for(reader.read(1024), 10):
            pass  # the server's banner, then the end: the grace is over
        assert room.server.door.pending == 0
        writer.close()
    finally:
        await room.close()


async def test_wrong_passwords_are_slowed_per_address_capped_per_connection_and_logged(caplog):
    waits: list[float] = []

    async def recorded(seconds: float) -> None:  # the door's delay, without waiting it
        waits.append(seconds)

    class Guesser(asyncssh.SSHClient):
        tries = 0

        def password_auth_requested(self) -> str:
            Guesser.tries += 1
            return f"guess-{Guesser.tries}"

    caplog.set_level(logging.WARNING, logger="tui.service.door_keeper")
    room = await open_room(SLOW_BOTS, password="friends")
    room.server.sleep = recorded
    try:
        with pytest.raises((asyncssh.DisconnectError, asyncssh.PermissionDenied)):
            await asyncssh.connect("127.0.0.1", room.port, username="mallory",
                                   known_hosts=None, agent_path=None, client_keys=(),
                                   preferred_auth="password", client_factory=Guesser)
        assert Guesser.tries == 3  # the third wrong password closed the connection
        assert waits == [1.0, 2.0, 4.0]  # doubling, from this address
        # The address is penalised: a new connection is refused before it may try.
        with pytest.raises(asyncssh.DisconnectError, match="too many failed logins"):
            await TerminalClient.connect(room.port, username="mallory", password="friends")
        assert waits == [1.0, 2.0, 4.0] and Guesser.tries == 3
        lines = [r.getMessage() for r in caplog.records if "penalised" in r.getMessage()]
        assert len(lines) == len(waits)  # each penalty once, with its address and time
        assert all(line.startswith("door: 127.0.0.1 penalised for ") for line in lines)
        assert "mallory" in lines[0]
        friend = await arrive(room.port, "bob", password="friends",
                              source="127.0.0.2")  # another address: straight in
        await friend.close()
    finally:
        await room.close()


async def test_a_vt100_client_gets_no_deep_colour_after_a_truecolor_client():
    room = await open_room(SLOW_BOTS)
    try:
        deep = await arrive(room.port, "tc", term_type="xterm-256color",
                            env={"COLORTERM": "truecolor"})
        assert DEEP_COLOUR.search(bytes(deep.output))  # the control: codes to look for
        plain = await arrive(room.port, "vt", term_type="vt100")
        await create_table(plain, "Three Thirteen", 2, "medium")
        deep.send("j")
        await plain.wait_for("Deal 1 of")
        assert not DEEP_COLOUR.search(bytes(plain.output))
        await deep.close()
        await plain.close()
    finally:
        await room.close()


async def test_a_frozen_client_is_dropped_in_seconds_and_its_seat_goes_to_the_bot():
    assert DEFAULT_KEEPALIVE * KEEPALIVE_COUNT <= 15  # seconds, by default (was 2 minutes)
    room = await open_room(LobbyConfig(bot_delay=0.05, grace=0.2, seed=5),
                           keepalive_interval=0.2)
    try:
        alice, bob, shared = await sit_alice_and(room, "bob", keyed=True)
        bob.conn._transport.pause_reading()  # frozen: reads nothing, answers nothing
        await until(lambda: not shared.seats[1].present, timeout=10, what="the freeze noticed")
        await until(lambda: shared.table.is_bot(1), what="the stand-in bot")
        await alice.wait_for("bob (away, medium bot plays)")
        bob.abort()
        await alice.close()
    finally:
        await room.close()


async def test_a_player_who_never_moves_gets_a_bot_for_that_turn_only():
    room = await open_room(LobbyConfig(bot_delay=0.05, grace=30, seed=5, turn_timeout=1.5))
    try:
        alice = await arrive(room.port, "alice")
        await create_table(alice, "Three Thirteen", 2, "medium")
        alice.send("s")  # start: alice and a bot
        [shared] = room.lobby.tables
        await until(lambda: shared.table is not None)
        game = shared.table.game
        await until(lambda: game.actor == 0 and game.phase == "draw", what="alice's turn")
        await alice.wait_until(lambda: re.search(r"your draw · \d+s", alice.text) is not None)
        await until(lambda: any(a.seat == 0 for a in game.history), what="her turn played")
        assert any("time ran out" in m.text for m in shared.chat.messages)
        await until(lambda: game.actor != 0 or game.phase not in ("draw", "play"))
        await until(lambda: not shared.table.is_bot(0), what="her seat given back")
        await alice.close()
    finally:
        await room.close()


@pytest.mark.slow  # several terminals and a whole table: ~7-10 s
async def test_coming_back_while_the_old_session_lingers_closes_it():
    room = await open_room(SLOW_BOTS, keepalive_interval=60)
    try:
        alice, bob, shared = await sit_alice_and(room, "bob", keyed=True)
        bob.conn._transport.pause_reading()  # frozen, and the server has not noticed
        back = await arrive(room.port, "bob", keyed=True)
        await back.wait_for("Deal 1 of")
        await until(lambda: [i.player_name for i in room.server.sessions].count("bob") == 1,
                    what="the lingering session closed")
        assert shared.seats[1].present
        bob.abort()
        await alice.close()
        await back.close()
    finally:
        await room.close()
