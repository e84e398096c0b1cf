"""Benchmark: what keeping a shared table on disk costs a move (`tui.service.kept_tables`).

Bots play whole games of a ruleset move by move, as the server's tables do; after each
change the table's log is told (`moved`), as `SharedTable` tells it before anyone is
shown the move.  Printed per move, for the same games played three ways:
- not kept (the baseline: the game and the bots alone),
- kept, `synchronous=NORMAL` (what `rummy serve` uses: a commit is a write to the WAL),
- kept, `synchronous=FULL` (every move flushed to the disk, for comparison):
the CPU the keeping adds (process time of `moved` alone), its wall time (p50, p99: FULL
waits on the disk), the write system calls and bytes (from /proc/self/io: `syscw`,
`wchar`; nothing else in this process writes while it runs) and the WAL pages written.

Run: `python tests/bench/bench_kept_tables.py [--games 3] [--rules three_thirteen]
[--players 3] [--folder DIR]` (DIR: where the kept files go, default a temporary folder
under /tmp; give a folder on the server's real disk to see its flush times).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tui.bots import make_bot  # noqa: E402
from tui.engine.game import Game  # noqa: E402
from tui.engine.ruleset import load_ruleset  # noqa: E402
from tui.service.kept_tables import KeptHeader, SqliteTables  # noqa: E402

PAGE = 1024 + 24  # a WAL frame: the page and its header


def io_counters() -> dict[str, int]:
    with open("/proc/self/io") as io:
        return {key: int(value) for key, value in (line.split(": ") for line in io)}


def play(rules_key: str, players: int, seed: int, store: SqliteTables | None,
         table_id: int) -> dict[str, float]:
    rules = load_ruleset(rules_key)
    names = [f"p{i}" for i in range(players)]
    game = Game(rules, names, seed)
    bots = [make_bot("medium", seed * 31 + seat) for seat in range(players)]
    seats = [{"person": n, "owner": f"key:{n}", "rejoin_code": None, "bot": None,
              "name": n} for n in names]
    log = None
    if store is not None:
        log = store.begin(table_id, KeptHeader(rules_key, "medium", "p0", time.time()),
                          game, seats, [])
    keep_cpu = 0.0
    walls: list[float] = []
    moves = 0
    io_before = io_counters()
    cpu_before = time.process_time()
    while game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
        else:
            seat = game.actor
            game.apply(bots[seat].choose(game.view(seat)))
            moves += 1
        if log is not None:
            cpu, wall = time.process_time(), time.perf_counter()
            log.moved(game)
            walls.append(time.perf_counter() - wall)
            keep_cpu += time.process_time() - cpu
    total_cpu = time.process_time() - cpu_before
    io_after = io_counters()
    wal = 0
    if log is not None and store is not None:
        wal_path = Path(f"{store.path_of(table_id)}-wal")
        wal = wal_path.stat().st_size if wal_path.exists() else 0
        log.close()
    return {"moves": moves, "changes": len(walls), "cpu": total_cpu, "keep_cpu": keep_cpu,
            "walls": walls, "syscw": io_after["syscw"] - io_before["syscw"],  # type: ignore[dict-item]
            "wchar": io_after["wchar"] - io_before["wchar"], "wal": wal}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rules", default="three_thirteen")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args()
    folder = Path(args.folder or tempfile.mkdtemp(prefix="bench-kept-"))
    print(f"{args.games} games of {args.rules} for {args.players} (medium bots); kept "
          f"files in {folder}")
    print(f"{'':>16} {'moves':>6} {'CPU ms/move':>11} {'keeping CPU':>11} {'wall p50':>9} "
          f"{'p99':>7} {'writes/change':>13} {'bytes/change':>12} {'WAL pages/change':>16}")
    base_cpu = None
    for mode in ("not kept", "kept NORMAL", "kept FULL"):
        store = None
        if mode != "not kept":
            store = SqliteTables(folder / mode.split()[1].lower(), mode.split()[1])
        rows = [play(args.rules, args.players, seed, store, seed + 1)
                for seed in range(args.games)]
        moves = sum(r["moves"] for r in rows)
        changes = sum(r["changes"] for r in rows) or 1
        cpu = sum(r["cpu"] for r in rows) / moves * 1000
        keep = sum(r["keep_cpu"] for r in rows) / changes * 1000
        walls = sorted(w for r in rows for w in r["walls"]) or [0.0]
        p99 = walls[min(len(walls) - 1, int(0.99 * len(walls)))]
        base_cpu = cpu if base_cpu is None else base_cpu
        print(f"{mode:>16} {moves:>6} {cpu:>11.3f} {keep:>9.3f}ms "
              f"{statistics.median(walls) * 1000:>7.3f}ms {p99 * 1000:>5.2f}ms "
              f"{sum(r['syscw'] for r in rows) / changes:>13.2f} "
              f"{sum(r['wchar'] for r in rows) / changes:>12.0f} "
              f"{sum(r['wal'] for r in rows) / PAGE / changes:>16.2f}")
    print("(a change is a move or a new deal: one row, one commit; WAL pages counted from "
          "the WAL file left at the end, which a checkpoint every 1000 pages resets, so "
          "it is a lower bound for long games)")


if __name__ == "__main__":
    main()
