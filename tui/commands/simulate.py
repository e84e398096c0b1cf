"""`rummy simulate`: bots play seeded games against each other; per-seat results."""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="three_thirteen", help="ruleset key or file")
    parser.add_argument("--players", type=int,
                        help="players (default: one per bot named, else 3 or the nearest "
                             "number the rules allow)")
    parser.add_argument("--bots", default=None,
                        help="comma-separated bot levels, one per seat (e.g. easy,medium), "
                             "or one level for every seat (default: random)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from tui.bots import LEVELS
    from tui.bots.arena import StuckGame, run_match
    from tui.engine.ruleset import RulesetError, load_ruleset

    levels = [b.strip() for b in (args.bots or "random").split(",") if b.strip()]
    unknown = [b for b in levels if b not in LEVELS]
    if unknown:
        print(f"rummy simulate: unknown bot level {unknown[0]!r}; choose from "
              f"{', '.join(LEVELS)}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("rummy simulate: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        rules = load_ruleset(args.rules)
    except RulesetError as exc:
        print(exc, file=sys.stderr)
        return 2
    # a table the rules allow: one seat per bot named, else 3 or the nearest allowed
    players = args.players or (len(levels) if len(levels) > 1 else
                               min(max(rules.players_min, 3), rules.players_max))
    if len(levels) == 1:
        levels = levels * players
    if len(levels) != players:
        print(f"rummy simulate: --bots names {len(levels)} bots for {players} players",
              file=sys.stderr)
        return 2
    if not rules.players_min <= players <= rules.players_max:
        print(f"rummy simulate: {rules.name} is for {rules.players_min}–{rules.players_max} "
              f"players, not {players}", file=sys.stderr)
        return 2
    try:
        result = run_match(rules, levels, args.games, args.seed)
    except StuckGame as exc:
        print(f"rummy simulate: a game did not end ({exc}); this is a bug, please report "
              "it with the ruleset and seed", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"{rules.name}: {args.games} games, {players} players, seats rotated "
          f"({result.seconds:.2f} s, {args.games / result.seconds:.1f} games/s)")
    print(f"{'seat':>4}  {'bot':<8} {'mean score':>11} {'± s.e.':>8} {'wins':>6}")
    for i, entry in enumerate(result.entries):
        print(f"{i:>4}  {entry.bot:<8} {entry.mean_score:>11.2f} {entry.stderr:>8.2f} "
              f"{entry.wins:>6}")
    return 0
