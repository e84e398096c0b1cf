"""Benchmark: what a move costs the screens of one table drawn in one process.

    PYTHONPATH=. python tests/bench/bench_table_screens.py [--moves 60] [--rounds 2]

Over SSH one worker draws every screen at a table (`tests/bench/bench_ssh_tables.py`
measures it end to end); this runs the same four screens (80×24, headless, a table of
four people) in this process without SSH, so a change to the drawing can be measured in
seconds.  The moves (a draw or a discard of the player to move) are played on the table
service itself; timed is the process CPU (all threads) from each move until every screen
shows it.  The baseline, in the same run: the same moves with one screen at the table.
Printed: CPU ms a move with four screens, with one, and the ratio of the four to four
times one (below 1: the screens share work).  One screen also reuses its own earlier
lines (a log line seen a move ago, a key bar seen before), so the ratio is an upper bound
on what four screens cost against four that shared nothing; to judge a drawing change,
run this on the commit before and after, alternately, and compare the four-screen figure.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tui.app.app import RummyApp  # noqa: E402
from tui.app.collector import tune_collector  # noqa: E402
from tui.app.environment import AppEnvironment  # noqa: E402
from tui.app.screens.table import TableScreen  # noqa: E402
from tui.engine.actions import Discard, DrawStock  # noqa: E402
from tui.engine.ruleset.loader import load_ruleset  # noqa: E402
from tui.service.table import SeatSpec, Table  # noqa: E402

SEATS = 4


def _shown(apps: list[RummyApp], table: Table) -> bool:
    moves = len(table.game.log)
    return all(isinstance(app.screen, TableScreen) and app.screen.caught_up
               and app.screen._view is not None and len(app.screen._view.log) == moves
               for app in apps)


async def _settle(apps: list[RummyApp], table: Table) -> None:
    while not _shown(apps, table):
        await asyncio.sleep(0.002)
    await asyncio.sleep(0.03)  # the frame after the last view arrived


def _move(table: Table) -> None:
    """The player to move draws from the stock, or discards their first card."""
    seat = table.game.actor
    view = table.view(seat)
    draw = next((a for a in view.legal if isinstance(a, DrawStock)), None)
    table.act(seat, draw or next(a for a in view.legal if isinstance(a, Discard)))


async def cpu_per_move(screens: int, moves: int, seed: int = 5) -> float:
    table = Table(load_ruleset("three_thirteen"),
                  [SeatSpec(f"P{i}") for i in range(SEATS)], seed=seed)
    apps = [RummyApp(AppEnvironment(table=table, seat=i, drive_bots=False))
            for i in range(screens)]
    async with AsyncExitStack() as stack:
        for app in apps:
            await stack.enter_async_context(app.run_test(size=(80, 24)))
        await _settle(apps, table)
        await asyncio.sleep(0.3)
        spent = 0.0
        for _ in range(moves):
            start = time.process_time()
            _move(table)
            await _settle(apps, table)
            spent += time.process_time() - start
    return 1000 * spent / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    tune_collector()
    fours, ones = [], []
    for _ in range(args.rounds):  # alternating, so both see the same load
        fours.append(asyncio.run(cpu_per_move(SEATS, args.moves)))
        ones.append(asyncio.run(cpu_per_move(1, args.moves)))
    four, one = statistics.median(fours), statistics.median(ones)
    print(f"{args.moves} moves at a table of {SEATS}, 80x24; CPU ms a move (median of "
          f"{args.rounds} rounds)")
    print(f"{SEATS} screens: {four:.1f} ms   1 screen: {one:.1f} ms   "
          f"{SEATS} screens / ({SEATS} x 1): {four / (SEATS * one):.2f}")


if __name__ == "__main__":
    main()
