"""`rummy rules`: list, show, check and create rulesets; print their JSON Schema and the
Markdown reference generated from it.

Works without the UI (never imports textual) so it is quick in a terminal and in scripts.
A player's mistake - a bad file, a typo in a key - gives located messages and exit status
1, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TextIO

from ..engine.ruleset import (
    NewRulesetError,
    RulesetError,
    bundled_rulesets_dir,
    describe_differences,
    describe_rules,
    extended_ruleset,
    list_rulesets,
    load_ruleset,
    new_ruleset_file,
    ruleset_warnings,
    schema_json,
    standalone_yaml,
)
from ..paths import user_rulesets_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="rules_action", metavar="ACTION")
    actions.add_parser("list", help="list bundled and your own rulesets (the default)")
    show = actions.add_parser("show", help="print the rules of a ruleset as text")
    show.add_argument("ruleset", help="a ruleset key (e.g. three_thirteen) or a file path")
    show.add_argument(
        "--yaml",
        action="store_true",
        help="print every key as one self-contained YAML file instead",
    )
    show.add_argument(
        "--diff",
        action="store_true",
        help="print only how it differs from the ruleset it extends",
    )
    check = actions.add_parser("check", help="check ruleset files; exit 1 if any has errors")
    check.add_argument("files", nargs="+", metavar="FILE", help="ruleset files or keys")
    actions.add_parser("schema", help="print the JSON Schema of ruleset files")
    actions.add_parser(
        "reference",
        help="print the ruleset reference (every key, Markdown; docs/ruleset-reference.md)",
    )
    new = actions.add_parser("new", help="write a commented starter ruleset to edit")
    new.add_argument("name", help="the new ruleset's key (its file name without .yaml)")
    new.add_argument(
        "--from",
        dest="base",
        metavar="RULESET",
        help="start from this ruleset (key or path): the new file only states changes",
    )


def _write(text: str, stream: TextIO) -> None:
    """Write whole (`rummy` escapes control characters and unencodable ones on the way)."""
    stream.write(text)
    stream.flush()


def _fail(error: RulesetError) -> int:
    _write(str(error) + "\n", sys.stderr)
    return 1


def _list() -> int:
    infos = list_rulesets()
    width = max((len(info.key) for info in infos), default=10) + 2
    for origin, title, folder in (
        ("bundled", "Bundled rulesets", bundled_rulesets_dir()),
        ("user", "Your rulesets", user_rulesets_dir()),
    ):
        mine = [info for info in infos if info.origin == origin]
        lines = [f"{title} ({folder}):"]
        if not mine:
            lines.append("  (none yet: `rummy rules new NAME --from RULESET` makes one)")
        for info in mine:
            lines.append(f"  {info.key:<{width}}{info.name}")
            note = info.description
            if info.error:
                note = f"does not load: {info.error}"
            elif info.shadowed:
                note = f"(a bundled ruleset has this key; use the path) {note}"
            if note:
                lines += textwrap.wrap(
                    note, 78, initial_indent=" " * (width + 2), subsequent_indent=" " * (width + 2)
                )
        _write("\n".join(lines) + "\n", sys.stdout)
    return 0


def _show(name: str, as_yaml: bool, diff: bool = False) -> int:
    try:
        ruleset = load_ruleset(name)
        parent = extended_ruleset(name) if diff else None
    except RulesetError as error:
        return _fail(error)
    if diff:
        if parent is None:
            _write(f"rummy rules show --diff: {ruleset.name} extends no other ruleset; "
                   f"`rummy rules show {name}` prints its rules\n", sys.stderr)
            return 1
        _write(describe_differences(parent, ruleset), sys.stdout)
        return 0
    _write(standalone_yaml(ruleset) if as_yaml else describe_rules(ruleset), sys.stdout)
    return 0


def _check(files: list[str]) -> int:
    status = 0
    for name in files:
        try:
            ruleset = load_ruleset(name)
        except RulesetError as error:
            status = _fail(error)
            continue
        _write(f"{name}: ok ({ruleset.name})\n", sys.stdout)
        for warning in ruleset_warnings(name):
            _write(f"{warning}\n", sys.stderr)
    return status


def _new(name: str, base_ref: str | None) -> int:
    try:
        target = new_ruleset_file(name, user_rulesets_dir(), base_ref)
    except RulesetError as error:
        return _fail(error)
    except NewRulesetError as error:
        where = "" if error.path else "rummy rules new: "
        _write(f"{where}{error}\n", sys.stderr)
        return 2 if error.bad_name else 1
    _write(f"{target}\n", sys.stdout)
    return 0


def run(args: argparse.Namespace) -> int:
    action = getattr(args, "rules_action", None)
    if action in (None, "list"):
        return _list()
    if action == "show":
        return _show(args.ruleset, args.yaml, args.diff)
    if action == "check":
        return _check(args.files)
    if action == "schema":
        _write(schema_json(), sys.stdout)
        return 0
    if action == "reference":
        from ..engine.ruleset import reference_markdown

        _write(reference_markdown(), sys.stdout)
        return 0
    if action == "new":
        return _new(args.name, args.base)
    raise AssertionError(f"unknown rules action {action!r}")  # argparse prevents this
