"""`rummy rules`: list, show, check, schema, new — exit codes, messages, no UI imports."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from rulesets_helpers import MINIMAL, write

from tui.cli import main
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text
from tui.engine.ruleset.schema import rules_schema

REPO = Path(__file__).resolve().parents[2]



def rummy(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["rules", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_bundled_and_user_rulesets(capsys, home: Path) -> None:
    code, out, _ = rummy(capsys, "list")
    assert code == 0
    for key in ("three_thirteen", "contract_rummy", "liverpool", "three_thirteen_jokers"):
        assert key in out
    assert "(none yet" in out
    folder = home / "config" / "rulesets"
    folder.mkdir(parents=True)
    write(folder, "mine.yaml", MINIMAL.replace("Test game", "Mine"))
    write(folder, "broken.yaml", MINIMAL + "bogus_key: 1\n")
    code, out, _ = rummy(capsys)  # `rummy rules` alone lists too
    assert code == 0 and "mine" in out and "Mine" in out
    assert "broken" in out and "does not load" in out and "bogus_key" in out


def test_show_prints_rules_text(capsys) -> None:
    code, out, err = rummy(capsys, "show", "liverpool")
    assert code == 0 and err == ""
    assert out.startswith("Liverpool\n") and "Buying" in out and "A run is 4 or more" in out


def test_show_yaml_is_self_contained(capsys) -> None:
    code, out, _ = rummy(capsys, "show", "--yaml", "liverpool")
    assert code == 0 and "extends" not in out
    r = load_ruleset("liverpool")
    assert replace(load_ruleset_text(out), key=r.key, source=r.source) == r


def test_show_unknown_ruleset_is_a_clean_error(capsys) -> None:
    code, out, err = rummy(capsys, "show", "nope")
    assert code == 1 and out == ""
    assert "no ruleset named `nope`" in err and "Traceback" not in err


def test_check_valid_files(capsys) -> None:
    files = sorted(str(p) for p in (REPO / "rulesets").glob("*.yaml"))
    code, out, err = rummy(capsys, "check", *files)
    assert code == 0 and err == ""
    assert out.count(": ok (") == len(files) == 4


def test_check_reports_located_errors_on_stderr(capsys, tmp_path: Path) -> None:
    good = write(tmp_path, "good.yaml", MINIMAL)
    bad = write(tmp_path, "bad.yaml", MINIMAL.replace("{cards: 7}", "{cards: 7, wild_rnak: [3]}"))
    code, out, err = rummy(capsys, "check", str(good), str(bad))
    assert code == 1
    assert f"{good}: ok (Test game)" in out
    assert f"{bad}:6:16: unknown key `wild_rnak`" in err


def test_check_missing_file_is_a_clean_error(capsys, tmp_path: Path) -> None:
    code, _, err = rummy(capsys, "check", str(tmp_path / "missing.yaml"))
    assert code == 1 and "no such ruleset file" in err and "Traceback" not in err


def test_check_unreadable_file_is_a_clean_error(capsys, tmp_path: Path) -> None:
    folder = tmp_path / "dir.yaml"
    folder.mkdir()
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    code, _, err = rummy(capsys, "check", str(folder), str(binary))
    assert code == 1 and "Traceback" not in err
    assert str(folder) in err and f"{binary}: cannot read" in err


def test_schema_prints_the_json_schema(capsys) -> None:
    code, out, _ = rummy(capsys, "schema")
    assert code == 0 and json.loads(out) == rules_schema()


def test_new_from_base_writes_an_extending_starter(capsys, home: Path) -> None:
    code, out, _ = rummy(capsys, "new", "big_liverpool", "--from", "liverpool")
    path = Path(out.strip())
    assert code == 0 and path == home / "config" / "rulesets" / "big_liverpool.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    schema_file = path.parent / "ruleset.schema.json"
    assert lines[0] == "# yaml-language-server: $schema=./ruleset.schema.json"
    assert json.loads(schema_file.read_text(encoding="utf-8")) == rules_schema()
    assert "extends: liverpool" in lines
    made = load_ruleset("big_liverpool")
    base = load_ruleset("liverpool")
    assert made.name == "Big liverpool"
    assert (
        replace(
            made, name=base.name, description=base.description, key=base.key, source=base.source
        )
        == base
    )
    # the commented keys are real: uncommenting one changes the game
    text = path.read_text(encoding="utf-8").replace("#   penalty_cards: 1", "  penalty_cards: 2")
    text = text.replace("# buying:", "buying:")
    path.write_text(text, encoding="utf-8")
    assert load_ruleset("big_liverpool").buying.penalty_cards == 2


def test_new_refuses_to_overwrite(capsys, home: Path) -> None:
    assert rummy(capsys, "new", "mine", "--from", "three_thirteen")[0] == 0
    path = home / "config" / "rulesets" / "mine.yaml"
    before = path.read_text(encoding="utf-8")
    code, out, err = rummy(capsys, "new", "mine")
    assert code == 1 and out == "" and "already exists" in err
    assert path.read_text(encoding="utf-8") == before


def test_new_without_base_is_a_complete_game(capsys) -> None:
    code, out, _ = rummy(capsys, "new", "scratch")
    assert code == 0
    text = Path(out.strip()).read_text(encoding="utf-8")
    assert "\nextends:" not in text
    ruleset = load_ruleset("scratch")
    assert ruleset.name == "Scratch" and len(ruleset.rounds) >= 1


def test_new_from_a_file_path_extends_by_path(capsys, tmp_path: Path) -> None:
    base = write(tmp_path, "base.yaml", MINIMAL)
    code, out, _ = rummy(capsys, "new", "derived", "--from", str(base))
    assert code == 0
    assert f"extends: {base.resolve()}" in Path(out.strip()).read_text(encoding="utf-8")
    assert load_ruleset("derived").players_max == 4


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["new", "bad name!"], 2, "not a usable name"),
        (["new", "three_thirteen"], 1, "bundled ruleset"),
        (["new", "x", "--from", "nothing_like_it"], 1, "no ruleset named"),
    ],
)
def test_new_mistakes(capsys, args: list[str], code: int, message: str) -> None:
    got, out, err = rummy(capsys, *args)
    assert got == code and message in err and out == "" and "Traceback" not in err


def test_commands_never_import_textual(tmp_path: Path) -> None:
    script = """
import sys, json
from tui.cli import main
codes = [main(a) for a in (["rules", "list"], ["rules", "show", "three_thirteen"],
         ["rules", "check", "three_thirteen"], ["rules", "schema"],
         ["rules", "new", "fresh", "--from", "contract_rummy"])]
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "textual")
print(json.dumps({"codes": codes, "textual": loaded}), file=sys.stderr)
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={"RUMMY_HOME": str(tmp_path / "h"), "PATH": "", "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report == {"codes": [0, 0, 0, 0, 0], "textual": []}


def test_installed_entry_point_style_run(tmp_path: Path) -> None:
    """`python -m tui rules check` on a bad file: exit 1, located error, no traceback."""
    bad = write(
        tmp_path, "bad.yaml", "name: X\nplayers: {min: 2, max: 4}\ndecks: oops\nrounds: []\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "tui", "rules", "check", str(bad)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={"RUMMY_HOME": str(tmp_path / "h"), "PATH": "", "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{bad}:3:8: `decks` must be a list" in done.stderr
    assert f"{bad}:4:9: `rounds` needs at least 1 entry" in done.stderr
