"""Bots playing whole games against each other, headless: for `rummy simulate`, for
measuring strength, and for shaking out engine bugs across thousands of seeded games."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from tui.engine.game import Game
from tui.engine.rules import Ruleset

from . import Bot, make_bot

MAX_ACTIONS = 200_000  # far beyond any real game: reaching it means the engine is stuck


class StuckGame(RuntimeError):
    """A game that stopped making progress: always a bug."""


def play_game(rules: Ruleset, bots: Sequence[Bot], seed: int,
              names: Sequence[str] | None = None) -> Game:
    """Play one game to the end between `bots` (seat order) and return it."""
    game = Game(rules, list(names or [f"{b.level}-{i}" for i, b in enumerate(bots)]), seed)
    for _ in range(MAX_ACTIONS):
        if game.phase == "game_over":
            return game
        if game.phase == "round_over":
            game.next_round()
            continue
        seat = game.actor
        game.apply(bots[seat].choose(game.view(seat)))
    raise StuckGame(f"seed {seed}: no end after {MAX_ACTIONS} actions")


@dataclass
class EntryStats:
    """Results of one entry of the line-up (one bot level), wherever it sat."""

    bot: str
    scores: list[int] = field(default_factory=list)
    wins: int = 0

    @property
    def mean_score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def stderr(self) -> float:
        n = len(self.scores)
        if n < 2:
            return 0.0
        mean = self.mean_score
        var = sum((s - mean) ** 2 for s in self.scores) / (n - 1)
        return math.sqrt(var / n)


@dataclass
class MatchResult:
    games: int
    entries: list[EntryStats]
    seconds: float

    def to_json(self) -> dict:
        return {
            "games": self.games,
            "seats": [
                {"bot": e.bot, "mean_score": round(e.mean_score, 3), "wins": e.wins,
                 "stderr": round(e.stderr, 3)}
                for e in self.entries
            ],
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 3) if self.seconds else None,
        }


def run_match(rules: Ruleset, levels: Sequence[str], games: int, seed: int = 0) -> MatchResult:
    """Play `games` games with one bot per entry of `levels`, rotating the seats each game
    so no entry profits from a seat."""
    n = len(levels)
    entries = [EntryStats(level) for level in levels]
    started = time.perf_counter()
    for g in range(games):
        order = [(s + g) % n for s in range(n)]  # seat -> entry
        bots = [make_bot(levels[e], seed * 7919 + g * 97 + s) for s, e in enumerate(order)]
        game = play_game(rules, bots, seed + g)
        for seat, entry in enumerate(order):
            entries[entry].scores.append(game.totals[seat])
            if seat in game.winners:
                entries[entry].wins += 1
    return MatchResult(games, entries, time.perf_counter() - started)
