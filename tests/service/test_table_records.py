"""The finished game goes into the records away from the loop that plays it (the app's,
the game service's), once, and is not lost when the program ends right after."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from tui.engine.ruleset.loader import load_ruleset
from tui.records import RecordStore
from tui.service.interface import SeatSpec
from tui.service.table import Table


def bots_only(seed: int = 5) -> Table:
    return Table(load_ruleset("three_thirteen"),
                 [SeatSpec("Bot A", "random"), SeatSpec("Bot B", "random")], seed)


def play_to_the_end(table: Table) -> None:
    while table.game.phase != "game_over":
        if table.game.phase == "round_over":
            table.next_round()
        else:
            table.step_bot()


async def test_the_record_is_written_off_the_loop_and_handed_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    written_on: list[int] = []
    real_add = RecordStore.add

    def add(self: RecordStore, record: object) -> int:
        written_on.append(threading.get_ident())
        return real_add(self, record)  # type: ignore[arg-type]

    monkeypatch.setattr(RecordStore, "add", add)
    table = bots_only()
    recorded = asyncio.Event()
    told_on: list[int] = []

    def changed() -> None:
        if table.record_outcome is not None:
            told_on.append(threading.get_ident())
            recorded.set()

    table.subscribe(changed)
    play_to_the_end(table)
    assert table.record_outcome is None  # the last move did not wait for the disk
    await asyncio.wait_for(recorded.wait(), 30)
    loop_thread = threading.get_ident()
    assert len(written_on) == 1 and written_on[0] != loop_thread
    assert told_on == [loop_thread]  # the outcome came back to the loop
    assert table.record_outcome.record_id is not None
    table._changed()  # more changes after the end record nothing new
    assert RecordStore().count() == 1


def test_without_a_loop_the_record_is_written_at_once() -> None:
    table = bots_only()
    play_to_the_end(table)
    assert table.record_outcome is not None and table.record_outcome.record_id is not None
    assert RecordStore().count() == 1


def test_a_record_still_being_written_when_the_program_ends_is_kept(home: Path) -> None:
    """The program ends right after the last move; the write, made to wait until then,
    is finished before the process exits."""
    child = textwrap.dedent("""
        import asyncio, threading
        from tui.records import RecordStore
        from tui.engine.ruleset.loader import load_ruleset
        from tui.service.interface import SeatSpec
        from tui.service.table import Table

        real_add = RecordStore.add
        over = threading.Event()

        def add_after_the_end(self, record):
            if threading.current_thread() is not threading.main_thread():
                over.wait()  # written only once the program has done its last thing
            return real_add(self, record)

        RecordStore.add = add_after_the_end

        async def main():
            table = Table(load_ruleset("three_thirteen"),
                          [SeatSpec("A", "random"), SeatSpec("B", "random")], 5)
            while table.game.phase != "game_over":
                if table.game.phase == "round_over":
                    table.next_round()
                else:
                    table.step_bot()
            print("pending" if table.record_outcome is None else "written")

        asyncio.run(main())
        over.set()
    """)
    assert _run_child(child, home) == "pending"
    assert RecordStore().count() == 1


def half_played(seed: int = 4) -> Table:
    table = Table(load_ruleset("three_thirteen"), [SeatSpec("Ann"), SeatSpec("Bo", "easy")],
                  seed)
    for _ in range(6):
        seat = table.game.actor
        table.act(seat, table.view(seat).legal[0])
    return table


async def test_an_abandoned_game_is_written_off_the_loop_and_handed_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    written_on: list[int] = []
    real_add = RecordStore.add_abandoned
    release = threading.Event()

    def add_abandoned(self: RecordStore, game: object) -> int:
        written_on.append(threading.get_ident())
        release.wait(30)  # the disk is slow: the loop goes on meanwhile
        return real_add(self, game)  # type: ignore[arg-type]

    monkeypatch.setattr(RecordStore, "add_abandoned", add_abandoned)
    told: list[tuple[int, object]] = []
    recorded = asyncio.Event()

    def then(outcome: object) -> None:
        told.append((threading.get_ident(), outcome))
        recorded.set()

    written = half_played().abandon(then)
    assert written is not None and not told  # abandoning did not wait for the disk
    release.set()
    await asyncio.wait_for(recorded.wait(), 30)
    loop_thread = threading.get_ident()
    assert len(written_on) == 1 and written_on[0] != loop_thread
    [(told_on, outcome)] = told
    assert told_on == loop_thread and outcome == written.result()
    assert written.result().record_id is not None
    assert RecordStore().abandoned_count() == 1 and RecordStore().count() == 0


def test_an_abandoned_game_still_being_written_when_the_program_ends_is_kept(
        home: Path) -> None:
    child = textwrap.dedent("""
        import asyncio, threading
        from tui.records import RecordStore
        from tui.engine.ruleset.loader import load_ruleset
        from tui.service.interface import SeatSpec
        from tui.service.table import Table

        real_add = RecordStore.add_abandoned
        over = threading.Event()

        def add_after_the_end(self, game):
            over.wait()  # written only once the program has done its last thing
            return real_add(self, game)

        RecordStore.add_abandoned = add_after_the_end

        async def main():
            table = Table(load_ruleset("three_thirteen"),
                          [SeatSpec("A"), SeatSpec("B", "random")], 5)
            for _ in range(4):
                seat = table.game.actor
                table.act(seat, table.view(seat).legal[0])
            written = table.abandon()
            print("pending" if not written.done() else "written")

        asyncio.run(main())
        over.set()
    """)
    assert _run_child(child, home) == "pending"
    assert RecordStore().abandoned_count() == 1


def _run_child(program: str, home: Path) -> str:
    """Run `program` in a Python process of its own with `home` as the rummy home; what it
    printed (it must end well)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          cwd=root, env={**os.environ, "RUMMY_HOME": str(home)}, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
