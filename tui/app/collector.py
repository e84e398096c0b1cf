"""Python's cyclic garbage collector, tuned for a process that hosts Textual apps.

Each Textual app holds tens of thousands of long-lived objects (widgets, styles, caches),
and every frame makes thousands of short-lived ones (strips, segments).  With Python's
default thresholds (a young collection every 700 new objects) much of that frame
garbage survives long enough to be promoted, so full collections come often - and a full
collection walks every object in the process, a pause of every screen it draws: measured
in an SSH worker with 16 players during play, four full collections in 56 moves took
1.26 s, a third of the worker's CPU; in `rummy play` (`tests/bench/bench_table.py
--collector default`: a whole 4-player game at each size, bots in every seat), 35 full
collections of up to 0.11 s.

With a young generation of `YOUNG` objects a frame's garbage dies young, and the same
runs made no full collection (the worker's collector share fell from 38% to 12%; in
`rummy play` the collector's time fell from 3.7 s to 1.3 s, and its collections of more
than the youngest objects from 35 full ones to 7 of the middle generation).  The
objects that exist once the process has started (modules, classes, the ruleset
catalogue) are frozen: they live as long as the process, so no collection needs to walk
them.  A closed screen's or a finished session's cycles are still collected as before.
"""

from __future__ import annotations

import gc

YOUNG = 20_000
"""New container objects between young collections (Python's default is 700)."""


def tune_collector() -> None:
    """Call once, before the process's first app starts.  The app's modules are loaded
    first, so they are frozen with the rest."""
    import tui.app.app  # noqa: F401

    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
