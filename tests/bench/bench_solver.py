"""Solver speed: time per hand (median, p90, p99, max) per scenario, and `rummy solve
--jsonl` throughput.  Prints figures; asserts nothing.

    python tests/bench/bench_solver.py [hands] [--warm]

Timings are CPU time per hand (the machine may be shared) and start from empty caches, as
in a fresh process; `--warm` runs every scenario twice and reports the second pass, where
the solver's per-suit tables are already filled.  The --jsonl figure is wall time.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
import timeit
from pathlib import Path

from tui.engine.cards import Card, build_shoe
from tui.engine.rules import Ruleset
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.solver.api import best_arrangement, find_contract, going_out
from tui.engine.solver.context import _CONTEXTS

ROOT = Path(__file__).resolve().parents[2]


def hands(rules: Ruleset, round_no: int, decks: int, jokers: int, size: int, count: int,
          seed: int, min_wilds: int = 0) -> list[list[Card]]:
    """Random hands; with `min_wilds`, at least that many wild cards in each."""
    rng = random.Random(seed)
    shoe = build_shoe(decks, jokers)
    wild = [c for c in shoe if rules.is_wild(c.rank, round_no)]
    plain = [c for c in shoe if not rules.is_wild(c.rank, round_no)]
    out = []
    for _ in range(count):
        k = rng.randint(min_wilds, min_wilds + 2) if min_wilds else 0
        hand = rng.sample(wild, k) + rng.sample(plain, size - k) if k else rng.sample(shoe, size)
        out.append(hand)
    return out


def timed(fn, batch: list[list[Card]]) -> list[float]:
    """CPU seconds per hand: on a shared machine wall time mostly measures the neighbours."""
    clock = time.process_time
    out = []
    for hand in batch:
        start = clock()
        fn(hand)
        out.append(clock() - start)
    return out


def report(label: str, seconds: list[float]) -> None:
    s = sorted(seconds)

    def q(f: float) -> float:
        return s[min(len(s) - 1, int(f * len(s)))] * 1e6

    print(f"{label:<44} {q(0.5):>9.0f} {q(0.9):>9.0f} {q(0.99):>9.0f} {s[-1] * 1e6:>10.0f}")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 3000
    warm = "--warm" in sys.argv
    tt = load_ruleset("three_thirteen")
    ttj = load_ruleset("three_thirteen_jokers")
    cr = load_ruleset("contract_rummy")
    scenarios = [
        ("Three Thirteen r11, 2 decks, 14 cards", tt, 11,
         hands(tt, 11, 2, 0, 14, count, 1), ("arrange", "go out")),
        ("Three Thirteen r1, 2 decks, 4 cards", tt, 1,
         hands(tt, 1, 2, 0, 4, count, 2), ("arrange", "go out")),
        ("Contract deal 5, 2 decks + 2 jokers, 13 cards", cr, 5,
         hands(cr, 5, 2, 2, 13, count, 3), ("arrange", "contract")),
        ("Jokers variant r11, 3-5 wilds, 14 cards", ttj, 11,
         hands(ttj, 11, 2, 4, 14, count, 4, min_wilds=3), ("arrange", "go out")),
    ]
    loop = min(timeit.repeat("for i in range(1000): pass", number=1000, repeat=5)) * 1000
    print(f"machine speed: an empty 1000-step Python loop takes {loop:.1f} us here "
          "(about 10 us on a current desktop)")
    print(f"{count} hands per scenario, CPU microseconds per hand"
          f"{' (second pass: caches warm)' if warm else ' (from empty caches)'}")
    print(f"{'scenario':<44} {'median':>9} {'p90':>9} {'p99':>9} {'max':>10}")
    for label, rules, round_no, batch, what in scenarios:
        jobs = {
            "arrange": lambda h, r=rules, n=round_no: best_arrangement(h, r, n),
            "go out": lambda h, r=rules, n=round_no: going_out(h, r, n),
            "contract": lambda h, r=rules, n=round_no: find_contract(h, r, n),
        }
        for job in what:
            if not warm:
                _CONTEXTS.clear()
            else:
                timed(jobs[job], batch)
            report(f"{label}: {job}", timed(jobs[job], batch))
    # the command line, 10,000 hands through --jsonl
    rng = random.Random(5)
    shoe = build_shoe(2, 0)
    text = "".join(" ".join(map(str, rng.sample(shoe, 14))) + "\n" for _ in range(10_000))
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "tui", "solve", "--rules", "three_thirteen", "--round", "11",
         "--jsonl"], input=text, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    lines = done.stdout.count("\n")
    print(f"rummy solve --jsonl: {lines} hands (Three Thirteen r11, 14 cards) in "
          f"{elapsed:.2f} s ({lines / elapsed:.0f} hands/s), exit {done.returncode}")


if __name__ == "__main__":
    main()
