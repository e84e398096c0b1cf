"""`rummy play`: open the card table.

Plain `rummy` (or `rummy play` with no options) opens the main menu.  With `--rules`,
`--players`, `--bots` or `--seed` the game starts at once at the table.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", metavar="R",
                        help="ruleset key or YAML file (see `rummy rules list`)")
    parser.add_argument("--players", type=int, metavar="N", help="number of players, you included")
    parser.add_argument("--bots", metavar="LIST",
                        help="levels of the opponents, comma separated (e.g. easy,hard,expert); "
                             "the last level is repeated for the remaining seats")
    parser.add_argument("--seed", type=int, metavar="S", help="seed for a repeatable deal")


def _parse_bots(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    return tuple(part.strip().lower() for part in text.split(",") if part.strip())


def check_request(args: argparse.Namespace) -> str | None:
    """Why the options cannot start a game (a located message), or None."""
    from tui.bots import LEVELS

    for level in _parse_bots(args.bots):
        if level not in LEVELS:
            return f"--bots: unknown level {level!r}; choose from {', '.join(LEVELS)}"
    if args.rules is None:
        return None
    from tui.engine.ruleset import RulesetError, load_ruleset

    try:
        rules = load_ruleset(args.rules)
    except RulesetError as exc:
        return f"--rules {args.rules}: {exc}"
    except (FileNotFoundError, OSError, ValueError) as exc:
        return f"--rules {args.rules}: {exc}"
    if args.players is not None and not rules.players_min <= args.players <= rules.players_max:
        return (f"--players {args.players}: {rules.name} is for "
                f"{rules.players_min}–{rules.players_max} players")
    return None


def run(args: argparse.Namespace) -> int:
    import sys

    from tui.app.environment import AppEnvironment, GameRequest

    wants_game = any(getattr(args, k, None) is not None for k in ("rules", "players", "bots",
                                                                   "seed"))
    request = None
    if wants_game:
        if args.rules is None:
            args.rules = "three_thirteen"
        problem = check_request(args)
        if problem:
            print(f"rummy play: {problem}", file=sys.stderr)
            return 2
        request = GameRequest(args.rules, args.players, _parse_bots(args.bots), args.seed)

    from tui.app.terminal_caps import local_terminal

    terminal = local_terminal()
    if terminal is not None and not terminal.full_screen:
        print(terminal.refusal, file=sys.stderr)
        return 1

    from tui.app.app import RummyApp
    from tui.app.collector import tune_collector

    tune_collector()
    app = RummyApp(AppEnvironment.local(request))
    app.run()
    # Textual sets 1 when the app crashed (it has printed the traceback): a script or
    # shell running `rummy play` must see that, not a clean exit.
    return app.return_code or 0
