"""How Three Thirteen deals between expert and hard end, against what expert's race expects.

    python tests/bench/race_diagnostics.py --deals 12 --seed 5015
    python tests/bench/race_diagnostics.py --deals 10 --seed 5016 --players 4

Plays mirrored games of `expert` against `hard` (as `strength.py` does) and prints two
things, not asserted:

* **outcomes**, per level: how often it went out, how often with the card the player
  before had just thrown, and what it held when another went out (mean points, with their
  standard error), and the margin a game;
* **calibration** of the race (`judgement.race_odds`): at every discard of expert's
  before anyone is out, the chance the race gives that an opponent goes out before this
  seat draws again (`ends[0]`, from the learnt pace of the deal, the turns each opponent
  has had and the cards it took), against how often that happened, in bins of the chance
  and by hand size.  The going-out reading of the next player's hand that expert adds
  for its chosen card is not in it.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tui.bots import make_bot  # noqa: E402
from tui.bots.expert import ExpertBot  # noqa: E402
from tui.bots.judgement import race_odds  # noqa: E402
from tui.bots.memory import read_knowledge  # noqa: E402
from tui.bots.tactics import evaluator_for  # noqa: E402
from tui.engine.game import Game  # noqa: E402
from tui.engine.ruleset.loader import load_ruleset  # noqa: E402
from tui.engine.view import SeatView  # noqa: E402

BINS = 10  # bins of 0.05 for the chance, the last one open


@dataclass
class Tally:
    deals: int = 0
    out: int = 0
    out_on_discard: int = 0
    caught: list[int] = field(default_factory=list)


def expected_end(bot: ExpertBot, view: SeatView) -> float:
    """The race's chance that an opponent goes out before `view`'s seat draws again."""
    ev = evaluator_for(view)
    odds = race_odds(view, ev, read_knowledge(view).taken, 2, bot.credit_weight, bot.pace,
                     bot.took_pace)
    return odds.ends[0]


def play(seed: int, deals: int, players: int) -> tuple[dict[str, Tally], list[float],
                                                       list[tuple[int, float, bool]]]:
    rules = load_ruleset("three_thirteen")
    tallies: dict[str, Tally] = defaultdict(Tally)
    margins: list[float] = []
    chances: list[tuple[int, float, bool]] = []  # hand size, chance, did it end
    for k in range(deals):
        deal_seed = seed * 1_000_003 + k
        margin = 0.0
        for flip in (0, 1):
            levels = ["expert" if (s + flip) % 2 == 0 else "hard" for s in range(players)]
            bots = [make_bot(level, deal_seed * 31 + flip * 7 + s)
                    for s, level in enumerate(levels)]
            game = Game(rules, [f"p{s}" for s in range(players)], deal_seed)
            took: dict[int, bool] = {}  # seat: its last draw was the top discard
            waiting: dict[int, tuple[int, float]] = {}  # seat: its chance, not yet settled
            while True:
                deal = game.round
                if game.phase in ("round_over", "game_over"):
                    for size, chance in waiting.values():
                        chances.append((size, chance, True))
                    waiting.clear()
                    for seat, level in enumerate(levels):
                        tally = tallies[level]
                        tally.deals += 1
                        if seat == deal.went_out:
                            tally.out += 1
                            tally.out_on_discard += took.get(seat, False)
                        else:
                            tally.caught.append(game.scores[-1][seat])
                    took.clear()
                    if game.phase == "game_over":
                        break
                    game.next_round()
                    continue
                seat = game.actor
                view = game.view(seat)
                bot = bots[seat]
                action = bot.choose(view)
                nobody_out = deal.went_out < 0
                if action.kind in ("draw_stock", "take_discard"):
                    took[seat] = action.kind == "take_discard"
                    if seat in waiting and nobody_out:
                        size, chance = waiting.pop(seat)
                        chances.append((size, chance, False))
                elif (action.kind == "discard" and nobody_out and isinstance(bot, ExpertBot)
                      and len(view.discardable) > 1):
                    waiting[seat] = (len(view.hand), expected_end(bot, view))
                game.apply(action)
            expert = [t for s, t in enumerate(game.totals) if levels[s] == "expert"]
            hard = [t for s, t in enumerate(game.totals) if levels[s] == "hard"]
            margin += (statistics.mean(hard) - statistics.mean(expert)) / 2
        margins.append(margin)
    return tallies, margins, chances


def report(tallies: dict[str, Tally], margins: list[float],
           chances: list[tuple[int, float, bool]]) -> None:
    se = statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else math.nan
    print(f"{len(margins)} deals, {2 * len(margins)} games: expert's margin "
          f"{statistics.mean(margins):+.1f} ± {se:.1f} a game")
    for level in ("expert", "hard"):
        t = tallies[level]
        held = statistics.mean(t.caught) if t.caught else math.nan
        held_se = (statistics.stdev(t.caught) / math.sqrt(len(t.caught))
                   if len(t.caught) > 1 else math.nan)
        print(f"  {level:<6} went out in {t.out} of {t.deals} deals ({t.out / t.deals:.1%}), "
              f"{t.out_on_discard} of them with the card just thrown; held "
              f"{held:.2f} ± {held_se:.2f} points when another went out")
    if not chances:
        return
    print(f"the race's chance that an opponent goes out before expert draws again "
          f"({len(chances)} discards): predicted {statistics.mean(c for _, c, _ in chances):.3f}"
          f", happened {statistics.mean(e for _, _, e in chances):.3f}")
    bins: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for _, chance, ended in chances:
        bins[min(BINS - 1, int(chance * 20))].append((chance, ended))
    for b in sorted(bins):
        rows = bins[b]
        top = f"{(b + 1) / 20:.2f}" if b < BINS - 1 else "1   "
        print(f"  {b / 20:.2f}-{top}  {len(rows):5} discards  predicted "
              f"{statistics.mean(c for c, _ in rows):.3f}  happened "
              f"{statistics.mean(e for _, e in rows):.3f}")
    sizes: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for size, chance, ended in chances:
        sizes[size].append((chance, ended))
    print("  by cards in hand before the discard:")
    for size in sorted(sizes):
        rows = sizes[size]
        print(f"    {size:2}  {len(rows):5} discards  predicted "
              f"{statistics.mean(c for c, _ in rows):.3f}  happened "
              f"{statistics.mean(e for _, e in rows):.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12, help="mirrored deals (2 games each)")
    parser.add_argument("--seed", type=int, default=5015)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    report(*play(args.seed, args.deals, args.players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
