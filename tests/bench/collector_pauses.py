"""The garbage collector's pauses while a bench runs, by generation, for the benches that
print them (`bench_bots.py --gc`, `bench_table.py`): a full collection walks every object
the interpreter tracks and holds every thread meanwhile."""

from __future__ import annotations

import gc
import time
from typing import Any


class CollectorPauses:
    """Wall seconds of every collection made inside the `with` block, by generation."""

    def __init__(self) -> None:
        self.by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0

    def _watch(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.by_generation[info["generation"]].append(time.perf_counter() - self._started)

    def __enter__(self) -> CollectorPauses:
        gc.callbacks.append(self._watch)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._watch)
