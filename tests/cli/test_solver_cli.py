"""`rummy solve`: text, --json, --jsonl, and clean errors (exit 2, no traceback)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]


def solve(capsys, *args: str, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["solve", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_output_names_melds_deadwood_and_going_out(capsys):
    code, out, err = solve(capsys, "--rules", "three_thirteen", "--round", "11",
                           "5H", "6H", "7H", "KS", "9C", "9D", "9S", "2C", "3C", "4C",
                           "KD", "JD", "QD", "8S")
    assert code == 0 and not err
    assert "round 11" in out and "Ks wild" in out
    assert "penalty:   8" in out
    assert "deadwood:  8S" in out
    assert "go out:    yes, discarding 9C" in out


def test_json_fields(capsys):
    hand = "4H 5H 6H 7S 7D 7C 9S".split()
    code, out, _ = solve(capsys, "--rules", "three_thirteen", "--round", "4", "--json", *hand)
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"round", "hand_size", "wild", "hand", "penalty", "melds", "deadwood",
                         "go_out", "discard", "contract"}
    assert data["round"] == 4 and data["hand_size"] == 6 and data["wild"] == ["6"]
    assert data["hand"] == hand
    assert data["penalty"] == 9 and data["deadwood"] == ["9S"]
    assert sorted(c for meld in data["melds"] for c in meld) == sorted(hand[:-1])
    assert data["contract"] is None
    assert data["go_out"] is True and data["discard"] == "9S"


def test_going_out_needs_the_hand_size_of_the_round(capsys):
    hand = "6H 7H 8H 9H 9C".split()  # round 3 deals 5: it goes out with 6 cards, not 5
    code, out, _ = solve(capsys, "--rules", "three_thirteen", "--round", "3", *hand)
    assert code == 0
    assert "go out:    no (a hand of 5 cards cannot: this round goes out from 6" in out
    code, out, _ = solve(capsys, "--rules", "three_thirteen", "--round", "3", "--json", *hand)
    assert json.loads(out)["go_out"] is False
    code, out, _ = solve(capsys, "--rules", "three_thirteen", "--round", "3", "--json",
                         *hand, "10H")
    assert json.loads(out)["go_out"] is True


def test_json_contract(capsys):
    hand = "7C 7D 7S JK 4H 5H 6H 8H QS QD QC 2D 3D".split()
    code, out, _ = solve(capsys, "--rules", "contract_rummy", "--round", "5", "--json", *hand)
    data = json.loads(out)
    assert data["contract"]["required"] == {"sets": 2, "runs": 1}
    assert data["contract"]["met"] is True
    assert len(data["contract"]["melds"]) == 3
    code, out, _ = solve(capsys, "--rules", "contract_rummy", "--round", "5", "--json",
                         "7C", "7D", "2S")
    assert json.loads(out)["contract"] == {"required": {"sets": 2, "runs": 1}, "met": False,
                                           "melds": []}


def test_jsonl_one_object_per_line_and_bad_lines_say_why(capsys, monkeypatch):
    lines = "7C 8C 9C\nZZ 7C\n\n3H 3S 3D\n7C 7C 7C 7C 7C\n"
    code, out, err = solve(capsys, "--rules", "three_thirteen", "--round", "1", "--jsonl",
                           stdin=lines, monkeypatch=monkeypatch)
    assert code == 0 and not err
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 5
    assert rows[0]["penalty"] == 0 and rows[0]["melds"] == [["7C", "8C", "9C"]]
    assert rows[1]["line"] == 2 and "ZZ" in rows[1]["error"]
    assert rows[2]["hand"] == [] and rows[2]["penalty"] == 0
    assert rows[3]["penalty"] == 0
    assert "5 copies of 7C" in rows[4]["error"]


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "no_such_rules", "--round", "1", "7C"], "no_such_rules"),
    (["--rules", "three_thirteen", "--round", "12", "7C"], "round 12"),
    (["--rules", "three_thirteen", "--round", "0", "7C"], "round 0"),
    (["--rules", "three_thirteen", "--round", "1", "7X"], "7X"),
    (["--rules", "three_thirteen", "--round", "1", "JK"], "JK"),
    (["--rules", "contract_rummy", "--round", "1", "7C", "7C", "7C"], "3 copies of 7C"),
    (["--rules", "three_thirteen", "--round", "1", "--jsonl", "7C"], "not both"),
])
def test_user_mistakes_are_one_clean_line(capsys, args, message):
    code, out, err = solve(capsys, *args)
    assert code == 2
    assert not out
    assert message in err and "Traceback" not in err
    assert err.startswith("rummy solve: error:")


def test_a_broken_ruleset_file_is_a_clean_error(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Bad\nrounds: 7\n")
    code, out, err = solve(capsys, "--rules", str(bad), "--round", "1", "7C")
    assert code == 2 and "Traceback" not in err and "bad.yaml" in err


def test_the_command_never_imports_the_ui():
    code = (
        "import sys\n"
        "from tui.cli import main\n"
        "assert main(['solve', '--rules', 'three_thirteen', '--round', '3', '5H', '6H']) == 0\n"
        "assert not any(m == 'textual' or m.startswith('textual.') for m in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
