"""Output that cannot drive the terminal: control characters from rulesets and records are
printed as visible escapes, characters the terminal's encoding lacks are replaced, `--export`
replaces only regular files, and odd arguments get a message instead of a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from records_kit import T0, finished_game, seats

from tui.cli import main
from tui.records import RecordStore
from tui.records.record import GameRecord
from tui.records.store import DB_NAME
from tui.terminal_text import masked, printable

REPO = Path(__file__).resolve().parents[2]
TITLE = "\x1b]0;pwned\x07"  # retitles the window
CLEAR = "\x1b[2J\x1b[H"  # clears the screen
CSI = "\x9b31m"  # the one-byte C1 form of ESC [
HOSTILE = f"Evil{TITLE}{CLEAR}{CSI}rules"



def controls(text: str) -> list[str]:
    return [ch for ch in text if ord(ch) < 32 and ch not in "\n\t" or 0x7F <= ord(ch) < 0xA0]


def house_rules(home: Path) -> Path:
    folder = home / "config" / "rulesets"
    folder.mkdir(parents=True)
    path = folder / "evil.yaml"
    escaped = HOSTILE.encode("unicode_escape").decode()
    path.write_text(f'extends: three_thirteen\nname: "{escaped}"\n'
                    f'description: "about {escaped}"\n"bad{escaped}key": 1\n')
    return path


def rummy(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_printable_escapes_controls_and_keeps_the_rest() -> None:
    assert printable("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert printable("x\x9by\u202ez") == "x\\x9by\\u202ez"
    assert printable("two\nlines", keep="\n") == "two\nlines"
    assert printable("Kő ♠ 10♦ — ok") == "Kő ♠ 10♦ — ok"


def test_masked_puts_one_mark_in_each_unsafe_characters_place() -> None:
    assert masked("a\x1b[2Jb\x9b\u202e\tc") == "a\ufffd[2Jb\ufffd\ufffd\tc"
    assert masked("Kő ♠ 10♦ — ok") == "Kő ♠ 10♦ — ok"


def test_rules_list_show_and_check_print_no_control_character(capsys, home: Path) -> None:
    path = house_rules(home)
    code, out, err = rummy(capsys, "rules", "check", str(path))
    assert code == 1 and "bad" in err
    assert controls(out + err) == [] and "\\x1b]0;pwned" in err
    path.write_text(path.read_text().splitlines()[0] + "\n" +
                    "\n".join(path.read_text().splitlines()[1:3]) + "\n")
    for args in (("rules", "list"), ("rules", "show", "evil"), ("rules", "show", "evil", "--yaml"),
                 ("rules", "check", str(path))):
        code, out, err = rummy(capsys, *args)
        assert code == 0, (args, err)
        assert controls(out + err) == [], args
        assert "Evil\\x1b]0;pwned" in out, args


def recorded_with_a_hostile_name(home: Path) -> int:
    store = RecordStore(home / "data" / DB_NAME)
    record_id = store.add(GameRecord.from_game(finished_game(seed=1), seats(), T0))
    conn = sqlite3.connect(home / "data" / DB_NAME)
    conn.execute("UPDATE seats SET name = ? WHERE game_id = ? AND seat = 0",
                 (HOSTILE, record_id))
    conn.execute("UPDATE games SET players = ?, ruleset_name = ? WHERE id = ?",
                 (json.dumps([{"name": HOSTILE, "bot": None}, {"name": "Ben", "bot": "random"}]),
                  HOSTILE, record_id))
    conn.commit()
    conn.close()
    return record_id


def test_stats_and_replay_print_no_control_character(capsys, home: Path) -> None:
    record_id = recorded_with_a_hostile_name(home)
    code, out, err = rummy(capsys, "stats")
    assert code == 0 and controls(out + err) == [] and "Evil\\x1b" in out
    code, out, err = rummy(capsys, "replay", str(record_id), "--print")
    assert code == 0 and controls(out + err) == [] and "Evil\\x1b" in out


@pytest.mark.parametrize("command", [
    ["simulate", "--rules", "three_thirteen", "--bots", "random,random", "--games", "1"],
    ["stats"],
    ["rules", "show", "contract_rummy"],
])
def test_an_ascii_terminal_gets_replacements_not_a_traceback(
        home: Path, command: list[str]) -> None:
    RecordStore(home / "data" / DB_NAME).add(
        GameRecord.from_game(finished_game(seed=1), [("Zoë ♠", None), ("Ben", "random")], T0))
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "RUMMY_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "tui", *command], cwd=REPO, env=env,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-500:]
    assert b"Traceback" not in done.stderr
    done.stdout.decode("ascii")  # nothing but ASCII reached the terminal


# ---------------------------------------------------------------------- --export


def exported_id(home: Path) -> str:
    store = RecordStore(home / "data" / DB_NAME)
    return str(store.add(GameRecord.from_game(finished_game(seed=2), seats(), T0)))


def test_export_refuses_to_replace_a_symlink_unless_forced(capsys, home: Path,
                                                           tmp_path: Path) -> None:
    number = exported_id(home)
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "game.rummy.json"
    link.symlink_to(target)
    code, _, err = rummy(capsys, "replay", number, "--export", str(link))
    assert code == 1 and "symbolic link" in err and "--force" in err
    assert link.is_symlink() and target.read_text() == "keep me"
    code, out, _ = rummy(capsys, "replay", number, "--export", str(link), "--force")
    assert code == 0 and "exported" in out
    assert not link.is_symlink() and '"rummy-tui-record"' in link.read_text()
    assert target.read_text() == "keep me"


def test_export_refuses_to_replace_a_pipe(capsys, home: Path, tmp_path: Path) -> None:
    number = exported_id(home)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    code, _, err = rummy(capsys, "replay", number, "--export", str(pipe))
    assert code == 1 and "a pipe" in err
    assert pipe.is_fifo()


def test_export_replaces_a_regular_file(capsys, home: Path, tmp_path: Path) -> None:
    number = exported_id(home)
    old = tmp_path / "old.rummy.json"
    old.write_text("an older export")
    code, _, _ = rummy(capsys, "replay", number, "--export", str(old))
    assert code == 0 and '"rummy-tui-record"' in old.read_text()


# ---------------------------------------------------------------------- odd arguments


@pytest.mark.parametrize(("args", "code", "says"), [
    (["replay", "9" * 40], 1, "there is no recorded game"),
    (["replay", "²"], 1, "neither a recorded game's number nor a file"),
    (["replay", "x" * 400], 1, "neither a recorded game's number nor a file"),
    (["rules", "new", "a" * 300], 2, "too long"),
    (["rules", "check", "/" + "a" * 300 + ".yaml"], 1, "too long"),
    (["rules", "new", "copy", "--from", "/" + "b" * 300 + ".yaml"], 1, "too long"),
])
def test_odd_arguments_get_a_message_not_a_traceback(capsys, args: list[str], code: int,
                                                     says: str) -> None:
    RecordStore().count()  # the records file exists
    got, out, err = rummy(capsys, *args)
    assert got == code and says in err, err


def test_a_game_that_does_not_end_is_reported_not_a_traceback(
        capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.bots.arena as arena

    monkeypatch.setattr(arena, "MAX_ACTIONS", 5)
    code, out, err = rummy(capsys, "simulate", "--rules", "three_thirteen", "--bots",
                           "random,random", "--games", "1")
    assert code == 1 and "did not end" in err and "Traceback" not in err
