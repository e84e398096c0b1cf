"""How much thinking a bot may do for one decision: CPU seconds, a count of steps, or both.

A searching bot asks `more()` before every unit of work (one imagined deal played out, one
exact re-evaluation) and stops the moment it says no, so the budget is a cap, not a wish:
a decision overruns it by at most one unit.  Time is the CPU time of the calling thread
(`time.thread_time`), so a bot running in a worker beside a busy UI, or on a machine other
programs share, gets the thinking it was promised and no more.

A *step* budget counts units of work instead of seconds: the same view and seed then give
the same decision on any machine, at any load, which is what tests need (no test may
depend on how fast the machine is today).  With both set, the steps decide and the
seconds are only a safety cap (the hint: a fixed amount of thought, never a long wait).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

clock = time.thread_time if hasattr(time, "thread_time") else time.process_time


@dataclass
class Budget:
    """At most `seconds` of CPU and at most `steps` units of work (None: no limit of that
    kind) for one decision."""

    seconds: float | None
    steps: int | None = None
    used: int = 0
    _started: float = field(default=0.0, repr=False)

    def start(self) -> Budget:
        """Begin a decision: nothing used yet."""
        self.used = 0
        self._started = clock()
        return self

    def more(self) -> bool:
        """Whether another unit of work fits; counts it if so."""
        if self.steps is not None and self.used >= self.steps:
            return False
        if self.seconds is not None and clock() - self._started >= self.seconds:
            return False
        self.used += 1
        return True

    def fits(self, cost: float) -> bool:
        """Whether work expected to take `cost` CPU seconds still fits in the time."""
        return self.seconds is None or self.spent() + cost <= self.seconds

    def spent(self) -> float:
        """CPU seconds since `start`."""
        return clock() - self._started
