"""`rummy stats`: your game statistics and latest games as plain-text tables."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--player", metavar="NAME",
                        help="count only this person's games (default: every person)")
    parser.add_argument("--games", type=int, default=10, metavar="N",
                        help="list the latest N games (default 10; 0: none)")
    parser.add_argument("--recent", type=int, default=20, metavar="N",
                        help="games in the recent-results chart (default 20)")
    parser.add_argument("--ascii", action="store_true", help="plain ASCII chart")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from tui.records.recorder import default_store
    from tui.records.report import format_stats
    from tui.records.stats import summarize
    from tui.records.store import RecordsUnavailable

    if args.games < 0 or args.recent < 0:
        print("rummy stats: --games and --recent must not be negative", file=sys.stderr)
        return 2
    store = default_store()
    try:
        summaries = store.summaries()
    except RecordsUnavailable as exc:
        print(f"rummy stats: {exc}", file=sys.stderr)
        return 1
    abandoned = store.abandoned_games()
    if args.player:
        abandoned = [g for g in abandoned if any(s.name == args.player for s in g.seats)]
    notice = store.pop_notice()
    if notice:
        print(f"rummy stats: {notice}", file=sys.stderr)
    stats = summarize(summaries, args.player, args.recent)
    if args.json:
        print(json.dumps(_as_json(stats) | {"abandoned": [_abandoned_json(g)
                                                           for g in abandoned]}))
        return 0
    print(format_stats(stats, summaries[:args.games], args.ascii, abandoned, args.games))
    return 0


def _abandoned_json(game) -> dict[Any, Any]:  # noqa: ANN001 - a records AbandonedSummary
    return {"game": game.id, "ruleset": game.ruleset_name,
            "players": [s.name for s in game.seats], "points": list(game.totals),
            "deal": game.deal, "abandoned_at": game.abandoned_at.isoformat()}


def _as_json(stats) -> dict[Any, Any]:  # noqa: ANN001 - a tui.records.stats.Stats
    def line(ln) -> dict[Any, Any]:  # noqa: ANN001
        return {"label": ln.label, "played": ln.played, "won": ln.won,
                "points": ln.points, "rounds": ln.rounds}

    def result(r) -> dict[Any, Any] | None:  # noqa: ANN001
        if r is None:
            return None
        return {"game": r.game_id, "ruleset": r.ruleset, "name": r.name, "total": r.total,
                "won": r.won, "margin": r.margin, "finished_at": r.finished_at.isoformat()}

    return {
        "games": stats.games,
        "player": stats.player,
        "overall": line(stats.overall),
        "by_ruleset": [line(ln) for ln in stats.by_ruleset],
        "by_level": [line(ln) for ln in stats.by_level],
        "best": result(stats.best),
        "worst": result(stats.worst),
        "recent": [result(r) for r in stats.recent],
    }
