"""Games survive the server: real `rummy serve` processes (a game service and a session
worker) on loopback, players on asyncssh terminals.  A game killed (`kill -9`) or stopped
(`SIGTERM`) in the middle of a deal comes back after a restart on the same data folder
with the same hands, turn and scores; its owners take their seats back, by key and by
rejoin code; a damaged kept table is skipped with a log line and costs no other."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from ssh_room import ENTER, arrive, create_table, until

from tui.engine.cards import RANK_NAMES, SUIT_SYMBOLS
from tui.engine.game import Game
from tui.engine.save import fingerprint
from tui.net.testing import TerminalClient
from tui.service.kept_tables import KeptTable, SqliteTables

pytestmark = pytest.mark.slow  # two servers started one after the other: ~15 s

ROOT = Path(__file__).resolve().parents[2]


class RunningServe:
    """`rummy serve` in a process of its own, on 127.0.0.1 and a free port."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.log: list[str] = []
        self.said: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0
        self._readers: list[asyncio.Task[None]] = []

    async def start(self) -> RunningServe:
        env = dict(os.environ, RUMMY_HOME=str(self.home), PYTHONPATH=str(ROOT))
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui", "serve", "--port", "0", "--workers", "1",
            "--bot-delay", "0", "--grace", "60", "--turn-timeout", "0", env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [asyncio.create_task(self._read(self.proc.stdout, self.said)),
                         asyncio.create_task(self._read(self.proc.stderr, self.log))]
        await until(lambda: any("listening on" in line for line in self.said), 60,
                    "the server to listen")
        line = next(line for line in self.said if "listening on" in line)
        self.port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
        return self

    @staticmethod
    async def _read(stream: asyncio.StreamReader, into: list[str]) -> None:
        while line := await stream.readline():
            into.append(line.decode(errors="replace").rstrip())

    async def signal(self, signum: int) -> int:
        assert self.proc is not None
        self.proc.send_signal(signum)
        code = await asyncio.wait_for(self.proc.wait(), 60)
        await asyncio.gather(*self._readers)
        return code

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            await self.signal(signal.SIGTERM)


def kept(home: Path, table_id: int = 1) -> KeptTable:
    entry = SqliteTables(home / "data" / "tables").load(table_id)
    assert isinstance(entry, KeptTable)
    return entry


def hand_words(game: Game, seat: int) -> set[str]:
    return {RANK_NAMES[c.rank] + SUIT_SYMBOLS[c.suit]
            for c in game.round.hands[seat] if not c.is_joker}


async def move(home: Path, players: dict[int, TerminalClient]) -> None:
    """The person to move presses draw (`s`) or discard (`d`); wait until it is kept."""
    game = kept(home).game
    done = len(game.history)
    client = players[game.actor]
    for _ in range(40):
        client.send("s" if game.phase == "draw" else "d")
        try:
            await until(lambda: len(kept(home).game.history) > done, 0.5)
            return
        except AssertionError:
            continue
    raise AssertionError(f"no move was kept; screen:\n{client.text}")


async def mid_deal(home: Path) -> tuple[RunningServe, TerminalClient, TerminalClient]:
    """alice (with her key) hosts a 2-seat table, bob (keyless) joins; they play a few
    moves of the first deal."""
    serve = await RunningServe(home).start()
    alice = await arrive(serve.port, "alice", keyed=True)
    await create_table(alice, "Three Thirteen", 2, "medium")
    bob = await arrive(serve.port, "bob")
    await bob.wait_for("alice")
    bob.send("j")
    await bob.wait_for("Deal 1 of")
    for _ in range(5):
        await move(home, {0: alice, 1: bob})
    return serve, alice, bob


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
async def test_a_game_comes_back_after_the_server_is_stopped(tmp_path: Path,
                                                             signum: int) -> None:
    home = tmp_path / "home"
    serve, alice, bob = await mid_deal(home)
    again: RunningServe | None = None
    clients = [alice, bob]
    try:
        before = kept(home)
        code = before.seats[1]["rejoin_code"]
        assert code and f"rejoin code {code}" in bob.text
        assert before.seats[0]["owner"].startswith("key:")
        status = await serve.signal(signum)
        for client in (alice, bob):
            await client.wait_closed(30)
        if signum == signal.SIGTERM:
            assert status == 0
            for client in (alice, bob):
                assert b"A game in progress is kept" in client.output
        # What the server had shown is what is kept: nothing after the last commit.
        game = kept(home).game
        assert fingerprint(game) == fingerprint(before.game)
        left = [p.parent for p in Path("/tmp").glob("rummy-service-*/service.pid")
                if p.read_text() == str(serve.proc.pid)]
        assert len(left) == (1 if signum == signal.SIGKILL else 0)  # what a kill leaves
        (home / "data" / "tables" / "table-7.sqlite").write_bytes(b"\x7fnot sqlite" * 99)

        again = await RunningServe(home).start()
        assert "Brought back 1 kept game(s): table 1." in again.said
        assert any("kept table 7 skipped" in line for line in again.log), again.log
        assert not [folder for folder in left if folder.exists()]  # cleared on start
        back = kept(home).game
        assert fingerprint(back) == fingerprint(game)
        assert (back.actor, back.phase, back.totals, back.round.number) == \
            (game.actor, game.phase, game.totals, game.round.number)

        # alice comes back by her key: straight to her seat, her hand as it was.
        alice = await arrive(again.port, "alice", keyed=True)
        clients.append(alice)
        await alice.wait_for("Deal 1 of")  # (she presses nothing)
        await alice.wait_until(lambda: all(w in alice.text for w in hand_words(game, 0)))
        # bob, without a key, with the rejoin code his table showed before the restart.
        bob = await arrive(again.port, "bob")
        clients.append(bob)
        bob.send("j")
        await bob.wait_for("Take your seat back at table")
        bob.send(code)
        bob.send(ENTER)
        await bob.wait_for("Deal 1 of")
        await bob.wait_until(lambda: all(w in bob.text for w in hand_words(game, 1)))
        players = {0: alice, 1: bob}
        await players[game.actor].wait_for("Your turn")
        # ...and the game goes on from there, still kept.
        await move(home, players)
        assert kept(home).game.history[:len(game.history)] == game.history

        listed = subprocess.run(
            [sys.executable, "-m", "tui", "serve", "--list-tables"], capture_output=True,
            text=True, env=dict(os.environ, RUMMY_HOME=str(home), PYTHONPATH=str(ROOT)),
            timeout=60, check=True).stdout
        assert "alice (key), bob (rejoin code)" in listed and "cannot be loaded" in listed
    finally:
        for client in clients:
            client.abort()
        await serve.stop()
        if again is not None:
            await again.stop()
