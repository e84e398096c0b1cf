"""The `rummy` command.

Each subcommand lives in its own module under `tui.commands` and is imported only when
used, so `rummy rules` and `rummy solve` start fast and never import the UI.
A subcommand module provides `add_arguments(parser)` and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .terminal_text import safe_standard_streams

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "play": ("tui.commands.play", "open the card table (the default)"),
    "learn": ("tui.commands.learn", "a guided first deal, step by step"),
    "rules": ("tui.commands.rules", "list, show, check and create rulesets"),
    "solve": ("tui.commands.solve", "best arrangement of a hand into melds"),
    "simulate": ("tui.commands.simulate", "play games between computer players"),
    "serve": ("tui.commands.serve", "let friends play over SSH"),
    "replay": ("tui.commands.replay", "step through a recorded game"),
    "stats": ("tui.commands.stats", "print your game statistics"),
}


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummy",
        description="Rummy in the terminal: Three Thirteen, Contract Rummy and house rules.",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = next((a for a in argv if not a.startswith("-")), None)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        # Only the chosen subcommand's module is imported (keeps start-up fast).
        if name == wanted or (wanted is None and name == "play"):
            module = _load(module_name)
            if module is not None:
                module.add_arguments(sub)
                sub.set_defaults(_module=module)
    return parser


class _VersionAction(argparse.Action):
    """`--version`, the version looked up only when asked: reading the package metadata
    costs a tenth of a second, at every start of every command otherwise."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS,
                 help: str = "show the program's version number and exit") -> None:  # noqa: A002
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


def _version() -> str:
    """The installed distribution's version: one number, kept in pyproject.toml."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rummy-tui")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _load(module_name: str):  # noqa: ANN202 - returns a module or None
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *argv])
    module = getattr(args, "_module", None)
    if module is None:
        parser.error(f"'{args.command}' is not available in this build")
    try:
        # Whatever a command prints (ruleset names, players, paths) cannot drive the
        # terminal, and characters the terminal's encoding lacks are replaced.
        with safe_standard_streams():
            return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
