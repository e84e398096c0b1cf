"""Python's cyclic garbage collector, tuned for a process hosting many players' apps.

Each Textual app holds tens of thousands of long-lived objects (widgets, styles, caches),
and every frame makes thousands of short-lived ones (strips, segments).  With Python's
default thresholds (a young collection every 700 new objects) much of that frame
garbage survives long enough to be promoted, so full collections come often - and a full
collection walks every object of every session in the process: measured in a worker
with 16 players during play, four full collections in 56 moves took 1.26 s, a third of
the worker's CPU, each one a pause of everyone's screens.

With a young generation of `YOUNG` objects a frame's garbage dies young, and the same
run made no full collection (the collector's share fell from 38% to 12%).  The objects
that exist once the worker has started (modules, classes, the ruleset catalogue) are
frozen: they live as long as the process, so no collection needs to walk them.  A
finished session's cycles are still collected as before.
"""

from __future__ import annotations

import gc

YOUNG = 20_000
"""New container objects between young collections (Python's default is 700)."""


def tune_collector() -> None:
    """Call once a worker has imported what it serves, before the first player."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
