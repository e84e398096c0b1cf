"""What per-session colour depth costs: turning screen lines into escape codes with
Textual's own rendering (codes cached on shared style objects: the first session's depth
leaks to every other) against `tui.net.isolation.isolate_colours` (codes kept per depth).
Prints figures; asserts nothing.

    python tests/bench/bench_colour_codes.py [frames]

Each frame is 40 fresh lines of 30 styled segments from 60 styles (a busy table screen),
rendered once; the best of 5 rounds, both measured in this run (the machine may be shared).
"""

from __future__ import annotations

import random
import sys
import time

from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tui.net.isolation import isolate_colours


def frames(count: int) -> list[list[Strip]]:
    rng = random.Random(1)
    styles = [Style(color=f"#{rng.randrange(1 << 24):06x}",
                    bgcolor=f"#{rng.randrange(1 << 24):06x}", bold=rng.random() < 0.3)
              for _ in range(60)]
    return [[Strip([Segment("abcd", rng.choice(styles)) for _ in range(30)])
             for _ in range(40)] for _ in range(count)]


def best_of(work: list[list[Strip]], console: Console, rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for frame in work:
            for line in frame:
                line._render_cache = None  # fresh lines, as a changed screen has
                line.render(console)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    work = frames(count)
    with open("/dev/null", "w") as sink:
        console = Console(file=sink)
        console._color_system = ColorSystem.TRUECOLOR
        shared = best_of(work, console)
        isolate_colours()
        per_depth = best_of(work, console)
    print(f"{count} frames of 40 lines: Textual's shared cache {shared / count * 1e3:.2f} ms "
          f"per frame, per-depth codes {per_depth / count * 1e3:.2f} ms per frame "
          f"(ratio {per_depth / shared:.2f})")


if __name__ == "__main__":
    main()
