"""The check never lies (issue 32): errors are located in the file the player wrote and
say what to write instead."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulesets_helpers import at, errors_of, write


def test_an_error_caused_by_the_player_is_not_located_in_a_bundled_file(
        tmp_path: Path) -> None:
    """A bug that happened: a set minimum above its maximum gave the right error and a
    second one located in the bundled contract_rummy.yaml, a file the family did not
    write."""
    path = write(tmp_path, "house.yaml", "extends: contract_rummy\nmelds:\n"
                                         "  set: {min: 5, max: 4}\n")
    (error,) = errors_of(path)
    assert error.file == str(path) and at(error) == (3, 14)
    assert error.message == "`melds.set.min` (5) is greater than `melds.set.max` (4)"


def test_a_bundled_rule_the_players_key_breaks_is_shown_at_their_extends(
        tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", "# sets of five\nextends: contract_rummy\nmelds:\n"
                                         "  set: {min: 5, max: 6}\n")
    (error,) = errors_of(path)
    assert error.file == str(path) and at(error) == (2, 1)
    assert error.message.startswith("round 4's contract needs at least 15 cards")
    assert error.message.endswith("(the bundled contract_rummy.yaml, line 45, which this "
                                  "file extends)")


def test_extends_with_a_near_miss_suggests_the_key(tmp_path: Path) -> None:
    for written, meant in (("contract-rummy", "contract_rummy"), ("Liverpol", "liverpool")):
        (error,) = errors_of(write(tmp_path, "house.yaml", f"extends: {written}\n"))
        assert error.message.endswith(f"; did you mean `{meant}`?"), error.message


NO_ROUNDS = "name: x\nplayers: {min: 2, max: 4}\n"


@pytest.mark.parametrize(("text", "says"), [
    (NO_ROUNDS + "decks: [{players: 2, decks: 1}]\n",
     "missing key `rounds` (for example `rounds: [{cards: 3, wild: [3]}, {cards: 10, "
     "contract: {sets: 2}}]`)"),
    (NO_ROUNDS + "decks: 2\nrounds: [{cards: 7}]\n",
     "`decks` must be a list, not `2` (for example `decks: [{players: 2, decks: 1}, "
     "{players: 3, decks: 2}]`)"),
    (NO_ROUNDS + "decks: [2]\nrounds: [{cards: 7}]\n",
     "`decks[1]` must be a mapping of keys, not `2` (for example `- {players: 2, decks: 1}`)"),
    (NO_ROUNDS + "decks: [{players: 2, decks: 1}]\nrounds: [{cards: 7, contract: 2 sets}]\n",
     "`rounds[1].contract` must be a mapping of keys, not the text '2 sets' (for example "
     "`contract: {sets: 1, runs: 1}`)"),
    ("name: x\nplayers: 3\ndecks: [{players: 2, decks: 1}]\nrounds: [{cards: 7}]\n",
     "`players` must be a mapping of keys, not `3` (for example `players: {min: 2, max: 4}`)"),
])
def test_an_error_about_a_form_gives_the_right_form(tmp_path: Path, text: str,
                                                      says: str) -> None:
    errors = errors_of(write(tmp_path, "house.yaml", text))
    assert says in [e.message for e in errors], [e.message for e in errors]


@pytest.mark.parametrize(("text", "at_", "says"), [
    ("name: x\nplayers: {min: 2, max: 4\n", (3, 1),
     "a `{...}` mapping is not closed with `}`, or two of its entries have no comma between "
     "them (write `{min: 2, max: 4}`) (it started at line 2)"),
    ("name: Rummy: our way\n", (1, 12), "a second `:` on one line"),
    ("name: x\n\tplayers: 2\n", (2, 1), "a tab: indent with spaces only"),
    ("players:\n  min: 2\n max: 3\n", (3, 2), "this line is indented differently"),
])
def test_a_yaml_syntax_error_is_said_in_plain_words(tmp_path: Path, text: str,
                                                    at_: tuple[int, int], says: str) -> None:
    (error,) = errors_of(write(tmp_path, "house.yaml", text))
    assert at(error) == at_
    assert error.message.startswith(f"YAML syntax error: {says}"), error.message
