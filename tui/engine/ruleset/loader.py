"""Find, read, merge, check and build rulesets.

A ruleset is named by its key (the file stem, e.g. ``three_thirteen``) or by a path.  Keys
are looked up first among the bundled rulesets (the top-level ``rulesets/`` folder of a
source checkout, or the package data of ``tui.rulesets`` once installed), then in the
player's folder: `tui.paths.user_rulesets_dir` unless a `user_dir` is given (each player
served over SSH has a folder of their own).  Subfolders are never searched, so files kept
in ``rulesets/cookbook/`` are examples to copy, not rulesets offered to play.

Loading with ``confine=True`` (files written by a remote player on a shared server) lets
``extends`` name ruleset keys and files inside the player's folder only, so a file cannot
read, and show in its errors or rules text, any other file on the server.

Loading goes: YAML with positions (`ruleset_yaml`) -> ``extends`` chain merged -> JSON Schema
(`ruleset_schema`) -> rule consistency checks (`ruleset_checks`) -> `Ruleset`
(`ruleset_build`).  Every mistake found on the way is collected and raised together as one
`RulesetError`, each located at FILE:LINE:COL.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ... import paths
from ..rules import Ruleset
from .build import build_ruleset
from .checks import semantic_errors
from .errors import LocatedError, RulesetError
from .footguns import footgun_warnings
from .limits import MAX_RULESET_BYTES, limit_errors
from .marked_yaml import LocatedDoc, compose_located, merge_docs
from .schema import prune_invalid, rules_schema, schema_errors

__all__ = [
    "LocatedError",
    "RulesetError",
    "RulesetInfo",
    "bundled_rulesets_dir",
    "find_ruleset",
    "list_rulesets",
    "load_ruleset",
    "load_ruleset_text",
    "ruleset_paths",
    "rules_schema",
]

SUFFIXES = (".yaml", ".yml")
_TOO_BIG = (f"larger than {MAX_RULESET_BYTES // 1024} KB: a ruleset is a page of keys "
            "(the bundled ones are about 5 KB)")
Origin = Literal["bundled", "user"]


@dataclass(frozen=True)
class RulesetInfo:
    """One ruleset file as listed to players; `error` is set when it does not load."""

    key: str
    name: str
    description: str
    path: Path
    origin: Origin
    error: str | None = None
    shadowed: bool = False  # a user file whose key a bundled ruleset already uses

    @property
    def bundled(self) -> bool:
        return self.origin == "bundled"


def bundled_rulesets_dir() -> Path:
    """The folder of bundled ruleset files (source checkout first, then installed data)."""
    return paths.bundled_folder("rulesets")


def _files_in(folder: Path) -> dict[str, Path]:
    try:
        entries = sorted(folder.iterdir()) if folder.is_dir() else []
    except OSError:  # an unreadable folder holds no rulesets we can offer
        return {}
    found: dict[str, Path] = {}
    for path in entries:
        if path.suffix in SUFFIXES and path.is_file() and path.stem not in found:
            found[path.stem] = path
    return found


def ruleset_paths(user_dir: Path | None = None) -> list[tuple[str, Path, Origin]]:
    """Every ruleset file: bundled ones first, then the player's, each sorted by key.

    `user_dir` is the player's folder (default `tui.paths.user_rulesets_dir()`).
    """
    folder = paths.user_rulesets_dir() if user_dir is None else user_dir
    bundled = [(key, path, "bundled") for key, path in _files_in(bundled_rulesets_dir()).items()]
    user = [(key, path, "user") for key, path in _files_in(folder).items()]
    return [*bundled, *user]  # type: ignore[list-item]


def _looks_like_path(name: str) -> bool:
    return name.endswith(SUFFIXES) or "/" in name or "\\" in name


def _user_path(text: str) -> Path:
    """`text` as a path with `~` expanded where it can be (`~nosuchuser/x.yaml` stays as
    written, and is then simply not found)."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        return Path(text)


def find_ruleset(
    name_or_path: str | Path, relative_to: Path | None = None, user_dir: Path | None = None
) -> Path:
    """The file for a key or a path.  Raises `RulesetError` naming what is available."""
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or _looks_like_path(text):
        path = _user_path(text)
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        try:
            if path.is_file():
                return path
        except OSError as exc:  # e.g. a name longer than the file system allows
            raise RulesetError([LocatedError(text[:200], 0, 0,
                                             f"cannot read: {exc.strerror or exc}")]) from None
        raise RulesetError([LocatedError(text, 0, 0, "no such ruleset file")])
    found = ruleset_paths(user_dir)
    for key, path, _origin in found:
        if key == text:
            return path
    keys = sorted({key for key, _, _ in found})
    known = ", ".join(keys) or "none"
    close = difflib.get_close_matches(text.replace("-", "_").replace(" ", "_").lower(), keys, 1)
    hint = f"; did you mean `{close[0]}`?" if close else ""
    raise RulesetError([LocatedError(text, 0, 0, f"no ruleset named `{text}` (known: "
                                                 f"{known}){hint}")])


def _read(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_RULESET_BYTES + 1)
        if len(raw) > MAX_RULESET_BYTES:
            raise RulesetError([LocatedError(str(path), 0, 0, _TOO_BIG)])
        return raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise RulesetError([LocatedError(str(path), 0, 0, f"cannot read: {reason}")]) from None


def _within(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError):
        return False
    return True


def _merged_doc(
    text: str,
    file: str,
    base_dir: Path | None,
    chain: tuple[Path, ...],
    user_dir: Path | None,
    confine: bool = False,
) -> tuple[LocatedDoc, list[LocatedError]]:
    """The document with its `extends` chain merged in, and the errors met on the way."""
    doc, errors = compose_located(text, file)
    if errors:
        return doc, errors
    if not isinstance(doc.data, dict):
        what = "empty" if doc.data is None else f"a {type(doc.data).__name__}"
        start = doc.value_loc(())
        return doc, [start.error(f"a ruleset must be a mapping of keys (this file is {what})")]
    target = doc.data.get("extends")
    if target is None:
        return doc, []
    loc = doc.value_loc(("extends",))
    if not isinstance(target, str) or not target.strip():
        return doc, [loc.error("`extends` must name a ruleset (a key or a file path)")]
    if confine and _looks_like_path(target.strip()):
        folder = paths.user_rulesets_dir() if user_dir is None else user_dir
        wanted = _user_path(target.strip())
        if not wanted.is_absolute() and base_dir is not None:
            wanted = base_dir / wanted
        if not _within(wanted, folder):
            return doc, [
                loc.error(
                    f"`extends: {target}`: name a ruleset by its key (`rummy rules list` "
                    "shows them) or a file in your rulesets folder"
                )
            ]
    try:
        parent_path = find_ruleset(target.strip(), base_dir, user_dir).resolve()
    except RulesetError as exc:
        reason = exc.errors[0].message
        return doc, [loc.error(f"`extends: {target}`: {reason}")]
    if parent_path in chain:
        names = " -> ".join(p.name for p in (*chain, parent_path))
        return doc, [loc.error(f"`extends` makes a cycle: {names}")]
    parent, parent_errors = _merged_doc(
        _read(parent_path),
        str(parent_path),
        parent_path.parent,
        (*chain, parent_path),
        user_dir,
        confine and not _within(parent_path, bundled_rulesets_dir()),
    )
    if parent_errors:
        return doc, parent_errors
    merged = merge_docs(parent, doc)
    del merged.data["extends"]
    return merged, []


def load_ruleset_text(
    text: str,
    file: str = "<ruleset>",
    key: str = "",
    base_dir: Path | None = None,
    user_dir: Path | None = None,
    confine: bool = False,
) -> Ruleset:
    """Load a ruleset from YAML text (``extends`` paths resolve against `base_dir`, keys
    against the bundled rulesets and then `user_dir`; `confine`: see the module)."""
    if len(text) > MAX_RULESET_BYTES or len(text.encode("utf-8")) > MAX_RULESET_BYTES:
        raise RulesetError([LocatedError(file, 0, 0, _TOO_BIG)])
    chain = (Path(file).resolve(),) if Path(file).is_file() else ()
    doc, errors = _merged_doc(text, file, base_dir, chain, user_dir, confine)
    if not errors:
        errors = schema_errors(doc)
        checkable = prune_invalid(doc) if errors else (doc.data, set())
        if checkable is not None:
            errors += semantic_errors(doc, *checkable)
            errors += limit_errors(doc, checkable[0])
    if errors:
        raise RulesetError(_in_files_the_player_wrote(errors, doc, file))
    return build_ruleset(doc.data, key=key, source=text)


def _in_files_the_player_wrote(errors: list[LocatedError], doc: LocatedDoc,
                               file: str) -> list[LocatedError]:
    """The errors located where the player can mend them.  A bundled ruleset loads by
    itself, so an error located in one (extended by the player's file) is a consequence
    of what the player wrote: left out beside errors in the player's own files, else
    shown at their `extends`, naming the bundled line it concerns."""
    bundled = bundled_rulesets_dir()

    def foreign(error: LocatedError) -> bool:
        return error.file != file and error.line > 0 and _within(Path(error.file), bundled)

    own = [e for e in errors if not foreign(e)]
    if own:
        return own
    where = doc.key_loc(("extends",))
    return [where.error(f"{e.message} (the bundled {Path(e.file).name}, line {e.line}, "
                        "which this file extends)") for e in errors]


def ruleset_warnings(name_or_path: str | Path, user_dir: Path | None = None) -> list[LocatedError]:
    """What in a loadable ruleset is legal but almost certainly not meant (see `footguns`),
    each located in the file; empty for a file that does not load."""
    path = find_ruleset(name_or_path, user_dir=user_dir)
    doc, errors = _merged_doc(_read(path), str(path), path.parent, (path.resolve(),), user_dir)
    return [] if errors else footgun_warnings(doc)


def load_ruleset(
    name_or_path: str | Path, user_dir: Path | None = None, confine: bool = False
) -> Ruleset:
    """The ruleset for a key (``liverpool``) or a file path.

    `Ruleset.key` is the file stem and `Ruleset.source` that file's YAML text (for a file
    using ``extends``, only its own text: see `ruleset_dump.standalone_yaml` for a
    self-contained copy).  `user_dir` is the player's folder for keys (default
    `tui.paths.user_rulesets_dir()`).  Raises `RulesetError` with every located mistake.
    """
    path = find_ruleset(name_or_path, user_dir=user_dir)
    return load_ruleset_text(
        _read(path),
        file=str(path),
        key=path.stem,
        base_dir=path.parent,
        user_dir=user_dir,
        confine=confine and not _within(path, bundled_rulesets_dir()),
    )


def list_rulesets(user_dir: Path | None = None, confine: bool = False) -> list[RulesetInfo]:
    """Every ruleset a player can choose, bundled first; broken files are listed with why.

    `user_dir` is the player's folder (default `tui.paths.user_rulesets_dir()`).
    """
    infos: list[RulesetInfo] = []
    bundled_keys: set[str] = set()
    for key, path, origin in ruleset_paths(user_dir):
        shadowed = origin == "user" and key in bundled_keys
        if origin == "bundled":
            bundled_keys.add(key)
        try:
            ruleset = load_ruleset(path, user_dir, confine)
        except RulesetError as exc:
            first = exc.errors[0]
            more = len(exc.errors) - 1
            error = str(first) + (f" (and {more} more)" if more else "")
            infos.append(RulesetInfo(key, key, "", path, origin, error, shadowed))
            continue
        infos.append(
            RulesetInfo(key, ruleset.name, ruleset.description, path, origin, None, shadowed)
        )
    return infos
