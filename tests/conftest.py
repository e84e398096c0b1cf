"""Every test runs with its own empty user folder: nothing a test does (settings, saved
games, records, house rules) ever touches the real one, and no test sees another's files."""

from __future__ import annotations

import gc
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


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker of a parallel run (xdist) gets 5 seconds, once it has said it is done, to
    stop before execnet interrupts it (SIGINT).  pytest then collects the garbage five
    times over, over a heap of many apps and games, and on a loaded machine that ran
    past the 5 seconds: the interrupt landed in hypothesis's gc callback
    (`PytestUnraisableExceptionWarning … KeyboardInterrupt` at the end of a run).  Here,
    before the worker says it is done, the garbage is collected once (what it finds is
    still reported) and what is left is frozen, so the later collections are quick."""
    if hasattr(session.config, "workerinput"):  # (an xdist worker)
        gc.collect()
        gc.freeze()
