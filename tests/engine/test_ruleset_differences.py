"""A house ruleset's "how this differs from the game it extends": the keys that changed,
and the sections of the rules text that read differently, generated from the two loaded
rulesets (no game named anywhere)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli import main
from tui.engine.ruleset import describe_differences, extended_ruleset, load_ruleset
from tui.engine.ruleset.differences import changed_keys


def house(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def test_one_changed_key_is_named_and_only_its_section_is_shown(tmp_path: Path) -> None:
    path = house(tmp_path, "long_runs", "extends: three_thirteen\nname: Long runs\n"
                 "melds:\n  run:\n    min: 4\n")
    child, parent = load_ruleset(path), extended_ruleset(path)
    assert parent is not None and parent.key == "three_thirteen"
    assert [(c.key, c.was, c.now) for c in changed_keys(parent, child)] == [
        ("melds.run.min", 3, 4)]
    text = describe_differences(parent, child)
    assert text.startswith("How Long runs differs from Three Thirteen\n")
    assert "melds.run.min: 3 → 4" in text
    assert "A run is 4 or more cards" in text
    for unchanged in ("Scoring\n---", "Your turn\n---", "Rounds\n---"):
        assert unchanged not in text


def test_the_name_alone_is_no_difference(tmp_path: Path) -> None:
    path = house(tmp_path, "same", "extends: contract_rummy\nname: Ours\n"
                 "description: the same game\n")
    text = describe_differences(extended_ruleset(path), load_ruleset(path))  # type: ignore[arg-type]
    assert "No rule differs: this is Contract Rummy under another name." in text


def test_liverpool_against_contract_rummy_reads_its_own_house_rules() -> None:
    parent = extended_ruleset("liverpool")
    assert parent is not None and parent.key == "contract_rummy"
    keys = {c.key for c in changed_keys(parent, load_ruleset("liverpool"))}
    assert {"melds.run.min", "buying.enabled", "draw.discard"} <= keys
    text = describe_differences(parent, load_ruleset("liverpool"))
    assert "Buying\n------" in text and "decks.3–6: 4 added" in text
    assert "Scoring\n-------" not in text
    assert len(text.splitlines()) < 80


def test_a_shorter_schedule_is_summed_up_and_a_new_key_shown(tmp_path: Path) -> None:
    path = house(tmp_path, "short", "extends: three_thirteen\nname: Short\n"
                 "rounds:\n  - {cards: 7, wild: [2]}\nend:\n  point_limit: 100\n")
    text = describe_differences(extended_ruleset(path), load_ruleset(path))  # type: ignore[arg-type]
    assert "rounds.2–11: 10 removed" in text
    assert "end.point_limit: (not set) → 100" in text


def test_extends_by_a_relative_path_finds_the_parent_file(tmp_path: Path) -> None:
    house(tmp_path, "base", "extends: three_thirteen\nname: Base\nmelds:\n  run:\n    min: 4\n")
    path = house(tmp_path, "child", "extends: ./base.yaml\nname: Child\n")
    parent = extended_ruleset(path)
    assert parent is not None and parent.name == "Base"
    assert extended_ruleset("three_thirteen") is None


def test_rules_show_diff_prints_the_differences(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = house(tmp_path, "long_runs", "extends: three_thirteen\nname: Long runs\n"
                 "melds:\n  run:\n    min: 4\n")
    assert main(["rules", "show", str(path), "--diff"]) == 0
    assert "melds.run.min: 3 → 4" in capsys.readouterr().out
    assert main(["rules", "show", "three_thirteen", "--diff"]) == 1
    assert "extends no other ruleset" in capsys.readouterr().err


def test_one_change_to_every_deal_of_the_schedule_is_one_line() -> None:
    path = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "wild_twos.yaml"
    parent = extended_ruleset(path)
    assert parent is not None
    text = describe_differences(parent, load_ruleset(path))
    keys = text.split("Keys changed\n------------\n")[1].split("\n\n")[0].splitlines()
    assert keys == ["  rounds.1–7.wild: (not set) → 2", "  scoring.values.2: 2 → 20"]
