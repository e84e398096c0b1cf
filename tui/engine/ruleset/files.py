"""Create a player's new ruleset file: the one way `rummy rules new` and the app do it.

A new file is a commented starter (`ruleset_dump.starter_yaml`) that ``extends`` the ruleset
it starts from, written next to ``ruleset.schema.json`` so editors with a YAML language
server complete and check it.  A file is never overwritten and never takes a bundled
ruleset's key (the bundled one would win and the player's file would never be found).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ...atomic import write_atomic
from ..rules import Ruleset
from .dump import SCHEMA_FILE_NAME, starter_yaml
from .loader import bundled_rulesets_dir, find_ruleset, load_ruleset
from .schema import rules_schema

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
MAX_NAME_LENGTH = 64  # far below any file system's limit on a file name


class NewRulesetError(Exception):
    """A new ruleset file that cannot be made; `path` is the file concerned, if any."""

    def __init__(self, message: str, path: Path | None = None, bad_name: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.bad_name = bad_name  # the name itself is unusable (a usage mistake)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


def schema_json() -> str:
    """The JSON Schema as the text written beside the player's files."""
    return json.dumps(rules_schema(), indent=2, ensure_ascii=False) + "\n"


def title_for(name: str) -> str:
    """A ruleset name players read, made from a file key (``big_liverpool``: Big liverpool)."""
    return name.replace("_", " ").replace("-", " ").strip().capitalize()


def _extends_ref(base_path: Path, folder: Path) -> str:
    """How the new file names its base: by key when the key finds it again, else by path."""
    here = base_path.parent.resolve()
    if here in (bundled_rulesets_dir().resolve(), folder.resolve()):
        return base_path.stem
    return str(base_path.resolve())


def new_ruleset_file(
    name: str,
    folder: Path,
    base_ref: str | Path | None = None,
    title: str | None = None,
    confine: bool = False,
) -> Path:
    """Write the starter file `folder`/`name`.yaml and return its path.

    With `base_ref` (a key or a path) the file extends that ruleset and shows its keys
    commented out; without it the file is a small complete game.  Raises `NewRulesetError`
    for an unusable or taken name or a folder that cannot be written, and `RulesetError`
    when the base does not load (`confine`: see `ruleset_loader`).
    """
    if not NAME_PATTERN.match(name):
        raise NewRulesetError(
            f"{name!r} is not a usable name: use letters, digits, _ and -, e.g. my_rules",
            bad_name=True,
        )
    if len(name) > MAX_NAME_LENGTH:
        raise NewRulesetError(
            f"a name of {len(name)} characters is too long: use at most {MAX_NAME_LENGTH}",
            bad_name=True,
        )
    target = folder / f"{name}.yaml"
    if target.exists():
        raise NewRulesetError("already exists; not overwritten (pick another name)", target)
    if (bundled_rulesets_dir() / f"{name}.yaml").exists():
        raise NewRulesetError(
            f"`{name}` is a bundled ruleset; pick another name (e.g. my_{name})"
        )
    base: Ruleset | None = None
    extends = ""
    if base_ref is not None:
        base_path = find_ruleset(base_ref, user_dir=folder)
        base = load_ruleset(base_path, folder, confine)
        extends = _extends_ref(base_path, folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / SCHEMA_FILE_NAME, schema_json())
        with target.open("x", encoding="utf-8") as handle:
            handle.write(starter_yaml(title or title_for(name), base, extends))
    except FileExistsError:  # made by someone else since the check above
        raise NewRulesetError(
            "already exists; not overwritten (pick another name)", target
        ) from None
    except OSError as exc:
        raise NewRulesetError(f"cannot write: {exc.strerror or exc}", target) from None
    return target


def free_name(base_key: str, folder: Path) -> str:
    """A key for a new variant of `base_key` that no file in `folder` or bundled uses yet:
    ``my_liverpool``, then ``my_liverpool_2`` and so on."""
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", base_key).strip("_-") or "rules"
    stem = stem.removeprefix("my_")
    bundled = bundled_rulesets_dir()
    number = 1
    while True:
        name = f"my_{stem}" + (f"_{number}" if number > 1 else "")
        taken = any((where / f"{name}{suffix}").exists()
                    for where in (folder, bundled) for suffix in (".yaml", ".yml"))
        if not taken:
            return name
        number += 1
