"""Checking and saving a ruleset while it is written (the in-app editor's engine), new
files for house variants, each player's own rulesets folder, and files that try to make
the loader hang or crash."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from rulesets_helpers import MINIMAL, write

from tui.engine.ruleset.checks import semantic_errors
from tui.engine.ruleset.files import NewRulesetError, free_name, new_ruleset_file
from tui.engine.ruleset.live import check_text, save_checked
from tui.engine.ruleset.loader import (
    bundled_rulesets_dir,
    list_rulesets,
    load_ruleset,
    load_ruleset_text,
)
from tui.engine.ruleset.marked_yaml import compose_located
from tui.paths import player_rulesets_dir

BUNDLED_TEXTS = [
    path.read_text(encoding="utf-8") for path in sorted(bundled_rulesets_dir().glob("*.yaml"))
]



# --- checking text -----------------------------------------------------------------------


def test_check_text_gives_the_rules_text_of_a_good_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    result = check_text("extends: three_thirteen\nname: Short\nend: {winner: highest}\n", path)
    assert result.ok and result.ruleset is not None
    assert result.ruleset.name == "Short" and result.ruleset.key == "mine"
    assert "highest total" in result.rules_text
    assert not path.exists()  # checking never writes


def test_check_text_locates_a_typo_in_the_edited_text(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    text = "extends: three_thirteen\nname: Short\nmelds:\n  run:\n    mni: 4\n"
    result = check_text(text, path)
    assert not result.ok and result.ruleset is None and result.rules_text == ""
    [error] = result.errors_here()
    assert (error.line, error.column) == (5, 5)
    assert "unknown key `mni`" in error.message and "did you mean `min`" in error.message
    assert result.lines_with_errors() == {5}


def test_check_text_resolves_extends_in_the_given_players_folder(tmp_path: Path) -> None:
    mine = tmp_path / "ann"
    mine.mkdir()
    write(mine, "base.yaml", "extends: liverpool\nname: Ann's base\nbuying: {penalty_cards: 2}\n")
    result = check_text("extends: base\nname: Ann's game\n", mine / "next.yaml", user_dir=mine)
    assert result.ok and result.ruleset is not None
    assert result.ruleset.buying.penalty_cards == 2
    # without that folder the key is unknown, and the message says so where it is written
    lost = check_text("extends: base\nname: Ann's game\n", mine / "next.yaml")
    assert not lost.ok and "no ruleset named `base`" in lost.errors[0].message
    assert (lost.errors[0].line, lost.errors[0].column) == (1, 10)


def test_a_file_extending_itself_is_a_cycle_not_a_hang(tmp_path: Path) -> None:
    path = write(tmp_path, "loop.yaml", "extends: loop\nname: x\n")
    result = check_text(path.read_text(), path, user_dir=tmp_path)
    assert not result.ok and "cycle" in result.errors[0].message


# --- saving ------------------------------------------------------------------------------


def test_save_refuses_a_broken_text_and_keeps_the_good_file(tmp_path: Path) -> None:
    path = write(tmp_path, "mine.yaml", "extends: three_thirteen\nname: Good\n")
    before = path.read_text()
    result = save_checked(path, "extends: three_thirteen\nname: Good\nplayers: {min: 9, max: 2}\n")
    assert not result.ok and "greater than" in result.errors[0].message
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.yaml"]  # no temp file left


def test_save_writes_a_good_text_whole(tmp_path: Path) -> None:
    path = tmp_path / "new" / "mine.yaml"
    text = "extends: three_thirteen\nname: Better\ngoing_out: {bonus: -10}\n"
    result = save_checked(path, text)
    assert result.ok and path.read_text() == text
    assert load_ruleset(path).going_out.bonus == -10
    assert sorted(p.name for p in path.parent.iterdir()) == ["mine.yaml"]


# --- new files and variant names ---------------------------------------------------------


def test_new_variant_extends_its_base_by_key_and_loads_to_the_same_rules(tmp_path: Path) -> None:
    folder = tmp_path / "rulesets"
    path = new_ruleset_file("my_liverpool", folder, "liverpool", title="My Liverpool")
    text = path.read_text()
    assert text.startswith("# yaml-language-server: $schema=./ruleset.schema.json\n")
    assert "\nextends: liverpool\n" in text and (folder / "ruleset.schema.json").is_file()
    made, base = load_ruleset(path), load_ruleset("liverpool")
    assert made.name == "My Liverpool"
    assert (made.rounds, made.buying, made.melds, made.decks) == (
        base.rounds, base.buying, base.melds, base.decks)


def test_new_variant_of_a_players_own_ruleset_extends_it_by_key(tmp_path: Path) -> None:
    folder = tmp_path / "rulesets"
    first = new_ruleset_file("first", folder, "three_thirteen")
    first.write_text(first.read_text() + "\nend: {winner: highest}\n")
    second = new_ruleset_file("second", folder, "first")
    assert "\nextends: first\n" in second.read_text()
    assert load_ruleset(second, user_dir=folder).end.winner == "highest"


@pytest.mark.parametrize("base_key", ["odd: name #1", "evil\x1b]0;pwned\x07\x1b[2J\x9b31m"])
def test_a_variant_of_a_file_with_any_name_extends_it_in_valid_yaml(
        tmp_path: Path, base_key: str) -> None:
    """The base's key (its file name) went into the new file as written: `extends: odd:
    name #1` is not the YAML meant, and control characters are not YAML at all."""
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / f"{base_key}.yaml").write_text("extends: three_thirteen\nname: Odd\n")
    path = new_ruleset_file(free_name(base_key, folder), folder, base_key, title="Mine")
    text = path.read_text()
    assert all(ch.isprintable() or ch == "\n" for ch in text)
    made = load_ruleset(path, user_dir=folder)
    assert made.name == "Mine" and made.rounds == load_ruleset("three_thirteen").rounds


@pytest.mark.parametrize(
    ("name", "message"),
    [("bad name", "not a usable name"), ("liverpool", "bundled ruleset")],
)
def test_new_ruleset_file_refuses_unusable_names(tmp_path: Path, name: str, message: str) -> None:
    with pytest.raises(NewRulesetError, match=message):
        new_ruleset_file(name, tmp_path, "liverpool")
    assert not any(tmp_path.iterdir())


def test_new_ruleset_file_never_overwrites(tmp_path: Path) -> None:
    path = write(tmp_path, "mine.yaml", MINIMAL)
    with pytest.raises(NewRulesetError, match="already exists") as caught:
        new_ruleset_file("mine", tmp_path, "liverpool")
    assert caught.value.path == path and path.read_text() == MINIMAL


def test_free_name_skips_taken_names(tmp_path: Path) -> None:
    assert free_name("liverpool", tmp_path) == "my_liverpool"
    write(tmp_path, "my_liverpool.yaml", MINIMAL)
    write(tmp_path, "my_liverpool_2.yml", MINIMAL)
    assert free_name("liverpool", tmp_path) == "my_liverpool_3"
    assert free_name("my_liverpool", tmp_path) == "my_liverpool_3"  # no my_my_


# --- each player's own folder ------------------------------------------------------------


def test_player_folders_are_apart_and_safe(home: Path) -> None:
    names = ["ann", "Ann", "a/b", "a_b", "..", "", "Zoë", "x" * 60]
    folders = [player_rulesets_dir(n) for n in names]
    assert len(set(folders)) == len(names)
    root = home / "config" / "rulesets" / "players"
    for folder in folders:
        assert folder.parent == root and folder.name not in ("", ".", "..")
        assert all(ch.isalnum() or ch in "-_" for ch in folder.name)
    assert player_rulesets_dir("ann") == root / "ann"


def test_list_rulesets_shows_only_the_given_players_files(tmp_path: Path, home: Path) -> None:
    ann, bob = player_rulesets_dir("ann"), player_rulesets_dir("bob")
    new_ruleset_file("anns_game", ann, "three_thirteen")
    new_ruleset_file("bobs_game", bob, "liverpool")
    mine = [i.key for i in list_rulesets(ann) if i.origin == "user"]
    assert mine == ["anns_game"]
    assert [i.key for i in list_rulesets(bob) if i.origin == "user"] == ["bobs_game"]
    # the local player's folder holds the players' folders but no ruleset of theirs
    assert [i.key for i in list_rulesets() if i.origin == "user"] == []
    assert load_ruleset("bobs_game", user_dir=bob).buying.enabled


def test_confined_files_extend_only_keys_and_files_in_their_folder(tmp_path: Path) -> None:
    """On a shared server a player's file must not read other files through `extends`."""
    secret = write(tmp_path, "secret.yaml", MINIMAL.replace("Test game", "Owner's secret"))
    folder = tmp_path / "players" / "ann"
    folder.mkdir(parents=True)
    write(folder, "base.yaml", "extends: liverpool\nname: Ann's base\n")
    path = folder / "mine.yaml"
    for target in (str(secret), "../../secret.yaml", "~/secret.yaml", "../ann/../../secret.yaml"):
        result = check_text(f"extends: {target}\nname: x\n", path, folder, confine=True)
        [error] = result.errors
        assert "by its key" in error.message and result.rules_text == ""
        assert (error.line, error.column) == (1, 10)
    for target in ("base", "./base.yaml", "three_thirteen"):
        assert check_text(f"extends: {target}\nname: x\n", path, folder, confine=True).ok
    # a file in the folder that reaches out is refused when it is the parent, too
    write(folder, "sneaky.yaml", f"extends: {secret}\nname: y\n")
    assert not check_text("extends: sneaky\nname: x\n", path, folder, confine=True).ok
    sneaky = {i.key: i for i in list_rulesets(folder, confine=True)}["sneaky"]
    assert sneaky.error and "by its key" in sneaky.error
    # unconfined (a local player's own machine), paths are fine
    local = check_text(f"extends: {secret}\ndescription: mine\n", path, folder)
    assert local.ok and "Owner's secret" in local.rules_text


# --- files that try to hang or crash the loader ------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: &a [*a]\n", "refers to the value that contains it"),
        ("a: &a {b: *a}\n", "refers to the value that contains it"),
        ("a: " + "[" * 300 + "]" * 300 + "\n", "nest more than"),
        (
            "a: &a [x,x,x,x,x,x,x,x,x]\n"
            + "".join(
                f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n"
                for p, n in zip("abcdef", "bcdefg", strict=True)
            ),
            "more than 20000 values",
        ),
        ("extends: three_thirteen\nplayers: {min: 2, max: 99999999999999999999}\n", "at most 16"),
        ("extends: three_thirteen\ndecks: [{players: 2, decks: 100000000}]\n", "at most 16"),
        ("extends: three_thirteen\n? [a, b]\n: 1\n", "a key must be a name"),
    ],
)
def test_hostile_files_give_located_errors_quickly(tmp_path: Path, text: str, message: str) -> None:
    started = time.perf_counter()
    result = check_text(text, tmp_path / "evil.yaml")
    assert time.perf_counter() - started < 2.0
    assert not result.ok and any(message in e.message for e in result.errors), result.errors


_ALPHABET = list("ab:{}[]-#'\"\n 09.&*!|>,?") + ["null", "- ", ": ", "\t", "  ", "*x", "&x "]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(BUNDLED_TEXTS),
    st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 30), st.sampled_from(_ALPHABET)),
        min_size=1,
        max_size=5,
    ),
)
def test_any_edit_of_a_ruleset_checks_without_raising(
    tmp_path_factory: pytest.TempPathFactory, text: str, edits: list[tuple[float, int, str]]
) -> None:
    """Whatever a player types, checking gives located errors or a ruleset, never a crash."""
    for where, cut, insert in edits:
        at = int(where * len(text))
        text = text[:at] + insert + text[at + cut :]
    folder = tmp_path_factory.mktemp("edit")
    result = check_text(text, folder / "edit.yaml")
    assert result.ok == (result.ruleset is not None)
    assert all(e.line >= 0 and e.column >= 0 and e.message for e in result.errors)


# --- the deck check, worked out per entry ------------------------------------------------


def _short_counts_by_brute_force(data: dict) -> set[int]:
    """Player counts whose deal does not fit the deck in force for them."""
    specs = sorted(data["decks"], key=lambda s: s["players"])  # stable: later duplicate wins
    most = max(r["cards"] for r in data["rounds"])
    short = set()
    for count in range(data["players"]["min"], data["players"]["max"] + 1):
        spec = specs[0]
        for candidate in specs:
            if candidate["players"] <= count:
                spec = candidate
        if count * most + 2 > spec["decks"] * 52 + spec["jokers"]:
            short.add(count)
    return short


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 6),
    st.integers(2, 12),
    st.lists(
        st.tuples(st.integers(2, 12), st.integers(1, 3), st.integers(0, 5)), min_size=1, max_size=4
    ),
    st.integers(1, 40),
)
def test_deck_check_reports_exactly_the_short_player_counts(
    low: int, high: int, decks: list[tuple[int, int, int]], cards: int
) -> None:
    data = {
        "name": "x",
        "players": {"min": low, "max": high},
        "decks": [{"players": p, "decks": d, "jokers": j} for p, d, j in decks],
        "rounds": [{"cards": cards}],
    }
    doc, _ = compose_located(yaml.safe_dump(data), "f")
    reported: set[int] = set()
    for error in semantic_errors(doc, doc.data):
        if "does not fit the deck for " in error.message:
            who = error.message.split("does not fit the deck for ")[1].split(" players")[0]
            first, _, last = who.partition("-")
            reported |= set(range(int(first), int(last or first) + 1))
    assert reported == (_short_counts_by_brute_force(data) if low <= high else set())


def test_deck_check_with_a_huge_player_count_is_instant() -> None:
    text = MINIMAL.replace("max: 4", "max: 16")
    started = time.perf_counter()
    with pytest.raises(Exception, match="does not fit the deck for 8-16 players"):
        load_ruleset_text(text)
    assert time.perf_counter() - started < 1.0


# --- the rules text at a pane's width ----------------------------------------------------


@pytest.mark.parametrize("key", ["three_thirteen", "liverpool"])
def test_rules_text_fills_to_the_width_asked(key: str) -> None:
    from tui.engine.ruleset.text import describe_rules
    from tui.engine.ruleset.text_page import WIDTH

    rules = load_ruleset(key)
    wide = describe_rules(rules)
    assert describe_rules(rules, width=WIDTH) == wide
    assert max(len(line) for line in wide.splitlines()) <= WIDTH
    narrow = describe_rules(rules, width=40)
    table_rows = {line for line in wide.splitlines() if "  " in line.strip()}
    assert all(len(line) <= 40 for line in narrow.splitlines() if line not in table_rows)
    assert " ".join(narrow.split()) == " ".join(wide.split())  # the same words
    assert describe_rules(rules) == wide  # the width does not stick
