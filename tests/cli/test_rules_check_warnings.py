"""`rummy rules check` warns (exit 0) about rulesets that are legal but almost certainly not
meant, naming file, line and column; every shipped ruleset checks clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulesets_helpers import MINIMAL, write

from tui.cli import main

REPO = Path(__file__).resolve().parents[2]
CONTRACT_ROUNDS = "rounds:\n  - {cards: 7, contract: {sets: 2}}\n"


def check(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    code = main(["rules", "check", str(path)])
    return code, capsys.readouterr().err


def written(tmp_path: Path, extra: str, rounds: str = "", deck: str = "") -> Path:
    text = MINIMAL if not rounds else MINIMAL.replace("rounds:\n  - {cards: 7}\n", rounds)
    if deck:
        text = text.replace("{players: 2, decks: 1}", deck)
    return write(tmp_path, "house.yaml", text + extra)


@pytest.mark.parametrize(("extra", "rounds", "deck", "where", "says"), [
    ("", CONTRACT_ROUNDS, "", "1:1", "`lay_off.when` is not written"),
    ("going_out: {melding_during_play: false}\n", "", "", "1:1",
     "`scoring.score_best_arrangement` is not written"),
    ("", "", "{players: 2, decks: 1, jokers: 2}", "1:1", "a joker left in hand"),
    ("scoring: {wild_unmelded: fixed}\n", "", "", "7:11", "without `scoring.wild_value`"),
    ("end: {point_limit: 100}\n", "", "", "7:7", "up to 100 deals"),
    ("melds: {set: {max: 6, distinct_suits: true}}\n", "", "{players: 2, decks: 2}", "7:15",
     "holds at most 4 cards"),
    ("lay_off: {when: never}\n",
     "rounds:\n  - {cards: 7, contract: {runs: 2}, all_at_once: true}\n", "", "6:5",
     "nothing is discarded"),
])
def test_footguns_are_warned_about_and_still_pass(capsys, tmp_path: Path, extra: str,
                                                   rounds: str, deck: str, where: str,
                                                   says: str) -> None:
    path = written(tmp_path, extra, rounds, deck)
    code, err = check(capsys, path)
    assert code == 0
    [warning] = err.splitlines()
    assert warning.startswith(f"{path}:{where}: warning: ")
    assert says in warning


def test_the_same_rules_written_out_check_clean(capsys, tmp_path: Path) -> None:
    path = written(tmp_path, "lay_off: {when: never}\nend: {point_limit: 100, max_rounds: 20}\n",
                   CONTRACT_ROUNDS)
    assert check(capsys, path) == (0, "")


def test_an_all_at_once_round_going_out_with_a_discard_checks_clean(capsys,
                                                                     tmp_path: Path) -> None:
    path = written(tmp_path, "lay_off: {when: never}\n", "rounds:\n  - {cards: 7, contract: "
                   "{runs: 2}, all_at_once: true, going_out_discard: required}\n")
    assert check(capsys, path) == (0, "")


def test_every_shipped_ruleset_checks_without_a_warning(capsys) -> None:
    files = sorted((REPO / "rulesets").rglob("*.yaml"))
    code = main(["rules", "check", *map(str, files)])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert out.count(": ok (") == len(files)


def test_a_bad_round_defaults_wild_is_reported_once(capsys, tmp_path: Path) -> None:
    path = written(tmp_path, "round_defaults: {wild: [QQ]}\n",
                   "rounds:\n  - {cards: 7}\n  - {cards: 7}\n  - {cards: 8, wild: [ZZ]}\n")
    code, err = check(capsys, path)
    assert code == 1
    assert err.splitlines() == [
        f"{path}:8:23: wild rank 'ZZ' in round 3 does not exist: use 2-10, A, J, Q or K",
        f"{path}:9:25: wild rank 'QQ' in `round_defaults` does not exist: use 2-10, A, J, Q "
        "or K",
    ]


def test_a_contract_that_cannot_hold_the_hand_without_laying_off_is_warned(capsys,
                                                                          tmp_path: Path) -> None:
    # two sets of at most four cards, a hand of nine plus the draw, no laying off: the
    # contract can never take all but a discard
    path = written(tmp_path, "lay_off: {when: never}\nmelds: {set: {max: 4}}\n",
                   "rounds:\n  - {cards: 9, contract: {sets: 2}}\n")
    code, err = check(capsys, path)
    assert code == 0
    [warning] = err.splitlines()
    assert warning.startswith(f"{path}:6:5: warning: round 1 can never be gone out on")


@pytest.mark.parametrize(("text", "where", "says"), [
    ("extends: three_thirteen\nmelds:\n  set: {min: 5, distinct_suits: true}\n", "3:9",
     "a set of distinct suits holds at most 4 cards, so no set can ever be made"),
    ("extends: three_thirteen\nround_defaults: {wild: [Jack]}\n", "2:18",
     "`round_defaults.wild` never applies: every round sets its own `wild`"),
    ("extends: liverpool\ncontract: {exact_size: true}\n", "2:12",
     "round 7 can never be gone out on: it is `all_at_once`, so its 13 cards must all go "
     "down in the contract, and with `contract.exact_size` its melds hold exactly 12"),
])
def test_rules_the_game_can_never_satisfy_are_warned_at_their_key(
        capsys, tmp_path: Path, text: str, where: str, says: str) -> None:
    """Issue 32: these passed `rules check` without a word (a set no hand can make, a
    default no round uses, a last round nobody can go out on)."""
    path = write(tmp_path, "house.yaml", text)
    code, err = check(capsys, path)
    assert code == 0
    [warning] = err.splitlines()
    assert warning.startswith(f"{path}:{where}: warning: ") and says in warning, warning


def test_a_default_some_round_leaves_to_it_is_not_warned_about(capsys,
                                                                tmp_path: Path) -> None:
    path = written(tmp_path, "round_defaults: {wild: [2]}\n",
                   "rounds:\n  - {cards: 7}\n  - {cards: 7, wild: [3]}\n")
    assert check(capsys, path) == (0, "")
