"""Where rummy-tui keeps the player's files.

Platform conventions come from platformdirs (app name ``rummy-tui``).  Setting the
environment variable ``RUMMY_HOME`` puts everything under that one folder instead, so tests,
portable installs and several profiles on one machine never touch the real user folders.
Nothing here creates a folder: callers create what they write into.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
from pathlib import Path

import platformdirs

APP_NAME = "rummy-tui"
HOME_ENV = "RUMMY_HOME"


def rummy_home() -> Path | None:
    """The folder named by ``RUMMY_HOME``, or None when it is unset or empty."""
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


def user_config_dir() -> Path:
    """Settings the player edits (preferences, keys)."""
    home = rummy_home()
    if home is not None:
        return home / "config"
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def user_data_dir() -> Path:
    """Files the game writes and keeps (records, statistics, saved games)."""
    home = rummy_home()
    if home is not None:
        return home / "data"
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def user_cache_dir() -> Path:
    """Files that may be deleted at any time."""
    home = rummy_home()
    if home is not None:
        return home / "cache"
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def user_rulesets_dir() -> Path:
    """The player's own rulesets, searched after the bundled ones.

    Kept with the configuration because these are files people write by hand.
    """
    return user_config_dir() / "rulesets"


def player_rulesets_dir(player: str) -> Path:
    """The rulesets of one player served over SSH, kept apart from every other player's.

    The folder name is the player name made safe for any file system (letters, digits,
    ``-`` and ``_``); a name that had to be changed gets a short digest of the original, so
    ``ann`` and ``Ann`` or ``a/b`` and ``a_b`` never share a folder.
    """
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", player.strip())[:32].strip("_-")
    if safe != player or not safe or safe.lower() != safe:
        digest = hashlib.sha256(player.encode("utf-8")).hexdigest()[:8]
        safe = f"{safe.lower() or 'player'}-{digest}"
    return user_rulesets_dir() / "players" / safe


def bundled_folder(name: str) -> Path:
    """The folder of files shipped beside the package (`rulesets`, `lessons`): the source
    checkout's first, so an edit there is seen at once, else the installed `tui.<name>`
    package data."""
    checkout = Path(__file__).resolve().parents[1] / name
    if any(checkout.glob("*.yaml")):
        return checkout
    try:
        spec = importlib.util.find_spec(f"tui.{name}")
    except ModuleNotFoundError:
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return checkout
    return Path(next(iter(spec.submodule_search_locations)))
