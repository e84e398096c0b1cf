"""Pool the JSON lines of several `strength.py --json` runs (chunks of seeds run apart,
on different cores or at different times) into one figure per pairing.

    python tests/bench/strength.py --rules three_thirteen --pairs expert:hard --players 2 \
        --games 10 --jobs 1 --times --json --seed 3 >> runs.jsonl      # one chunk
    python tests/bench/strength_pool.py runs.jsonl

A chunk's margins are per mirrored deal, so pooling is exact: the margin is the mean over
every deal of every chunk and its standard error is over those deals, as one long run
would give.  Chunks of one pairing must use different seeds (the same seed twice would be
the same deals counted twice: refused).  With `--times` in the chunks, the decision
times are pooled too (CPU of the deciding thread: median, 95th percentile, maximum), with
the bot's own work (each decision's CPU less the garbage collections that landed in it)
where the chunks recorded the collections.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path


def pool(lines: list[dict]) -> list[dict]:
    """One row per (rules, A, B, players), pooled over its chunks."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in lines:
        groups[(row["rules"], row["a"], row["b"], row["players"])].append(row)
    out = []
    for (rules, a, b, players), rows in groups.items():
        seeds = [r.get("seed") for r in rows]
        if len(set(seeds)) < len(seeds):
            raise ValueError(f"{rules} {a}:{b} {players}p: a seed appears twice {seeds}")
        margins = [m for r in rows for m in r["deal_margins"]]
        games = sum(r["games"] for r in rows)
        n = len(margins)
        mean = sum(margins) / n if n else 0.0
        se = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1) / n) if n > 1 else 0.0
        a_mean = sum(r["a_mean_score"] * r["games"] for r in rows) / games if games else 0.0
        b_mean = sum(r["b_mean_score"] * r["games"] for r in rows) / games if games else 0.0
        a_wins = sum((r["a_win_share"] or 0.0) * r["games"] for r in rows)
        row = {"rules": rules, "a": a, "b": b, "players": players, "chunks": len(rows),
               "seeds": sorted(s for s in seeds if s is not None), "games": games,
               "deals": n, "a_mean": a_mean, "b_mean": b_mean, "margin": mean,
               "stderr": se, "a_win_share": a_wins / games if games else 0.0}
        times = defaultdict(list)
        own = defaultdict(list)
        for r in rows:
            for pooled, key in ((times, "cpu_seconds"), (own, "own_cpu_seconds")):
                for level, ts in r.get(key, {}).items():
                    pooled[level].extend(ts)
        row["cpu"] = {level: spread(ts) for level, ts in times.items()}
        row["own"] = {level: spread(ts) for level, ts in own.items()
                      if len(ts) == len(times[level])}  # (only if every chunk has it)
        out.append(row)
    return out


def spread(times: list[float]) -> dict:
    ordered = sorted(times)
    n = len(ordered)
    if not n:
        return {"decisions": 0}
    return {"decisions": n, "median": ordered[n // 2],
            "p95": ordered[min(n - 1, int(0.95 * n))], "max": ordered[-1],
            "mean": sum(ordered) / n}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="JSON lines of strength.py runs")
    args = parser.parse_args(argv)
    lines = []
    for path in args.files:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if text.strip().startswith("{"):
                try:
                    lines.append(json.loads(text))
                except json.JSONDecodeError as exc:
                    print(f"{path}:{number}: not a JSON line ({exc})", file=sys.stderr)
                    return 2
    try:
        rows = pool(lines)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    except (KeyError, TypeError) as exc:  # a JSON line that is not strength.py's
        print(f"not a line of `strength.py --json`: no {exc}", file=sys.stderr)
        return 2
    for row in rows:
        print(f"{row['rules']:<16} {row['players']}p {row['a']:>6} vs {row['b']:<6} "
              f"{row['games']:>4} games ({row['deals']} deals, {row['chunks']} chunks)  "
              f"{row['a']} {row['a_mean']:.1f}  {row['b']} {row['b_mean']:.1f}  "
              f"margin {row['margin']:+.1f} ± {row['stderr']:.1f}  "
              f"({row['margin'] / row['stderr'] if row['stderr'] else 0:.1f} s.e.)  "
              f"{row['a']} win share {row['a_win_share']:.1%}")
        for level, t in row["cpu"].items():
            if t["decisions"]:
                print(f"    {level:>6} {t['decisions']} decisions, CPU median "
                      f"{t['median'] * 1000:.0f} ms, p95 {t['p95'] * 1000:.0f} ms, "
                      f"max {t['max'] * 1000:.0f} ms, mean {t['mean'] * 1000:.0f} ms")
                mine = row["own"].get(level)
                if mine:
                    print(f"    {'':>6} its own work (collections left out): p95 "
                          f"{mine['p95'] * 1000:.0f} ms, max {mine['max'] * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
