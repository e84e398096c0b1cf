"""Strength of the bot levels: mirrored pairings over seeded deals, printed (not asserted).

    python tests/bench/strength.py --games 500            # every pairing, both games
    python tests/bench/strength.py --rules three_thirteen --pairs hard:medium --games 200
    python tests/bench/strength.py --rules three_thirteen --pairs expert:hard --players 2 \
        --games 40 --jobs 1 --times        # with decision-time figures per level

A *pairing* puts two levels at a table (4 players unless `--players`), alternating seats
(A B A B).
Every deal (seed) is played twice, the second time with the levels swapped (B A B A), so
both levels play the same hands from the same seats and luck of the deal cancels out.
`--games` counts games, so 500 games are 250 mirrored deals.  For each deal the margin is
B's mean score per game minus A's (positive: A, the first level named, scored less); the
table shows both levels' mean score per game, the mean margin and its standard error over
the deals.  Deals are shared out between `--jobs` processes.  With `--times`, every
decision of each level is timed: CPU time of the deciding thread (what a bot's budget
caps) and wall-clock time, as median, 95th percentile and maximum, and the bot's own
work: each decision's CPU less the garbage collections that landed in it (a full
collection walks the whole process's heap, whoever allocated it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tui.bots import make_bot  # noqa: E402
from tui.bots.arena import PairingResult, run_pairing  # noqa: E402
from tui.engine.ruleset.loader import load_ruleset  # noqa: E402

GAMES = ("three_thirteen", "contract_rummy")
PAIRS = ("medium:easy", "hard:medium", "expert:hard")


def _chunk(task: tuple) -> PairingResult:
    key, a, b, first, deals, seed, players, budget, timed = task

    def make(level: str, bot_seed: int):
        bot = make_bot(level, bot_seed)
        if budget is not None and hasattr(bot, "budget"):
            bot.budget = budget
        return bot

    return run_pairing(load_ruleset(key), a, b, deals, seed=seed, players=players,
                       first_deal=first, make=make, timed=timed)


def measure(key: str, a: str, b: str, games: int, seed: int, players: int, jobs: int,
            budget: float | None, timed: bool = False) -> PairingResult:
    deals = max(1, games // 2)
    per = max(1, -(-deals // (jobs * 4)))
    tasks = [(key, a, b, first, min(per, deals - first), seed, players, budget, timed)
             for first in range(0, deals, per)]
    total = PairingResult(key, a, b, players, 0)
    started = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for part in pool.map(_chunk, tasks):
                total.merge(part)
    else:
        for task in tasks:
            total.merge(_chunk(task))
    total.seconds = time.perf_counter() - started
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing (even)")
    parser.add_argument("--rules", action="append", help="ruleset key (repeatable)")
    parser.add_argument("--pairs", action="append", help="A:B, e.g. hard:medium (repeatable)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--budget", type=float, default=None,
                        help="CPU seconds per decision for the bot that searches (expert)")
    parser.add_argument("--times", action="store_true",
                        help="time every decision (CPU and wall) and print the figures")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for key in args.rules or GAMES:
        for pair in args.pairs or PAIRS:
            a, b = pair.split(":")
            result = measure(key, a, b, args.games, args.seed, args.players, args.jobs,
                             args.budget, args.times)
            rows.append(result)
            if args.json:
                row = result.to_json()
                if args.times:
                    row["decision_seconds"] = {
                        level: {"cpu": _spread(result.cpu[level]),
                                "wall": _spread(result.wall[level]),
                                "own": _spread(own_work(result, level))}
                        for level in result.cpu}
                    row["cpu_seconds"] = {lv: [round(t, 5) for t in ts]
                                          for lv, ts in result.cpu.items()}
                    row["own_cpu_seconds"] = {lv: [round(t, 5) for t in own_work(result, lv)]
                                              for lv in result.cpu}
                row["seed"] = args.seed
                row["budget"] = args.budget
                row["deal_margins"] = [round(m, 3) for m in result.margins]
                print(json.dumps(row), flush=True)
            else:
                print(f"{key:<16} {a:>6} vs {b:<6} {result.games:>5} games  "
                      f"mean score/game {a} {result.a_mean:7.2f}  {b} {result.b_mean:7.2f}  "
                      f"margin {result.margin:+7.2f} ± {result.margin_stderr:.2f} (s.e.)  "
                      f"{a} win share {result.a_wins / result.games:.1%}  "
                      f"{result.seconds:.0f} s", flush=True)
                if args.times:
                    for level in (a, b):
                        cpu, wall = _spread(result.cpu[level]), _spread(result.wall[level])
                        own = _spread(own_work(result, level))
                        print(f"    {level:>6} {cpu['decisions']} decisions, CPU median "
                              f"{cpu['median']:.3f} p95 {cpu['p95']:.3f} max {cpu['max']:.3f} s;"
                              f" wall median {wall['median']:.3f} p95 {wall['p95']:.3f} "
                              f"max {wall['max']:.3f} s; own work p95 {own['p95']:.3f} "
                              f"max {own['max']:.3f} s", flush=True)
    return 0


def own_work(result: PairingResult, level: str) -> list[float]:
    """CPU seconds of each of a level's decisions, less the collections made in it."""
    return [cpu - gc for cpu, gc in zip(result.cpu[level], result.collector[level],
                                         strict=True)]


def _spread(times: list[float]) -> dict:
    """Median, 95th percentile and maximum of some decision times (seconds)."""
    ordered = sorted(times)
    n = len(ordered)
    if not n:
        return {"decisions": 0, "median": 0.0, "p95": 0.0, "max": 0.0}
    return {"decisions": n, "median": round(ordered[n // 2], 4),
            "p95": round(ordered[min(n - 1, int(0.95 * n))], 4),
            "max": round(ordered[-1], 4)}


if __name__ == "__main__":
    raise SystemExit(main())
