"""Statistics over recorded games, and the `rummy stats` / `rummy replay` commands."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from records_kit import T0, finished_game, seats

from tui.cli import main
from tui.records import record_finished_game
from tui.records.base import SeatRecord
from tui.records.report import format_stats, table
from tui.records.stats import PEOPLE, margin, summarize
from tui.records.store import GameSummary

DAY0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def summary(gid: int, ruleset: str, seats_: list[tuple[str, str | None]], totals: list[int],
            winners: list[int], rounds: int = 3) -> GameSummary:
    when = DAY0 + timedelta(hours=gid)
    return GameSummary(id=gid, ruleset_key=ruleset.lower(), ruleset_name=ruleset,
                       seats=tuple(SeatRecord(n, b) for n, b in seats_), totals=tuple(totals),
                       winners=tuple(winners), rounds=rounds, started_at=when - timedelta(
                           minutes=20), finished_at=when)


GAMES = [
    # lowest wins: Ada wins by 10 over Ben
    summary(1, "Three Thirteen", [("Ada", None), ("Ben", "easy")], [40, 50], [0]),
    # Ada loses to a hard bot by 30
    summary(2, "Three Thirteen", [("Ada", None), ("Cy", "hard"), ("Ben", "easy")],
            [90, 60, 70], [1], rounds=4),
    # highest wins (another ruleset): Ada wins by 5
    summary(3, "Points Race", [("Zed", "hard"), ("Ada", None)], [95, 100], [1], rounds=2),
    # bots only: recorded, but counts for nobody
    summary(4, "Three Thirteen", [("B1", "easy"), ("B2", "hard")], [10, 20], [0]),
    # two people: Ada and Dora; Dora wins by 20 over Ada
    summary(5, "Three Thirteen", [("Ada", None), ("Dora", None)], [70, 50], [1]),
]


def test_margins_read_the_same_whatever_the_scoring_direction() -> None:
    assert margin([40, 50], [0], 0) == 10  # lowest wins
    assert margin([95, 100], [1], 1) == 5  # highest wins
    assert margin([90, 60, 70], [1], 0) == -30
    assert margin([90, 60, 70], [1], 1) == 10  # lead over the best of the rest
    assert margin([30, 30], [0, 1], 0) == 0  # a shared win
    assert margin([30, 30, 40], [0, 1], 1) == 10


def test_statistics_per_ruleset_and_per_opponent_level() -> None:
    stats = summarize(GAMES)
    assert stats.games == 5
    # Ada in 1, 2, 3, 5 and Dora in 5: five person-games, three won (1, 3 by Ada, 5 by Dora)
    assert (stats.overall.played, stats.overall.won) == (5, 3)
    by_rules = {line.label: line for line in stats.by_ruleset}
    assert (by_rules["Three Thirteen"].played, by_rules["Three Thirteen"].won) == (4, 2)
    assert (by_rules["Points Race"].played, by_rules["Points Race"].won) == (1, 1)
    assert by_rules["Three Thirteen"].per_round == pytest.approx((40 + 90 + 70 + 50) / 13)
    by_level = {line.label: (line.played, line.won) for line in stats.by_level}
    assert by_level == {"easy": (2, 1), "hard": (2, 1), PEOPLE: (2, 1)}
    assert [line.label for line in stats.by_level][-1] == PEOPLE
    assert stats.best is not None and stats.best.game_id == 5 and stats.best.margin == 20
    assert stats.worst is not None and stats.worst.game_id == 2 and stats.worst.margin == -30
    assert [r.game_id for r in stats.recent] == [1, 2, 3, 5, 5]


def test_statistics_for_one_player() -> None:
    stats = summarize(GAMES, player="Ada")
    assert (stats.overall.played, stats.overall.won) == (4, 2)
    assert stats.overall.points == 40 + 90 + 100 + 70
    assert stats.overall.per_round == pytest.approx(300 / 12)
    assert stats.best is not None and stats.best.game_id == 1
    assert stats.worst is not None and stats.worst.game_id == 2
    assert "".join(r.mark for r in stats.recent) == "WLWL"
    assert [r.game_id for r in summarize(GAMES, player="Ada", recent=2).recent] == [3, 5]


def test_no_games_gives_empty_statistics() -> None:
    stats = summarize([])
    assert stats.overall.played == 0 and stats.best is None and stats.recent == []
    assert "No finished games" in format_stats(stats)


def test_the_text_report_has_the_tables() -> None:
    text = format_stats(summarize(GAMES, player="Ada"), GAMES[:2], ascii_only=True)
    lines = text.splitlines()
    assert "Played 4, won 2 (50%)" in text
    row = next(line for line in lines if line.startswith("Points Race"))
    assert row.split() == ["Points", "Race", "1", "1", "100%", "50.0"]
    assert "Best game:  #1" in text and "won by 10" in text
    assert "Worst game: #2" in text and "lost by 30" in text
    assert "WLWL" in text
    assert any(line.lstrip().startswith("2 ") and "Cy (hard) 60" in line for line in lines)


def test_the_recent_results_count_their_games_in_good_english() -> None:
    """`rummy stats` after one game said "oldest first, 1 games" (issue 33)."""
    one = format_stats(summarize(GAMES[:1]))
    assert "Recent results (the last game):" in one and "1 games" not in one
    assert "Recent results (the last 5 games, oldest first):" in format_stats(summarize(GAMES))


def test_table_aligns_columns() -> None:
    out = table(("name", "n"), [["a", 1], ["long name", 100]], right=(1,))
    assert out == ["name         n", "---------  ---", "a            1", "long name  100"]


# ---------------------------------------------------------------------- commands



def test_rummy_stats_prints_the_summary(home: Path, capsys: pytest.CaptureFixture) -> None:
    games = [finished_game(seed=s) for s in (1, 2, 3)]
    for i, game in enumerate(games):
        record_finished_game(game, seats(), T0 + i * 1000)
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    won = sum(0 in g.winners for g in games)
    assert f"Played 3, won {won}" in out
    assert "By opponent level" in out and "random" in out
    assert "rummy replay ID" in out
    assert main(["stats", "--json", "--player", "Ada"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["overall"]["played"] == 3 and data["overall"]["won"] == won
    assert data["overall"]["points"] == sum(g.totals[0] for g in games)
    assert data["player"] == "Ada"


def test_rummy_stats_with_no_records(home: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["stats"]) == 0
    assert "0 games recorded" in capsys.readouterr().out


def test_rummy_stats_reports_a_damaged_file(home: Path, capsys: pytest.CaptureFixture) -> None:
    (home / "data").mkdir()
    (home / "data" / "records.sqlite3").write_bytes(b"junk" * 300)
    assert main(["stats"]) == 0
    captured = capsys.readouterr()
    assert "damaged" in captured.err and "0 games recorded" in captured.out


def test_rummy_replay_print_export_and_import(home: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture) -> None:
    game = finished_game(seed=4)
    record_id = record_finished_game(game, seats(), T0).record_id
    assert main(["replay", str(record_id), "--print"]) == 0
    out = capsys.readouterr().out
    names = ", ".join(f"{n} {t}" for n, t in zip(game.names, game.totals, strict=True))
    assert f"Final totals: {names}" in out
    assert "discarded" in out
    target = tmp_path / "out.rummy.json"
    assert main(["replay", "last", "--export", str(target)]) == 0
    assert target.exists() and str(target) in capsys.readouterr().out
    assert main(["replay", str(target), "--import"]) == 0
    assert f"already in your records (#{record_id})" in capsys.readouterr().out
    assert main(["replay", str(target), "--print"]) == 0
    assert f"Final totals: {names}" in capsys.readouterr().out


def test_rummy_replay_explains_what_is_wrong(home: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture) -> None:
    assert main(["replay", "last"]) == 1
    assert "no recorded games yet" in capsys.readouterr().err
    assert main(["replay", "42"]) == 1
    assert "no recorded game #42" in capsys.readouterr().err
    assert main(["replay", "nowhere.json"]) == 1
    assert "neither a recorded game's number nor a file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    assert main(["replay", str(bad)]) == 1
    assert "not a game record" in capsys.readouterr().err
