"""Memory kept for each screen a player opens and closes in one session (#13, #17), with
and without our workarounds for Textual's two leaks.

    python tests/bench/bench_screen_memory.py [--rounds 3] [--warmup 1]

The app an SSH player gets from `rummy serve` (at the lobby: create a table, rules,
settings) and the local app (at the menu: new game, rules, records, settings) run
headless at 100x30.  After a warm-up, each screen is opened and closed `--rounds` times
over; then, per screen opened and closed, it prints the objects the collector still
tracks and the KiB still allocated (tracemalloc, from the end of the warm-up on),
over all rounds and over the last round alone, and what is still alive at the end of
the old footers' keys and of widget styles caches beyond the warm-up's.

"Textual as is" is the same app in the same run with the two workarounds switched off
(`tui.app.widgets.footer.Footer` sweeping its old keys, Textual #6666; the app emptying
`StylesCache.get_inner_outer`'s cache at each change of screen, Textual #6665).  Textual's
cache holds at most 1,024 widgets process-wide, so "as is" keeps less per screen once it
is full, while the footer's keys pile up for as long as the session lasts.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
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
    MENU_SCREENS,
    SIZE,
    cycle,
    live_objects,
    live_widgets,
    ssh_player_app,
)
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


async def measure(app: RummyApp, keys: tuple[str, ...], rounds: int,
                  warmup: int) -> dict[str, float]:
    StylesCache.get_inner_outer.cache_clear()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tracemalloc.start()  # before the warm-up: what it built and later replaced counts
        await cycle(pilot, keys, warmup)
        widgets_before = live_widgets()
        objects = [sum(live_objects().values())]
        kib = [tracemalloc.get_traced_memory()[0] / 1024]
        for _ in range(rounds):
            await cycle(pilot, keys, 1)
            objects.append(sum(live_objects().values()))
            kib.append(tracemalloc.get_traced_memory()[0] / 1024)
        tracemalloc.stop()
        kept = live_widgets() - widgets_before
    screens = rounds * len(keys)
    return {
        "objects": (objects[-1] - objects[0]) / screens,
        "objects_last": (objects[-1] - objects[-2]) / len(keys),
        "kib": (kib[-1] - kib[0]) / screens,
        "kib_last": (kib[-1] - kib[-2]) / len(keys),
        "footer_keys": kept["FooterKey"],
        "styles_caches": kept["StylesCache"],
        "screens": screens,
    }


async def run(rounds: int, warmup: int) -> None:
    lobby = Lobby(LobbyConfig(bot_delay=0.01, grace=30, summary_pause=0, seed=3))
    cases = (
        ("SSH player, over the lobby", lambda: ssh_player_app(lobby), LOBBY_SCREENS),
        ("local app, over the menu", lambda: RummyApp(AppEnvironment(player_name="tess")),
         MENU_SCREENS),
    )
    print(f"per screen opened and closed, after {warmup} warm-up round(s), {rounds} rounds")
    print(f"{'app':28} {'version':16} {'objects':>8} {'last round':>10} {'KiB':>7} "
          f"{'last round':>10} {'old keys':>8} {'styles caches':>13}")
    try:
        for name, make, keys in cases:
            results = {}
            for version in ("Textual as is", "with the fixes"):
                if version == "Textual as is":
                    with textual_as_is():
                        results[version] = await measure(make(), keys, rounds, warmup)
                else:
                    results[version] = await measure(make(), keys, rounds, warmup)
                r = results[version]
                print(f"{name:28} {version:16} {r['objects']:8.0f} {r['objects_last']:10.0f} "
                      f"{r['kib']:7.1f} {r['kib_last']:10.1f} {r['footer_keys']:8d} "
                      f"{r['styles_caches']:13d}", flush=True)
                gc.collect()
            base, fixed = results["Textual as is"], results["with the fixes"]
            ratio = base["kib"] / fixed["kib"] if fixed["kib"] > 0 else float("inf")
            print(f"{'':28} {'as is / fixed':16} {'':8} {'':10} {ratio:7.0f}x")
    finally:
        lobby.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds measured (3)")
    parser.add_argument("--warmup", type=int, default=1, help="rounds before measuring (1)")
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.warmup))


if __name__ == "__main__":
    main()
