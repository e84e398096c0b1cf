"""Every kind of ruleset mistake is reported at FILE:LINE:COL, naming the key, all at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulesets_helpers import MINIMAL, at, errors_of, only_error, position, write

from tui.engine.ruleset.errors import LocatedError, RulesetError


def test_str_is_one_file_line_col_message_per_line() -> None:
    error = RulesetError(
        [LocatedError("b.yaml", 3, 4, "second"), LocatedError("b.yaml", 1, 2, "first")]
    )
    assert str(error) == "b.yaml:1:2: first\nb.yaml:3:4: second"
    assert str(LocatedError("x.yaml", 0, 0, "cannot read")) == "x.yaml: cannot read"


def test_yaml_syntax_error_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "name: Test\nplayers: {min: 2, max: 4\ndecks: []\n")
    [error] = errors_of(path)
    assert error.file == str(path) and "YAML syntax error" in error.message
    assert error.line == 3  # where the parser found the unclosed mapping's trouble


def test_typo_in_round_key_suggests_the_real_key(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL.replace("{cards: 7}", "{cards: 7, wild_rnak: [3]}"))
    error = only_error(path, "wild_rnak")
    assert at(error) == position(path, "wild_rnak", "wild_rnak")
    assert "did you mean `wild`" in error.message and "rounds[1]" in error.message


def test_typo_in_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL + "joker_wild: false\n")
    error = only_error(path, "joker_wild")
    assert at(error) == (7, 1) and "jokers_wild" in error.message


def test_unknown_key_without_close_match_lists_allowed(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL + "draw: {zzz: 1}\n")
    error = only_error(path, "zzz")
    assert at(error) == position(path, "draw:", "zzz")
    assert "discard" in error.message and "no_immediate_rediscard" in error.message


def test_wrong_type_names_key_and_value(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL.replace("max: 4", "max: four"))
    error = only_error(path, "players.max")
    assert at(error) == position(path, "players:", "four")
    assert "whole number" in error.message and "'four'" in error.message


def test_bad_choice_lists_choices_and_suggests(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL + "ranks:\n  ace: hihg\n")
    error = only_error(path, "ranks.ace")
    assert at(error) == (8, 8)
    assert "low, high, both" in error.message and "did you mean `high`" in error.message


def test_missing_required_key_points_at_file_start(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL.replace("name: Test game\n", ""))
    error = only_error(path, "missing key `name`")
    assert at(error) == (1, 1)


def test_duplicate_key(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL + "dealer: random\ndealer: lowest_card\n")
    error = only_error(path, "duplicate key `dealer`")
    assert at(error) == (8, 1) and "line 7" in error.message


@pytest.mark.parametrize("text", ["", "- a\n- b\n", "just text\n"])
def test_file_that_is_not_a_mapping(tmp_path: Path, text: str) -> None:
    [error] = errors_of(write(tmp_path, "t.yaml", text))
    assert "must be a mapping" in error.message and error.line == 1


def test_deal_that_does_not_fit_the_deck_states_the_numbers(tmp_path: Path) -> None:
    text = MINIMAL.replace("max: 4", "max: 5").replace("{cards: 7}", "{cards: 7}\n  - {cards: 12}")
    path = write(tmp_path, "t.yaml", text)
    error = only_error(path, "does not fit")
    assert at(error) == position(path, "- {players: 2", "{players")
    # 1 deck = 52 cards; 5 players x 12 + 1 up-card + 1 stock = 62 (5 players fail, 4 is 50)
    assert "for 5 players" in error.message and "only 52 (1 deck)" in error.message
    assert "5 players × 12 cards (round 2)" in error.message and "need 62 cards" in error.message


def test_deal_fit_error_names_the_player_range(tmp_path: Path) -> None:
    text = MINIMAL.replace("max: 4", "max: 8").replace("{cards: 7}", "{cards: 10}")
    error = only_error(write(tmp_path, "t.yaml", text), "does not fit")
    # 5 players × 10 + 2 = 52 still fits one deck; 6 to 8 do not
    assert "for 6-8 players" in error.message and "8 players × 10 cards" in error.message


@pytest.mark.parametrize(
    ("wild", "hint"), [("14", "use 2-10"), ("Z", "use 2-10"), ("JK", "jokers_wild"), ("0", "use")]
)
def test_wild_rank_that_does_not_exist(tmp_path: Path, wild: str, hint: str) -> None:
    path = write(
        tmp_path, "t.yaml", MINIMAL.replace("{cards: 7}", f"{{cards: 7, wild: [5, {wild}]}}")
    )
    error = only_error(path, "wild rank")
    assert at(error) == position(path, "wild:", f"{wild}]")
    assert hint in error.message and "round 1" in error.message


def test_wild_rank_in_round_defaults_is_located_there(tmp_path: Path) -> None:
    text = MINIMAL.replace("rounds:", "round_defaults: {wild: [X]}\nrounds:")
    path = write(tmp_path, "t.yaml", text)
    error = only_error(path, "wild rank 'X'")
    assert at(error) == position(path, "round_defaults", "X")


@pytest.mark.parametrize(
    ("section", "yaml_text", "key"),
    [
        ("set", "melds:\n  set: {min: 5, max: 4}\n", "melds.set.min"),
        ("run", "melds:\n  run: {min: 6, max: 4}\n", "melds.run.min"),
    ],
)
def test_min_greater_than_max(tmp_path: Path, section: str, yaml_text: str, key: str) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL + yaml_text)
    error = only_error(path, f"`{key}`", "greater than")
    line, column = position(path, f"{section}:", "min: ")
    assert at(error) == (line, column + len("min: "))


def test_players_min_greater_than_max(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL.replace("{min: 2, max: 4}", "{min: 5, max: 3}"))
    error = only_error(path, "`players.min` (5) is greater than `players.max` (3)")
    assert at(error) == position(path, "players:", "5")


def test_run_longer_than_the_ranks(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL + "melds:\n  run: {min: 14}\n")
    error = only_error(path, "at most 13")
    assert at(error) == position(path, "run:", "14") and "melds.run.min" in error.message


def test_decks_not_covering_players_min(tmp_path: Path) -> None:
    path = write(
        tmp_path, "t.yaml", MINIMAL.replace("{players: 2, decks: 1}", "{players: 3, decks: 1}")
    )
    error = only_error(path, "no `decks` entry covers 2 players")
    assert at(error) == position(path, "{players: 3", "3")


def test_two_decks_entries_for_one_player_count(tmp_path: Path) -> None:
    text = MINIMAL.replace(
        "  - {players: 2, decks: 1}\n", "  - {players: 2, decks: 1}\n  - {players: 2, decks: 2}\n"
    )
    path = write(tmp_path, "t.yaml", text)
    error = only_error(path, "two `decks` entries start at 2 players")
    assert at(error) == position(path, "{players: 2, decks: 2}", "2")


def test_contract_round_without_melding(tmp_path: Path) -> None:
    text = MINIMAL.replace("{cards: 7}", "{cards: 7}\n  - {cards: 7, contract: {sets: 2}}")
    text += "going_out: {melding_during_play: false, discard: required}\n"
    path = write(tmp_path, "t.yaml", text)
    error = only_error(path, "round 2 has a contract")
    assert at(error) == position(path, "contract:", "{sets")
    assert "melding_during_play" in error.message


def test_contract_needing_more_cards_than_a_hand(tmp_path: Path) -> None:
    path = write(
        tmp_path, "t.yaml", MINIMAL.replace("{cards: 7}", "{cards: 7, contract: {sets: 3}}")
    )
    error = only_error(path, "needs at least 9 cards")
    assert at(error) == position(path, "contract:", "{sets") and "at most 8" in error.message


def test_too_many_runs_of_distinct_suits(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "t.yaml",
        MINIMAL.replace("{cards: 7}", "{cards: 20, contract: {runs: 5}}").replace(
            "decks: 1}", "decks: 2}"
        ),
    )
    error = only_error(path, "5 runs")
    assert "runs_same_suit" in error.message


@pytest.mark.parametrize(
    ("extra", "words", "key_path"),
    [
        ("lay_off: {when: after_contract}\n", ("`lay_off.when`",), "after_contract"),
        ("joker_swap: {enabled: true}\n", ("`joker_swap.enabled`", "melding"), "true"),
    ],
)
def test_options_that_need_melding(
    tmp_path: Path, extra: str, words: tuple[str, ...], key_path: str
) -> None:
    text = MINIMAL + "going_out: {melding_during_play: false}\n" + extra
    path = write(tmp_path, "t.yaml", text)
    error = only_error(path, *words)
    assert at(error) == position(path, extra.split(":")[0], key_path)


def test_joker_swap_without_jokers(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL + "joker_swap: {enabled: true}\n")
    error = only_error(path, "no `decks` entry has jokers")
    assert at(error) == position(path, "joker_swap", "true")


def test_buying_problems(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "t.yaml",
        MINIMAL + "buying: {enabled: true, penalty_cards: -1}\ndraw: {discard: none}\n",
    )
    errors = errors_of(path)
    negative = only_error(path, "buying.penalty_cards")
    assert at(negative) == position(path, "buying", "-1") and "at least 0" in negative.message
    nothing = only_error(path, "nothing to buy")
    assert at(nothing) == position(path, "buying", "true")
    assert len(errors) == 2


def test_players_min_below_two(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL.replace("min: 2, max: 4", "min: 1, max: 4"))
    error = only_error(path, "players.min")
    assert at(error) == position(path, "players:", "1") and "at least 2" in error.message


@pytest.mark.parametrize("limit", ["0", "-10"])
def test_point_limit_must_be_positive(tmp_path: Path, limit: str) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL + f"end: {{point_limit: {limit}}}\n")
    error = only_error(path, "end.point_limit")
    assert at(error) == position(path, "end:", limit) and "more than 0" in error.message


def test_round_without_cards(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", MINIMAL.replace("{cards: 7}", "{cards: 7}\n  - {wild: [3]}"))
    error = only_error(path, "round 2 has no `cards`")
    assert at(error) == position(path, "- {wild", "{")


def test_unknown_extends_target(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", "extends: three_thirten\nname: X\n")
    [error] = errors_of(path)
    assert at(error) == (1, 10) and "three_thirten" in error.message
    assert "three_thirteen" in error.message  # the known rulesets are listed


def test_extends_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "t.yaml", "name: X\nextends: ./nowhere.yaml\n")
    [error] = errors_of(path)
    assert at(error) == (2, 10) and "no such ruleset file" in error.message


@pytest.mark.parametrize("confine", [False, True])
def test_extends_a_home_folder_that_does_not_exist(tmp_path: Path, confine: bool) -> None:
    from tui.engine.ruleset.loader import load_ruleset

    path = write(tmp_path, "t.yaml", "name: X\nextends: ~nosuchuser9/x.yaml\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, tmp_path, confine)
    [error] = caught.value.errors
    assert at(error) == (2, 10) and "~nosuchuser9/x.yaml" in error.message


def test_extends_cycle(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\nname: A\n")
    b = write(tmp_path, "b.yaml", "extends: a.yaml\nname: B\n")
    [error] = errors_of(b)
    assert "cycle" in error.message and "a.yaml" in error.message and "b.yaml" in error.message
    assert error.line == 1 and error.column == 10


def test_self_extends_is_a_cycle(tmp_path: Path) -> None:
    path = write(tmp_path, "me.yaml", "extends: me.yaml\nname: Me\n")
    [error] = errors_of(path)
    assert "cycle" in error.message and error.file == str(path)


def test_errors_of_extending_file_are_located_in_it(tmp_path: Path) -> None:
    child = write(tmp_path, "child.yaml", "extends: three_thirteen\nmelds:\n  run: {minn: 4}\n")
    error = only_error(child, "minn")
    assert error.file == str(child) and at(error) == (3, 9)


def test_merged_value_error_points_at_the_file_that_set_it(tmp_path: Path) -> None:
    parent = write(tmp_path, "parent.yaml", MINIMAL)
    child = write(
        tmp_path,
        "child.yaml",
        "extends: parent.yaml\nplayers: {max: 9}\nrounds:\n  - {cards: 10}\n",
    )
    error = only_error(child, "does not fit")
    # the deck is the parent's; the player count and deal come from the child
    assert error.file == str(parent) and at(error) == position(parent, "- {players", "{")
    assert "9 players × 10 cards" in error.message


def test_error_in_parent_syntax_is_reported_in_parent(tmp_path: Path) -> None:
    parent = write(tmp_path, "parent.yaml", "name: [oops\n")
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\n")
    [error] = errors_of(child)
    assert error.file == str(parent.resolve()) and "YAML syntax error" in error.message


def test_all_errors_of_a_file_are_reported_in_order(tmp_path: Path) -> None:
    text = (
        "name: Many mistakes\n"
        "players: {min: 1, max: 4}\n"
        "decks:\n"
        "  - {players: 2, decks: 1}\n"
        "ranks: {ace: sideways}\n"
        "rounds:\n"
        "  - {cards: 7, wild: [Z], wild_rnak: [2]}\n"
        "melds:\n"
        "  set: {min: 5, max: 3}\n"
        "end: {point_limit: 0}\n"
    )
    path = write(tmp_path, "t.yaml", text)
    errors = errors_of(path)
    lines = [e.line for e in errors]
    assert lines == sorted(lines)
    messages = " | ".join(e.message for e in errors)
    for word in (
        "players.min",
        "ranks.ace",
        "wild_rnak",
        "wild rank 'Z'",
        "melds.set.min",
        "end.point_limit",
    ):
        assert word in messages, word
    assert len(errors) == 6


def test_unreadable_path_is_a_clean_error(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as caught:
        from tui.engine.ruleset.loader import load_ruleset

        load_ruleset(str(tmp_path / "missing.yaml"))
    assert "no such ruleset file" in str(caught.value)
