"""Where `expert`'s search loses its way: its imagined deals against the real ones.

    python tests/bench/expert_diagnostics.py --games 2 --seed 1        # 2-player Three Thirteen
    python tests/bench/expert_diagnostics.py --players 4 --phase play --min-cards 8

`hard` plays `hard` (the positions are the ones expert meets against hard).  At a sample
of the decisions expert would search it takes expert's options (hard's move first) and
plays each out, with common random numbers, in three sets of deals:

* **truth**: the opponents' real hands, the real stock cards in a random order (a
  yardstick only: no bot may see these);
* **model**: deals imagined by `opponents.OpponentModel` as expert uses it;
* **blind**: the same model with no reading of the last turn (its first weights only).

and prints, over the positions: the rank correlation of each set's option values with
the truth's (and of the truth's two halves with each other: the noise ceiling); the
points a decision gains over hard's move (measured on the truth) by playing the best
option of each set (argmax) or by expert's margin rule; and the log-likelihood ratio of
the true hands under the model's weights against a blind deal (positive: the model puts
more weight on the truth than blind dealing does).  Printed, not asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tui.bots import make_bot  # noqa: E402
from tui.bots.expert import (  # noqa: E402
    DECLARE_HORIZON,
    ExpertBot,
    Option,
    _final_turns_left,
    verdict,
)
from tui.bots.hard import HardBot  # noqa: E402
from tui.bots.memory import read_knowledge  # noqa: E402
from tui.bots.opponents import OpponentModel, World  # noqa: E402
from tui.bots.playout import Deal  # noqa: E402
from tui.bots.tactics import evaluator_for  # noqa: E402
from tui.engine.actions import TakeDiscard  # noqa: E402
from tui.engine.cards import Card  # noqa: E402
from tui.engine.game import Game  # noqa: E402
from tui.engine.ruleset.loader import load_ruleset  # noqa: E402
from tui.engine.view import SeatView  # noqa: E402


def option_values(view: SeatView, opts: list[Option], worlds: Sequence[World], pile,
                  ev) -> list[list[float]]:
    """Each option's score (own points less the others' mean) in each world."""
    players = len(view.players)
    down = [p.contract_down for p in view.players]
    out_seat = next((p.seat for p in view.players if p.went_out), -1)
    values: list[list[float]] = [[] for _ in opts]
    for world in worlds:
        for i, opt in enumerate(opts):
            deal = Deal.start(ev, world, pile, view.seat, down, view.table)
            if out_seat >= 0:
                deal.out = out_seat
                deal.final_left = _final_turns_left(view.seat, out_seat, players)
            opt.play(deal)
            deal.run(players * DECLARE_HORIZON)
            pts = deal.points()
            others = [p for s, p in enumerate(pts) if s != view.seat]
            values[i].append(pts[view.seat] - sum(others) / len(others))
    return values


def true_order(model: OpponentModel, game: Game) -> list[Card]:
    """The model's unseen cards in the order that deals every opponent its real hand."""
    pool = list(model.pool)
    head: list[Card] = []
    for seat in model.seats:
        known = Counter(c.face for c in model.known[seat])
        for card in game.round.hands[seat]:
            if known[card.face] > 0:
                known[card.face] -= 1
                continue
            head.append(pool.pop(next(i for i, c in enumerate(pool) if c.face == card.face)))
    return head + pool


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def stderr(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return float("nan")
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def spearman(a: Sequence[float], b: Sequence[float]) -> float | None:
    def ranks(v: Sequence[float]) -> list[int]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        out = [0] * len(v)
        for k, i in enumerate(order):
            out[i] = k
        return out
    if len(a) < 3:
        return None
    ra, rb = ranks(a), ranks(b)
    ma, mb = mean(ra), mean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den if den else None


def margin_rule(values: list[list[float]], z: float) -> int:
    """expert's rule on these values: the option (index) it would play."""
    best, best_mean = 0, 0.0
    for j in range(1, len(values)):
        diffs = [a - b for a, b in zip(values[j], values[0], strict=True)]
        m = mean(diffs)
        if m < -max(0.5, z * stderr(diffs)) and m < best_mean:
            best, best_mean = j, m
    return best


def sequential_rule(values: list[list[float]]) -> int:
    """expert's own rule, deal by deal: options dropped as `ExpertBot._prune` drops them
    (worse, or not trending better after `MIN_DEALS`), then `verdict`; the option
    (index) it would play."""
    opts = [Option(None, str(i), lambda deal: None) for i in range(len(values))]  # type: ignore[arg-type]
    deals = 0
    for k in range(len(values[0])):
        deals += 1
        for j in range(1, len(values)):
            if opts[j].alive:
                opts[j].diffs.append(values[j][k] - values[0][k])
        if not ExpertBot._prune(opts, deals):
            break
    best = verdict(opts, deals)
    return 0 if best is None else opts.index(best)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="three_thirteen")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--share", type=float, default=0.25, help="decisions sampled")
    parser.add_argument("--phase", choices=("any", "draw", "play"), default="any")
    parser.add_argument("--min-cards", type=int, default=0, help="cards kept, at least")
    parser.add_argument("--truth", type=int, default=80, help="true-hand deals per position")
    parser.add_argument("--imagined", type=int, default=40, help="imagined deals per position")
    args = parser.parse_args(argv)
    rules = load_ruleset(args.rules)
    rng = random.Random(args.seed)
    rows: dict[str, list[float]] = {}

    def add(key: str, value: float | None) -> None:
        if value is not None:
            rows.setdefault(key, []).append(value)

    for g in range(args.games):
        game = Game(rules, [f"p{i}" for i in range(args.players)], args.seed * 1000 + g)
        bots = [make_bot("hard", args.seed * 1000 + g * 7 + s) for s in range(args.players)]
        while game.phase != "game_over":
            if game.phase == "round_over":
                game.next_round()
                continue
            view = game.view(game.actor)
            if rng.random() < args.share and view.phase in ("draw", "play") and \
                    (args.phase == "any" or view.phase == args.phase) and \
                    len(view.hand) - (view.phase == "play") >= args.min_cards and \
                    len(view.legal) > 1:
                measure(view, game, args, rng, add)
            game.apply(bots[game.actor].choose(view))
    print(f"{args.rules}, {args.players} players, {args.games} games, seed {args.seed}: "
          f"{len(rows.get('positions', []))} positions")
    for key, values in rows.items():
        if key != "positions":
            print(f"  {key:<44} {mean(values):+8.3f} ± {stderr(values):.3f}  (n {len(values)})")
    return 0


def measure(view: SeatView, game: Game, args: argparse.Namespace, rng: random.Random,
            add) -> None:
    bot = ExpertBot(seed=1, budget=None, steps=0)
    policy = HardBot.decide(bot, view)
    act = policy.action
    if act.kind not in ("draw_stock", "take_discard", "discard") or \
            (isinstance(act, TakeDiscard) and act.depth > 0):
        return
    ev = evaluator_for(view)
    opts = bot._options(view, ev, act)
    if len(opts) < 2:
        return
    know = read_knowledge(view)
    reach = ev.params.run_min - 1
    model = OpponentModel(view, know, ev.params.wild_ranks, reach, ev)
    blind = OpponentModel(view, know, ev.params.wild_ranks, reach)
    world_rng = random.Random(rng.random())
    truth = []
    for _ in range(args.truth):
        stock = list(game.round.stock)
        world_rng.shuffle(stock)
        truth.append(World([list(h) for h in game.round.hands], stock))
    t = option_values(view, opts, truth, know.pile, ev)
    half = args.truth // 2
    tv = [mean(x) for x in t]
    add("positions", 1)
    add("rank corr, truth half ~ other half", spearman([mean(x[:half]) for x in t],
                                                     [mean(x[half:]) for x in t]))
    for name, imagined in (("model", model), ("blind", blind)):
        worlds = [imagined.imagine(world_rng) for _ in range(args.imagined)]
        v = option_values(view, opts, worlds, know.pile, ev)
        add(f"rank corr, {name} ~ truth", spearman([mean(x) for x in v], tv))
        pick = min(range(len(v)), key=lambda i: mean(v[i]))
        add(f"gain over hard, {name} argmax", tv[0] - tv[pick])
        for z in (1.0, 1.5, 2.0):
            add(f"gain over hard, {name} rule Z={z:g}", tv[0] - tv[margin_rule(v, z)])
        add(f"gain over hard, {name} expert's sequential rule",
            tv[0] - tv[sequential_rule(v)])
    pick = min(range(len(t)), key=lambda i: mean(t[i][:half]))
    add("gain over hard, truth argmax (half, scored on other)",
        mean(t[0][half:]) - mean(t[pick][half:]))
    if all(model.hidden[s] for s in model.seats):
        order = true_order(model, game)
        blind_orders = []
        for _ in range(200):
            o = list(model.pool)
            world_rng.shuffle(o)
            blind_orders.append(o)
        for name, weigh in (("first weights", model.likelihood),
                            ("with last turn", lambda o: model.likelihood(o)
                             * model.last_turn_fit(o))):
            ws = [weigh(o) for o in blind_orders]
            add(f"log-likelihood ratio of the truth, {name}",
                math.log(max(weigh(order), 1e-300) / max(mean(ws), 1e-300)))


if __name__ == "__main__":
    raise SystemExit(main())
