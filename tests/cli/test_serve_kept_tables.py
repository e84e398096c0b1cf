"""`rummy serve --list-tables` and `--drop-table N`: the host's look at the kept games."""

from __future__ import annotations

from pathlib import Path

from records_kit import short_rules

from tui.cli import main
from tui.commands.serve import tables_folder
from tui.engine.game import Game
from tui.service.kept_tables import KeptHeader, SqliteTables


def keep_one(table_id: int) -> None:
    game = Game(short_rules(), ["alice", "bob"], 4)
    game.apply(game.legal_actions(game.actor)[0])
    seats = [{"person": "alice", "owner": "key:SHA256:x", "rejoin_code": None, "bot": None,
              "name": "alice"},
             {"person": None, "owner": "", "rejoin_code": None, "bot": "medium",
              "name": "Ben"}]
    SqliteTables(tables_folder()).begin(
        table_id, KeptHeader("three_thirteen", "medium", "alice", 1.8e9), game, seats,
        []).close()


def test_listing_and_dropping_kept_games(capsys, home: Path) -> None:
    assert main(["serve", "--list-tables"]) == 0
    assert "No kept games" in capsys.readouterr().out
    keep_one(4)
    (tables_folder() / "table-6.sqlite").write_text("\x1b[31mnot a table")
    assert main(["serve", "--list-tables"]) == 0
    out = capsys.readouterr().out
    assert "   4  Three Thirteen (first 3), deal 1 of 3" in out
    assert "alice (key), Ben (bot)" in out
    assert "   6  cannot be loaded" in out and "\x1b" not in out
    assert main(["serve", "--drop-table", "5"]) == 2
    assert "no kept table 5" in capsys.readouterr().err
    assert main(["serve", "--drop-table", "6"]) == 0
    assert "kept table 6 dropped" in capsys.readouterr().out
    assert sorted(p.name for p in tables_folder().iterdir()
                  if p.suffix == ".sqlite") == ["table-4.sqlite"]


def test_the_help_says_what_survives_a_restart(capsys) -> None:
    try:
        main(["serve", "--help"])
    except SystemExit:
        pass
    out = capsys.readouterr().out
    for words in ("--list-tables", "--drop-table", "kept tables:", "same hands, turn and"):
        assert words in out
