"""Engine speed: whole games between random bots, per ruleset.  Prints figures.

    python tests/bench/bench_engine.py [games]

Times are CPU time per game (one core; the machine may be shared, and wall time would
mostly measure the neighbours).  The random bots go out or lay down whenever they can and
otherwise pick any legal move, so most of their rounds run until the stock is exhausted.
"""

from __future__ import annotations

import statistics
import sys
import time
import timeit

from tui.bots import make_bot
from tui.bots.arena import play_game
from tui.engine.ruleset.loader import load_ruleset


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    loop = min(timeit.repeat("for i in range(1000): pass", number=1000, repeat=5)) * 1000
    print(f"machine speed: an empty 1000-step Python loop takes {loop:.1f} us here "
          "(about 10 us on a current desktop)")
    print(f"{'ruleset':<24} {'players':>7} {'median CPU ms/game':>19} {'p90 ms':>8} {'actions':>8}")
    for key, players in [("three_thirteen", 4), ("three_thirteen", 2), ("contract_rummy", 4),
                         ("liverpool", 4), ("three_thirteen_jokers", 4)]:
        rules = load_ruleset(key)
        times, actions = [], []
        for seed in range(games):
            bots = [make_bot("random", seed * 10 + i) for i in range(players)]
            started = time.process_time()
            game = play_game(rules, bots, seed)
            times.append((time.process_time() - started) * 1000)
            actions.append(len(game.history))
        times.sort()
        print(f"{key:<24} {players:>7} {statistics.median(times):>19.1f} "
              f"{times[int(len(times) * 0.9)]:>8.1f} {statistics.median(actions):>8.0f}")


if __name__ == "__main__":
    main()
