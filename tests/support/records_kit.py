"""Finished games for the records tests: short Three Thirteen games played by random bots."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from functools import cache
from pathlib import Path

from tui.bots import make_bot
from tui.bots.arena import play_game
from tui.engine.game import Game
from tui.engine.rules import Ruleset
from tui.engine.ruleset.loader import load_ruleset
from tui.records.record import GameRecord

T0 = 1_700_000_000.0  # a fixed start time, so records made in a test are reproducible


@cache
def short_rules(rounds: int = 3, key: str = "three_thirteen") -> Ruleset:
    """The bundled rules cut to their first rounds, so a bot game takes a fraction of a
    second (the record keeps these exact rules, whatever the bundled file says)."""
    rules = load_ruleset(key)
    return dataclasses.replace(rules, rounds=rules.rounds[:rounds],
                               name=f"{rules.name} (first {rounds})")


def finished_game(seed: int = 1, players: int = 2, rules: Ruleset | None = None) -> Game:
    rules = rules or short_rules()
    bots = [make_bot("random", seed * 100 + i) for i in range(players)]
    return play_game(rules, bots, seed, names=seat_names(players))


NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn")


def seat_names(players: int) -> list[str]:
    return list(NAMES[:players])


def seats(players: int = 2, person: int = 0, level: str = "random") -> list[tuple[str, str | None]]:
    """Seat 0 (or `person`) is a person, the others bots of `level`."""
    return [(name, None if i == person else level) for i, name in enumerate(seat_names(players))]


V1_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ruleset_key TEXT NOT NULL,
    ruleset_text TEXT NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,
    scores TEXT NOT NULL,
    winners TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    actions TEXT NOT NULL
);
CREATE INDEX games_finished ON games (finished_at);
PRAGMA user_version = 1;
"""


def write_v1_database(path: Path, records: list[GameRecord]) -> None:
    """A records file exactly as version 1 of the schema wrote it (one JSON-laden row per
    game, no uid, no seats table)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    for r in records:
        conn.execute(
            "INSERT INTO games (ruleset_key, ruleset_text, seed, players, scores, winners,"
            " started_at, finished_at, actions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (r.ruleset_key, r.ruleset_text, r.seed,
             json.dumps([{"name": s.name, "bot": s.bot} for s in r.seats]),
             json.dumps([list(p) for p in r.scores]), json.dumps(list(r.winners)),
             r.started_at.isoformat(), r.finished_at.isoformat(), json.dumps(list(r.actions))))
    conn.commit()
    conn.close()
