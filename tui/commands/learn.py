"""`rummy learn [RULES]`: a guided first deal, step by step, at the real table.

Opens the app straight at the lesson (`q` then leaves to the main menu).  The lessons are
listed by `rummy learn --list`; without RULES the first game is Three Thirteen's lesson,
the shortest.
"""

from __future__ import annotations

import argparse
import sys

DEFAULT = "three_thirteen"  # the shortest lesson, and the first game to learn


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rules", nargs="?", default=DEFAULT, metavar="RULES",
                        help="the game to learn (default: %(default)s; --list shows them)")
    parser.add_argument("--list", action="store_true", help="list the lessons")


def run(args: argparse.Namespace) -> int:
    from tui.service.lessons import lesson_keys

    keys = lesson_keys()
    if args.list:
        print("\n".join(keys))
        return 0
    if args.rules not in keys:
        print(f"rummy learn: there is no lesson for {args.rules!r}; lessons: "
              f"{', '.join(keys)}", file=sys.stderr)
        return 2

    from tui.app.app import RummyApp
    from tui.app.collector import tune_collector
    from tui.app.environment import AppEnvironment

    tune_collector()
    env = AppEnvironment.local()
    env.lesson = args.rules
    app = RummyApp(env)
    app.run()
    return app.return_code or 0
