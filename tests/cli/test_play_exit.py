"""`rummy play` exits non-zero when the app crashed, and 0 when the player quit."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App

import tui.app.app
import tui.app.collector
from tui.cli import main


class Headless(App[None]):
    """Stands in for RummyApp (same constructor): runs without a terminal."""

    def __init__(self, env: Any) -> None:
        super().__init__()
        self.env = env

    def run(self, **options: Any) -> Any:  # noqa: ANN401 - App.run's own result
        return super().run(headless=True, **options)


class Crashing(Headless):
    def on_mount(self) -> None:
        raise RuntimeError("a bug in a screen")


class Quitting(Headless):
    def on_mount(self) -> None:
        self.exit()


@pytest.fixture(autouse=True)
def _no_collector_tuning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tui.app.collector, "tune_collector", lambda: None)


def test_rummy_play_exits_non_zero_after_the_app_crashed(
        home: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tui.app.app, "RummyApp", Crashing)
    assert main(["play"]) == 1
    assert "a bug in a screen" in "".join(capsys.readouterr())


def test_rummy_play_exits_zero_when_the_player_quits(
        home: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tui.app.app, "RummyApp", Quitting)
    assert main(["play"]) == 0
