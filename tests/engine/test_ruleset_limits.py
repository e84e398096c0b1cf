"""Bounds that make every accepted ruleset playable: each refused with a located reason
(the fault campaign found these accepted, then crashing or freezing the game)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulesets_helpers import errors_of, write

from tui.cli import main
from tui.engine.ruleset import load_ruleset
from tui.engine.ruleset.limits import MAX_HAND, MAX_RULESET_BYTES


def house(tmp_path: Path, body: str, base: str = "three_thirteen") -> Path:
    return write(tmp_path, "house.yaml", f"extends: {base}\n{body}")


def refused(tmp_path: Path, body: str, says: str, base: str = "three_thirteen") -> None:
    path = house(tmp_path, body, base)
    errors = errors_of(path)
    assert any(says in e.message for e in errors), [str(e) for e in errors]
    assert all(e.line > 0 or "KB" in e.message for e in errors), [str(e) for e in errors]


@pytest.mark.parametrize("body", [
    "rounds:\n  - {cards: 3.0}\n",
    "decks:\n  - {players: 2, decks: 1.0}\n",
    "players: {min: 2.0, max: 4}\n",
    "stock: {max_rebuilds: 2.0}\n",
    "scoring: {values: {A: 1.0}}\n",
    "melds: {min_natural: 1.0}\n",
    "going_out: {bonus: -10.0}\n",
    "end: {max_rounds: 5.0}\n",
])
def test_an_integral_float_is_not_a_whole_number(tmp_path: Path, body: str) -> None:
    refused(tmp_path, body, "must be a whole number")


def test_a_hand_larger_than_the_limit_is_refused(tmp_path: Path) -> None:
    refused(tmp_path, f"rounds:\n  - {{cards: {MAX_HAND + 1}, wild: [3]}}\n",
            "reasonable time")
    load_ruleset(str(house(tmp_path, f"rounds:\n  - {{cards: {MAX_HAND}, wild: [3]}}\n")))


@pytest.mark.parametrize(("body", "says"), [
    ("scoring: {values: {K: 250000}}\n", "beyond"),
    ("scoring: {wild_unmelded: fixed, wild_value: 1000000}\n", "beyond"),
    ("going_out: {bonus: -100000000}\n", "beyond"),
    ("end: {point_limit: 10000000000}\n", "beyond"),
    ("buying: {enabled: true, penalty_cards: 40}\n", "penalty cards"),
])
def test_huge_numbers_are_refused(tmp_path: Path, body: str, says: str) -> None:
    refused(tmp_path, body, says)


@pytest.mark.parametrize(("body", "says"), [
    ("melds: {set: {min: 1}}\n", "every card a meld"),
    ("melds: {run: {min: 1}}\n", "every card a meld"),
    ("melds: {min_natural: 65}\n", "no meld could ever be made"),
    ("melds: {min_natural: 5, set: {max: 4}, run: {max: 4}}\n", "no meld could ever be made"),
])
def test_melds_no_hand_can_make_are_refused(tmp_path: Path, body: str, says: str) -> None:
    refused(tmp_path, body, says, base="contract_rummy")


def test_min_natural_within_the_meld_sizes_is_accepted(tmp_path: Path) -> None:
    load_ruleset(str(house(tmp_path, "melds: {min_natural: 3}\n", "contract_rummy")))


@pytest.mark.parametrize(("base", "body"), [
    ("may_i.yaml", "stock: {max_rebuilds: 100}\n"),
    ("liverpool", "stock: {max_rebuilds: 100}\n"),
    ("rummy_to_100.yaml", "end: {point_limit: 100, max_rounds: 1000}\n"),
])
def test_a_long_worst_case_is_no_reason_to_refuse_a_ruleset(
        tmp_path: Path, base: str, body: str) -> None:
    """A bug that happened: a move budget refused these files ("a game could take up to
    883,548 moves") that an earlier version accepted and that play to the end in seconds.
    How long a game runs is bounded during play (`MAX_GAME_MOVES`), not by refusing it."""
    cookbook = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook"
    if base.endswith(".yaml"):
        base = str(cookbook / base)
    load_ruleset(str(house(tmp_path, body, base)))


def test_a_ruleset_file_beyond_the_size_limit_is_refused(tmp_path: Path) -> None:
    padding = "# " + "x" * 78 + "\n"
    path = house(tmp_path, padding * (MAX_RULESET_BYTES // len(padding) + 1))
    (error,) = errors_of(path)
    assert "KB" in error.message and error.file == str(path)


def test_over_long_names_and_descriptions_are_refused(tmp_path: Path) -> None:
    refused(tmp_path, f"name: {'n' * 200}\n", "too long")
    refused(tmp_path, f"description: {'d ' * 600}\n", "too long")


def test_rules_check_says_why_a_ruleset_cannot_be_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = house(tmp_path, "rounds:\n  - {cards: 60}\n")
    assert main(["rules", "check", str(path)]) == 1
    _, err = capsys.readouterr()
    assert f"{path}:3:" in err and "reasonable time" in err
