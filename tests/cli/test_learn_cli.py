"""`rummy learn`: the lessons listed, an unknown one refused before any screen opens."""

from __future__ import annotations

import pytest

from tui.cli import main


def test_rummy_learn_lists_the_lessons_and_refuses_an_unknown_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--list"]) == 0
    assert capsys.readouterr().out.split() == ["contract_rummy", "liverpool", "three_thirteen"]
    assert main(["learn", "gin_rummy"]) == 2
    assert "no lesson for 'gin_rummy'" in capsys.readouterr().err
