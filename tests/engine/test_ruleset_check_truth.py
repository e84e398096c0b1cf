"""The check never lies (issue 32): errors are located in the file the player wrote and
say what to write instead."""

from __future__ import annotations

from pathlib import Path

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
