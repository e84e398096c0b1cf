"""Memory kept for each screen a player opens and closes in one session (#13, #17), with
and without our workarounds for Textual's two leaks.

    python tests/bench/bench_screen_memory.py [--rounds 3] [--warmup 2]

The app an SSH player gets from `rummy serve` (at the lobby: create a table, rules,
settings), run headless and played by a real SSH client on loopback (the server in this
process), and the local app (at the menu: new game, rules, records, settings), at
100x30.  After a warm-up, each screen is opened and closed `--rounds` times
over; then, per screen opened and closed, it prints the objects the collector still
tracks and the KiB still allocated (tracemalloc, from the end of the warm-up on),
over all rounds and over the last round alone, and what is still alive at the end of
the old footers' keys and of widget styles caches beyond the warm-up's.

Each case runs in a process of its own.  "Textual as is" is the same case in the same run
with the two workarounds switched off
(`tui.app.widgets.footer.Footer` sweeping its old keys, Textual #6666; the app emptying
`StylesCache.get_inner_outer`'s cache at each change of screen, Textual #6665).  Textual's
cache holds at most 1,024 widgets process-wide, so "as is" keeps less per screen once it
is full, while the footer's keys pile up for as long as the session lasts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "tests" / "support"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from screen_cycles import (  # noqa: E402
    LOBBY_SCREENS,
    LOBBY_SCREENS_SHOWING,
    MENU_SCREENS,
    SIZE,
    cycle,
    cycle_over_ssh,
    live_objects,
    live_widgets,
    ssh_player_app,
)
from ssh_room import arrive, open_room  # noqa: E402
from textual._styles_cache import StylesCache  # noqa: E402
from textual.widgets import Footer as TextualFooter  # noqa: E402, TID251 (the baseline)

import tui.app.app as app_module  # noqa: E402
from tui.app.app import RummyApp  # noqa: E402
from tui.app.environment import AppEnvironment  # noqa: E402
from tui.app.widgets.footer import Footer  # noqa: E402
from tui.service.lobby import Lobby, LobbyConfig  # noqa: E402


@contextmanager
def textual_as_is() -> Iterator[None]:
    """Both workarounds off: Textual's own footer rebuild, the cache never emptied."""
    ours, release = Footer.recompose, app_module.release_closed_widgets
    Footer.recompose = TextualFooter.recompose  # type: ignore[method-assign]
    app_module.release_closed_widgets = lambda: None
    try:
        yield
    finally:
        Footer.recompose = ours  # type: ignore[method-assign]
        app_module.release_closed_widgets = release


class Readings:
    """Objects and traced KiB after each round, and the widgets alive after the warm-up."""

    def __init__(self) -> None:
        self.widgets = live_widgets()
        self.objects: list[int] = []
        self.kib: list[float] = []
        self.take()

    def take(self) -> None:
        self.objects.append(sum(live_objects().values()))
        self.kib.append(tracemalloc.get_traced_memory()[0] / 1024)

    def per_screen(self, screens_a_round: int) -> dict[str, float]:
        kept = live_widgets() - self.widgets
        screens = (len(self.objects) - 1) * screens_a_round
        return {
            "objects": (self.objects[-1] - self.objects[0]) / screens,
            "objects_last": (self.objects[-1] - self.objects[-2]) / screens_a_round,
            "kib": (self.kib[-1] - self.kib[0]) / screens,
            "kib_last": (self.kib[-1] - self.kib[-2]) / screens_a_round,
            "footer_keys": kept["FooterKey"],
            "styles_caches": kept["StylesCache"],
        }


async def measure(app: RummyApp, keys: tuple[str, ...], rounds: int,
                  warmup: int) -> dict[str, float]:
    StylesCache.get_inner_outer.cache_clear()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tracemalloc.start()  # before the warm-up: what it built and later replaced counts
        await cycle(pilot, keys, warmup)
        readings = Readings()
        for _ in range(rounds):
            await cycle(pilot, keys, 1)
            await pilot.pause(0.1)  # the last screen closed is pruned in a task of its own
            readings.take()
        result = readings.per_screen(len(keys))
        tracemalloc.stop()
    return result


async def measure_over_ssh(rounds: int, warmup: int) -> dict[str, float]:
    """A real SSH player (loopback, in this process): the client's own record of what it
    received is emptied before each reading, so only the server's memory counts."""
    StylesCache.get_inner_outer.cache_clear()
    room = await open_room()
    try:
        client = await arrive(room.port, "alice", size=SIZE)
        tracemalloc.start()
        await cycle_over_ssh(client, "alice", warmup)
        await asyncio.sleep(0.5)
        client.output.clear()
        readings = Readings()
        for _ in range(rounds):
            await cycle_over_ssh(client, "alice", 1)
            await asyncio.sleep(0.5)  # output in flight, the closed screen's pruning
            client.output.clear()
            readings.take()
        result = readings.per_screen(len(LOBBY_SCREENS_SHOWING))
        tracemalloc.stop()
        await client.close()
    finally:
        await room.close()
    return result


CASES = ("SSH player's app, headless", "SSH player over SSH", "local app, over the menu")
VERSIONS = ("Textual as is", "with the fixes")


async def one(case: str, rounds: int, warmup: int) -> dict[str, float]:
    if case == "SSH player over SSH":
        return await measure_over_ssh(rounds, warmup)
    if case == "local app, over the menu":
        return await measure(RummyApp(AppEnvironment(player_name="tess")), MENU_SCREENS,
                             rounds, warmup)
    lobby = Lobby(LobbyConfig(bot_delay=0.01, grace=30, summary_pause=0, seed=3))
    try:
        return await measure(ssh_player_app(lobby), LOBBY_SCREENS, rounds, warmup)
    finally:
        lobby.close()


def run(rounds: int, warmup: int) -> None:
    """Each case and version in a process of its own, so none inherits another's memory."""
    print(f"per screen opened and closed, after {warmup} warm-up round(s), {rounds} rounds")
    print(f"{'app':28} {'version':16} {'objects':>8} {'last round':>10} {'KiB':>7} "
          f"{'last round':>10} {'old keys':>8} {'styles caches':>13}")
    home = tempfile.TemporaryDirectory()  # the players' folders: never the real ones
    for case in CASES:
        results = {}
        for version in VERSIONS:
            child = subprocess.run(
                [sys.executable, __file__, "--rounds", str(rounds), "--warmup", str(warmup),
                 "--one", case] + (["--as-is"] if version == "Textual as is" else []),
                capture_output=True, text=True, check=True,
                env=dict(os.environ, RUMMY_HOME=home.name))
            r = results[version] = json.loads(child.stdout.splitlines()[-1])
            print(f"{case:28} {version:16} {r['objects']:8.0f} {r['objects_last']:10.0f} "
                  f"{r['kib']:7.1f} {r['kib_last']:10.1f} {r['footer_keys']:8d} "
                  f"{r['styles_caches']:13d}", flush=True)
        base, fixed = (results[version] for version in VERSIONS)
        print(f"{'':28} {'fixed / as is':16} {fixed['objects'] / base['objects']:8.1%} "
              f"{'':10} {fixed['kib'] / base['kib']:7.1%}")
    home.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds measured (3)")
    parser.add_argument("--warmup", type=int, default=2, help="rounds before measuring (2)")
    parser.add_argument("--one", choices=CASES, help=argparse.SUPPRESS)
    parser.add_argument("--as-is", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is None:
        run(args.rounds, args.warmup)
        return
    if args.as_is:
        with textual_as_is():
            result = asyncio.run(one(args.one, args.rounds, args.warmup))
    else:
        result = asyncio.run(one(args.one, args.rounds, args.warmup))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
