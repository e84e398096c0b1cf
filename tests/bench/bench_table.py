"""The table screen's cost per move, against the floor of a plain Textual screen.

    python tests/bench/bench_table.py [--rules three_thirteen] [--games 1] [--profile]
                                      [--collector tuned|default]

A whole game is played at 80×24 and at 120×40 in a headless app: every seat is a bot, the
bench asks the bot to move (not timed), then times the move itself and everything the
screen does about it until it has been drawn (process CPU time, all threads: the engine's
move, the view, the screen's presenter and widgets, layout, rendering, the autosave).
The floor is a plain Textual screen of the same size whose only work per "move" is to
change the text of three panes, timed the same way in the same run.  The goal (#14) is a
median at most 2x the floor and a p90 at most 3x.

`--profile` runs the 120×40 game under cProfile and prints where the time goes.

The garbage collector is tuned as `rummy play` tunes it (`tui.app.collector`), or left at
Python's defaults with `--collector default`; its collections over the whole run are
printed at the end (a full one walks every object and holds every thread, the screen's
included).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import tempfile
import time
import timeit
from pathlib import Path

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from tui.app.app import RummyApp
from tui.app.collector import tune_collector
from tui.app.environment import AppEnvironment
from tui.app.screens.summary import GameOverScreen, RoundSummaryScreen
from tui.app.screens.table import TableScreen
from tui.app.settings import Settings, SettingsStore
from tui.collector_pauses import CollectorPauses
from tui.engine.ruleset.loader import load_ruleset
from tui.service.table import SeatSpec, Table

SIZES = ((80, 24), (120, 40))
SETTLE = 0.04  # wall seconds after a move for the screen to draw it (CPU is what is timed)
LEVELS = ("medium", "easy", "medium", "easy")


class FloorApp(App[None]):
    """Three panes of text and nothing else: the least a screen can do per move."""

    CSS = "Static { border: round white; height: 1fr; width: 1fr; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("top", id="a")
            with Horizontal():
                yield Static("left", id="b")
                yield Static("right", id="c")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


async def floor_costs(size: tuple[int, int], moves: int) -> list[float]:
    app = FloorApp()
    costs = []
    async with app.run_test(size=size) as pilot:
        panes = [app.query_one(f"#{name}", Static) for name in "abc"]
        await pilot.pause(SETTLE)
        for move in range(moves):
            started = time.process_time()
            for i, pane in enumerate(panes):
                pane.update(f"move {move} pane {i} " + "card " * (move % 7))
            await pilot.pause(SETTLE)
            costs.append((time.process_time() - started) * 1000)
    return costs


async def table_costs(size: tuple[int, int], rules_key: str, seed: int,
                      home: Path) -> list[float]:
    rules = load_ruleset(rules_key)
    players = max(rules.players_min, min(4, rules.players_max))
    seats = [SeatSpec(f"P{i}", LEVELS[i % len(LEVELS)]) for i in range(players)]
    table = Table(rules, seats, seed=seed, record=False)
    store = SettingsStore(home / "settings.json")
    store.save(Settings(name="P0", bot_speed="instant"))
    env = AppEnvironment(settings_store=store, save_path=home / "current_game.json",
                         table=table, seat=0, drive_bots=False)
    app = RummyApp(env)
    costs = []
    async with app.run_test(size=size) as pilot:
        while not isinstance(app.screen, TableScreen):
            await pilot.pause(0.01)
        await pilot.pause(SETTLE)
        while True:
            phase = table.view(0).phase
            if phase == "game_over":
                while not isinstance(app.screen, GameOverScreen):
                    await pilot.pause(0.01)
                await pilot.pause(SETTLE)
                break
            if phase == "round_over":  # the summary shows; Enter deals the next deal
                while not isinstance(app.screen, RoundSummaryScreen):
                    await pilot.pause(0.01)
                await pilot.pause(SETTLE)
                await pilot.press("enter")
                while not isinstance(app.screen, TableScreen):
                    await pilot.pause(0.01)
                await pilot.pause(SETTLE)
                continue
            choice = table.bot_choice()
            assert choice is not None
            seat, action = choice
            started = time.process_time()
            table.act(seat, action)
            await pilot.pause(SETTLE)
            costs.append((time.process_time() - started) * 1000)
    return costs


async def run(rules_key: str, games: int, home: Path) -> None:
    loop = min(timeit.repeat("for i in range(1000): pass", number=1000, repeat=5)) * 1000
    print(f"machine speed: an empty 1000-step Python loop takes {loop:.1f} us here "
          "(about 10 us on a current desktop)")
    print(f"{rules_key}, {games} game(s) per size, every seat a bot; CPU ms per move")
    print(f"{'size':>7} {'moves':>6} {'table med':>10} {'p90':>7} {'floor med':>10} "
          f"{'p90':>7} {'ratio med':>10} {'p90':>6}")
    for width, height in SIZES:
        table: list[float] = []
        for game in range(games):
            table += await table_costs((width, height), rules_key, 11 + game, home)
        floor = await floor_costs((width, height), min(len(table), 300))
        t_med, t_p90 = statistics.median(table), percentile(table, 0.9)
        f_med, f_p90 = statistics.median(floor), percentile(floor, 0.9)
        print(f"{width}x{height:<4} {len(table):>6} {t_med:>10.1f} {t_p90:>7.1f} "
              f"{f_med:>10.1f} {f_p90:>7.1f} {t_med / f_med:>9.1f}x {t_p90 / f_p90:>5.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="three_thirteen")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--collector", choices=("tuned", "default"), default="tuned",
                        help="the garbage collector as `rummy play` tunes it, or Python's")
    args = parser.parse_args()
    if args.collector == "tuned":
        tune_collector()
    with CollectorPauses() as pauses, tempfile.TemporaryDirectory() as home:
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            asyncio.run(table_costs(SIZES[1], args.rules, 11, Path(home)))
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
            return
        asyncio.run(run(args.rules, args.games, Path(home)))
    print(f"collector ({args.collector}): " + "; ".join(
        f"generation {g}: {len(times)} collections, {sum(times):.2f} s, longest "
        f"{max(times, default=0) * 1000:.0f} ms" for g, times in pauses.by_generation.items()))


if __name__ == "__main__":
    main()
