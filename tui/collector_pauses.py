"""The garbage collector's pauses while some code runs, by generation: for the benches that
print them (`bench_bots.py --gc`, `bench_table.py`) and for the decision times of
`arena.TimedBot`, which tells a bot's own work from the collections that land in it.  A
full collection walks every object the interpreter tracks, whoever allocated it, and holds
every thread meanwhile."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


class CollectorPauses:
    """Seconds of every collection made inside the `with` block, by generation, on `clock`
    (wall time unless told; a thread's CPU clock to compare with its CPU time)."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._clock = clock
        self._started = 0.0

    def _watch(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = self._clock()
        else:
            self.by_generation[info["generation"]].append(self._clock() - self._started)

    def total(self) -> float:
        """Seconds of all the collections seen."""
        return sum(sum(times) for times in self.by_generation.values())

    def __enter__(self) -> CollectorPauses:
        gc.callbacks.append(self._watch)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._watch)
