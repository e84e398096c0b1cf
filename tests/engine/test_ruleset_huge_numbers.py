"""A number longer than Python reads (4,300 digits) is a located error like any other
(issue 32: the loader raised Python's `ValueError`, and `rules check`, `rules list`,
`simulate` and the app's Rules screen crashed; one such file broke the whole list)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulesets_helpers import errors_of, write

from tui.app.rules_reading import read_rules
from tui.cli import main
from tui.engine.ruleset import list_rulesets

HUGE = "9" * 5000


def huge_file(folder: Path, where: str = "value") -> Path:
    body = (f"end: {{point_limit: {HUGE}}}\n" if where == "value"
            else f"rounds:\n  - cards: 3\n    wild: [{HUGE}]\n")
    return write(folder, "huge.yaml", "extends: three_thirteen\n" + body)


@pytest.mark.parametrize(("where", "at"), [("value", (2, 20)), ("list", (4, 12))])
def test_a_number_too_long_to_read_is_a_located_error(tmp_path: Path, where: str,
                                                       at: tuple[int, int]) -> None:
    (error,) = errors_of(huge_file(tmp_path, where))
    assert (error.line, error.column) == at
    assert error.message.startswith("a number of 5,000 digits is far too long")


def test_rules_check_and_simulate_report_it(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = huge_file(tmp_path)
    assert main(["rules", "check", str(path)]) == 1
    assert f"{path}:2:20: a number of 5,000 digits" in capsys.readouterr().err
    assert main(["simulate", "--rules", str(path), "--games", "1"]) != 0
    assert f"{path}:2:20: a number of 5,000 digits" in capsys.readouterr().err


def test_one_such_file_in_the_rules_folder_leaves_the_list_whole(home: Path) -> None:
    folder = home / "config" / "rulesets"
    folder.mkdir(parents=True, exist_ok=True)
    huge_file(folder)
    write(folder, "fine.yaml", "extends: three_thirteen\nname: Fine\n")
    infos = {info.key: info for info in list_rulesets(folder)}
    assert infos["fine"].error is None and infos["three_thirteen"].error is None
    assert "a number of 5,000 digits" in (infos["huge"].error or "")
    rules, why = read_rules(infos["huge"], folder)  # the Rules screen's reading
    assert rules is None and "a number of 5,000 digits" in why
