"""Every test runs with its own empty user folder: nothing a test does (settings, saved
games, records, house rules) ever touches the real one, and no test sees another's files."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_rummy_home(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("rummy-home")
    monkeypatch.setenv("RUMMY_HOME", str(home))
    return home


@pytest.fixture
def home(private_rummy_home: Path) -> Path:
    """The test's user folder, for tests that put files in it or read what was written."""
    return private_rummy_home
