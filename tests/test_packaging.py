"""`pip install .` ships the whole program: every package under `tui/` is listed in
pyproject.toml, and every style sheet is package data (a package left out installs fine and
then fails at the first import, as `tui.engine.deal` once would have)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def setuptools_config() -> dict:
    with (REPO / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["tool"]["setuptools"]


def test_every_package_under_tui_is_installed() -> None:
    listed = set(setuptools_config()["packages"])
    found = {".".join(init.parent.relative_to(REPO).parts)
             for init in (REPO / "tui").rglob("__init__.py")}
    assert found - listed == set()


def test_every_style_sheet_is_package_data() -> None:
    data = setuptools_config()["package-data"]
    missing = []
    for sheet in (REPO / "tui").rglob("*.tcss"):
        package = ".".join(sheet.parent.relative_to(REPO).parts)
        if not any(fnmatch.fnmatch(sheet.name, pattern) for pattern in data.get(package, [])):
            missing.append(str(sheet.relative_to(REPO)))
    assert missing == []


def test_every_lesson_file_is_package_data() -> None:
    config = setuptools_config()
    assert "tui.lessons" in config["packages"]
    assert config["package-dir"]["tui.lessons"] == "lessons"
    patterns = config["package-data"]["tui.lessons"]
    lessons = sorted((REPO / "lessons").glob("*.yaml"))
    assert lessons
    assert [p.name for p in lessons
            if not any(fnmatch.fnmatch(p.name, pat) for pat in patterns)] == []
