"""Move latency per bot level, printed (not asserted).

    python tests/bench/bench_bots.py                 # 13-card Three Thirteen, 12-card contract
    python tests/bench/bench_bots.py --positions 40 --budget 0.4   # expert's budget
    python tests/bench/bench_bots.py --gc 2          # the garbage collector's share

Positions come from real play: medium bots play seeded games up to the deal with the
biggest hands (Three Thirteen round 11: 13 cards, 14 after the draw; Contract Rummy deals
5-7: 12 cards), and every decision of that deal with more than one legal move is kept.
Each level is then timed on the same positions, one core, and the median, 90th percentile
and worst CPU times (of the deciding thread, what `expert`'s budget caps) are printed;
`hard` does a fixed amount of work, `expert` searches until its budget is spent.  Also
printed: headless throughput of `rummy simulate` for 4-player Three Thirteen between
medium bots.

With `--gc N`, N whole 4-player Three Thirteen games of expert, hard, expert, hard are
played in this process instead, and the garbage collector's work in them is printed: its
full (generation 2) collections, their total and longest time, and one full collection
of what is left at the end.  A full collection walks every object the interpreter tracks,
so what the bots keep between decisions sets what each costs, and one lands inside
whichever decision (or, in the app, whichever frame) happens to be running.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tui.bots import make_bot  # noqa: E402
from tui.bots.arena import play_game, run_match  # noqa: E402
from tui.bots.budget import clock  # noqa: E402
from tui.collector_pauses import CollectorPauses  # noqa: E402
from tui.engine.game import Game  # noqa: E402
from tui.engine.ruleset.loader import load_ruleset  # noqa: E402
from tui.engine.view import SeatView  # noqa: E402


def positions(key: str, first_round: int, count: int, players: int = 4) -> list[SeatView]:
    """Views with a real choice, from deals `first_round` on of seeded medium games."""
    rules = load_ruleset(key)
    out: list[SeatView] = []
    seed = 0
    while len(out) < count:
        game = Game(rules, [f"m{i}" for i in range(players)], seed)
        bots = [make_bot("medium", seed * 10 + i) for i in range(players)]
        while game.phase != "game_over" and len(out) < count:
            if game.phase == "round_over":
                game.next_round()
                continue
            seat = game.actor
            view = game.view(seat)
            if game.round.number >= first_round and len(view.legal) > 1:
                out.append(view)
            game.apply(bots[seat].choose(view))
        seed += 1
    return out


def time_level(level: str, views: list[SeatView], budget: float | None) -> list[float]:
    times = []
    for i, view in enumerate(views):
        bot = make_bot(level, i)
        if budget is not None and hasattr(bot, "budget"):
            bot.budget = budget
        started = clock()
        bot.choose(view)
        times.append(clock() - started)
    return times


def report(label: str, times: list[float]) -> None:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    print(f"  {label:<22} median {statistics.median(times) * 1000:7.1f} ms   "
          f"p90 {p90 * 1000:7.1f} ms   max {max(times) * 1000:7.1f} ms   "
          f"({len(times)} moves)", flush=True)


def collections(games: int) -> None:
    """The full garbage collections of `games` 4-player expert/hard games (see above)."""
    rules = load_ruleset("three_thirteen")
    with CollectorPauses() as pauses:
        cpu = time.process_time()
        for g in range(games):
            bots = [make_bot(level, 10 * g + s)
                    for s, level in enumerate(("expert", "hard", "expert", "hard"))]
            play_game(rules, bots, 4112 * 1_000_003 + g)
    cpu = time.process_time() - cpu
    full = pauses.by_generation[2]
    last = time.perf_counter()
    gc.collect()
    last = time.perf_counter() - last
    print(f"three_thirteen, 4 players, expert/hard: {games} games, {cpu:.1f} s CPU; "
          f"{len(full)} full collections, {sum(full):.2f} s in all "
          f"({sum(full) / cpu:.0%}), longest {max(full, default=0) * 1000:.0f} ms; "
          f"one more at the end {last * 1000:.0f} ms "
          f"({len(gc.get_objects())} objects tracked)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--budget", type=float, default=None,
                        help="expert's CPU seconds per decision (default: its own default)")
    parser.add_argument("--games", type=int, default=20, help="games for the throughput run")
    parser.add_argument("--gc", type=int, default=0, metavar="N",
                        help="instead: the garbage collector's work over N whole games")
    args = parser.parse_args(argv)
    if args.gc < 0:
        parser.error(f"--gc {args.gc}: a number of games, 1 or more (0: the move times)")
    if args.gc:
        collections(args.gc)
        return 0
    for key, first in (("three_thirteen", 11), ("contract_rummy", 5)):
        views = positions(key, first, args.positions)
        sizes = sorted({len(v.hand) for v in views})
        print(f"{key}: hands of {sizes[0]}-{sizes[-1]} cards", flush=True)
        for level in ("easy", "medium", "hard", "expert"):
            report(level, time_level(level, views, args.budget if level == "expert" else None))
    rules = load_ruleset("three_thirteen")
    result = run_match(rules, ["medium"] * 4, args.games, seed=1)
    print(f"rummy simulate, three_thirteen, 4 medium bots: {args.games} games in "
          f"{result.seconds:.1f} s = {args.games / result.seconds:.2f} games/s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
