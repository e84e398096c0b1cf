"""`rules check` and `rules show` for the meld keys of the wider family (#32): errors at
the key causing them, in the round where it is written, and a sentence for each key."""

from __future__ import annotations

from pathlib import Path

from rulesets_helpers import MINIMAL, errors_of, position, write

from tui.engine.ruleset.loader import load_ruleset
from tui.engine.ruleset.text import describe_rules

ROUNDS = "rounds:\n  - {cards: 7}\n"


def game(rounds: str, melds: str = "") -> str:
    text = MINIMAL.replace(ROUNDS, melds + "rounds:\n" + rounds)
    return text.replace("{players: 2, decks: 1}", "{players: 2, decks: 1, jokers: 2}")


def test_a_contract_asking_for_a_kind_its_round_refuses(tmp_path: Path) -> None:
    path = write(tmp_path, "a.yaml", game(
        "  - {cards: 7, contract: {sets: 1, runs: 1}}\n"
        "  - {cards: 7, contract: {sets: 2}, melds: {set: {allowed: false}}}\n"
        "  - {cards: 7, contract: {runs: 1}}\n",
        "melds:\n  run: {allowed: false}\n"))
    errors = errors_of(path)
    messages = [e.message for e in errors]
    assert any("round 1's contract asks for 1 runs" in m for m in messages), messages
    assert any("round 2's contract asks for 2 sets" in m and "runs only" in m
               for m in messages), messages
    assert any("round 3's contract asks for 1 runs" in m for m in messages), messages
    second = next(e for e in errors if "round 2" in e.message)
    assert (second.line, second.column) == position(path, "sets: 2", "2")


def test_a_rounds_set_minimum_above_its_maximum_is_located_in_that_round(
        tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", game(
        "  - {cards: 7}\n  - {cards: 7, melds: {set: {min: 5}}}\n",
        "melds:\n  set: {max: 4}\n"))
    [error] = errors_of(path)
    assert "round 2's melds" in error.message and "melds.set.min" in error.message
    assert (error.line, error.column) == position(path, "min: 5", "5")


def test_no_kind_of_meld_at_all_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", game(
        "  - {cards: 7, melds: {run: {allowed: false}}}\n", "melds:\n  set: {allowed: false}\n"))
    [error] = errors_of(path)
    assert error.message.startswith("round 1 allows neither sets nor runs")
    path = write(tmp_path, "c2.yaml", game(
        "  - {cards: 7}\n", "melds:\n  set: {allowed: false}\n  run: {allowed: false}\n"))
    [error] = errors_of(path)
    assert "both false" in error.message
    assert (error.line, error.column) == position(path, "set: {allowed: false}", "false")


def test_rules_show_tells_each_key(tmp_path: Path) -> None:
    path = write(tmp_path, "d.yaml", game(
        "  - {cards: 7}\n"
        "  - {cards: 7, melds: {run: {same_suit: false}}}\n"
        "  - {cards: 7, melds: {max_wilds: 0, set: {allowed: false}}}\n",
        "melds:\n  max_wilds: 1\n"))
    text = describe_rules(load_ruleset(str(path)))
    assert "A meld may hold at most 1 wild card, laying off included." in text
    rows = {line.split()[0]: line for line in text.splitlines()
            if line.strip()[:1].isdigit() and "7" in line}
    assert rows["2"].rstrip().endswith("runs of any suits")
    assert rows["3"].rstrip().endswith("runs only, no wild in a meld")
    assert rows["1"].rstrip().endswith("-")
    assert "plays by them instead of those under Melds" in text
    runs_only = write(tmp_path, "e.yaml", game("  - {cards: 7}\n",
                                               "melds:\n  set: {allowed: false}\n"))
    text = describe_rules(load_ruleset(str(runs_only)))
    assert "There are no sets: melds are runs only." in text
    assert "A set is" not in text
