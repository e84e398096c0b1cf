"""Fixtures of the app's picture tests (SVG snapshots): where the pictures are kept, and
the terminal they are drawn for."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_textual_snapshot import SVGImageExtension


class _InSnapshotsFolder(SVGImageExtension):
    @classmethod
    def dirname(cls, *, test_location) -> str:  # noqa: ANN001
        here = Path(test_location.filepath)
        return str(here.parent / "snapshots" / here.stem)


@pytest.fixture
def snapshot(snapshot):  # noqa: ANN001, ANN201 - keeps the SVGs in tests/app/snapshots/
    """`snap_compare`'s snapshot, keeping a test file's SVGs in snapshots/<its stem>/."""
    use_extension = snapshot.use_extension
    snapshot.use_extension = lambda _ignored=None: use_extension(_InSnapshotsFolder)
    return snapshot


@pytest.fixture
def truecolor_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user folder under the test's tmp_path and a terminal said to show true colour (so
    the theme's own colours are drawn, not a 16-colour stand-in)."""
    monkeypatch.setenv("RUMMY_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLORTERM", "truecolor")
