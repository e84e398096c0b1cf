"""`rummy simulate`: whole games between bots, headless, for every bundled ruleset."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tui.bots.arena import run_match
from tui.cli import main
from tui.engine.ruleset.loader import load_ruleset

BUNDLED = ["three_thirteen", "contract_rummy", "liverpool", "three_thirteen_jokers"]


@pytest.mark.slow
@pytest.mark.parametrize("key", BUNDLED)
@pytest.mark.parametrize("end", ["min", "max"])
def test_hundred_seeded_games_at_min_and_max_players(key: str, end: str) -> None:
    """A soak: a hundred games end, each with a winner.  Whole games with a card check
    after every action run in the default suite (tests/engine/test_engine_properties.py)."""
    rules = load_ruleset(key)
    players = rules.players_min if end == "min" else rules.players_max
    result = run_match(rules, ["random"] * players, games=100, seed=players)
    assert result.games == 100
    assert sum(e.wins for e in result.entries) >= 100  # every game has a winner


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--rules", "three_thirteen", "--players", "3",
                 "--bots", "random,random,random", "--games", "4", "--seed", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4
    assert [s["bot"] for s in out["seats"]] == ["random"] * 3
    assert set(out["seats"][0]) >= {"bot", "mean_score", "wins"}
    assert out["games_per_second"] > 0 and out["seconds"] >= 0


def test_seeded_runs_repeat() -> None:
    rules = load_ruleset("contract_rummy")
    a = run_match(rules, ["random"] * 3, games=5, seed=9)
    b = run_match(rules, ["random"] * 3, games=5, seed=9)
    assert [e.scores for e in a.entries] == [e.scores for e in b.entries]


@pytest.mark.parametrize(("argv", "message"), [
    (["--bots", "random,wizard"], "unknown bot level"),
    (["--players", "9", "--bots", "random"], "players"),
    (["--rules", "no_such_game"], "no_such_game"),
])
def test_bad_arguments_are_clear_errors(argv: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", *argv, "--games", "1"])
    assert code == 2
    assert message in capsys.readouterr().err


def test_simulate_does_not_import_textual() -> None:
    code = ("import sys; from tui.cli import main; "
            "main(['simulate', '--games', '1', '--json']); "
            "assert not any(m.startswith('textual') for m in sys.modules), 'textual imported'")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize(("extra", "players"), [
    ("players: {min: 2, max: 2}\n", 2), ("", 3), ("players: {min: 4, max: 8}\n", 4)])
def test_the_default_table_is_one_the_rules_allow(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str, players: int) -> None:
    """A bug that happened: `rummy simulate --rules FILE` sat 3 players even where the file
    allows only 2, and refused its own default."""
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: three_thirteen\n{extra}", encoding="utf-8")
    assert main(["simulate", "--rules", str(path), "--games", "1", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["seats"]) == players
