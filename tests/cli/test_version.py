"""`rummy --version` prints the installed package's version, from its metadata."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from tui.cli import main

REPO = Path(__file__).resolve().parents[2]


def test_version_prints_the_package_version_and_exits_zero(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out == f"rummy {version('rummy-tui')}"


def test_the_version_is_the_one_pyproject_declares() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert version("rummy-tui") == declared["project"]["version"]

