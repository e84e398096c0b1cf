"""Bots playing whole games against each other, headless: for `rummy simulate`, for
measuring strength, and for shaking out engine bugs across thousands of seeded games."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tui.collector_pauses import CollectorPauses
from tui.engine.actions import Action
from tui.engine.game import Game
from tui.engine.rules import Ruleset
from tui.engine.view import SeatView

from . import Bot, make_bot
from .budget import clock

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

    def to_json(self) -> dict[Any, Any]:
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


# ---------------------------------------------------------------------------- pairings


@dataclass
class PairingResult:
    """Level `a` against level `b` over mirrored deals.

    Each deal (one seed) is played twice at the same table: first with `a` in the even seats
    and `b` in the odd ones, then the other way round, so both levels play every seat and
    every hand of the deal.  The margin of a deal is `b`'s mean score per game minus `a`'s
    over both games (positive: `a` did better, when the lowest total wins); the margins of
    the deals are independent, which gives an honest standard error."""

    rules: str
    a: str
    b: str
    players: int
    deals: int
    a_scores: list[int] = field(default_factory=list)  # every game total an `a` seat made
    b_scores: list[int] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)  # per deal
    a_wins: float = 0.0  # games won (shared wins split)
    seconds: float = 0.0
    cpu: dict[str, list[float]] = field(default_factory=dict)  # per level: CPU per decision
    wall: dict[str, list[float]] = field(default_factory=dict)  # ... and wall-clock
    collector: dict[str, list[float]] = field(default_factory=dict)  # ... the CPU of that
    # decision that went on garbage collections (the interpreter's, not the bot's own work)

    @property
    def games(self) -> int:
        return 2 * self.deals

    @property
    def a_mean(self) -> float:
        return sum(self.a_scores) / len(self.a_scores) if self.a_scores else 0.0

    @property
    def b_mean(self) -> float:
        return sum(self.b_scores) / len(self.b_scores) if self.b_scores else 0.0

    @property
    def margin(self) -> float:
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def margin_stderr(self) -> float:
        n = len(self.margins)
        if n < 2:
            return 0.0
        mean = self.margin
        return math.sqrt(sum((m - mean) ** 2 for m in self.margins) / (n - 1) / n)

    def merge(self, other: PairingResult) -> None:
        self.deals += other.deals
        self.a_scores += other.a_scores
        self.b_scores += other.b_scores
        self.margins += other.margins
        self.a_wins += other.a_wins
        self.seconds += other.seconds
        for mine, theirs in ((self.cpu, other.cpu), (self.wall, other.wall),
                             (self.collector, other.collector)):
            for level, times in theirs.items():
                mine.setdefault(level, []).extend(times)

    def to_json(self) -> dict[Any, Any]:
        return {
            "rules": self.rules, "a": self.a, "b": self.b, "players": self.players,
            "deals": self.deals, "games": self.games,
            "a_mean_score": round(self.a_mean, 3), "b_mean_score": round(self.b_mean, 3),
            "margin": round(self.margin, 3), "margin_stderr": round(self.margin_stderr, 3),
            "a_win_share": round(self.a_wins / self.games, 4) if self.deals else None,
            "seconds": round(self.seconds, 3),
        }


class TimedBot(Bot):
    """A bot whose every decision's CPU time (of the deciding thread) and wall time are
    written down, for decision-time figures, with the part of that CPU time the garbage
    collector took: a full collection lands in whichever decision allocates past the
    threshold, and it walks the whole process's heap, not the bot's."""

    def __init__(self, bot: Bot, cpu: list[float], wall: list[float],
                 collector: list[float] | None = None) -> None:
        super().__init__()
        self.bot = bot
        self.level = bot.level  # type: ignore[misc]
        self._cpu = cpu
        self._wall = wall
        self._collector = collector if collector is not None else []

    def choose(self, view: SeatView) -> Action:
        cpu, wall = clock(), time.perf_counter()
        with CollectorPauses(clock) as pauses:  # inside the timing: its share is a part
            action = self.bot.choose(view)
        self._cpu.append(clock() - cpu)
        self._wall.append(time.perf_counter() - wall)
        self._collector.append(pauses.total())
        return action


def run_pairing(rules: Ruleset, a: str, b: str, deals: int, seed: int = 0, players: int = 4,
                first_deal: int = 0,
                make: Callable[[str, int], Bot] | None = None,
                timed: bool = False) -> PairingResult:
    """Play deals `first_deal` … `first_deal + deals - 1` twice each, mirrored (see
    `PairingResult`).  `make(level, seed)` builds the bots (default `make_bot`); with
    `timed`, every decision's time is kept in the result (`cpu`, `wall`, `collector`)."""
    made = make or make_bot
    result_times: tuple[dict[str, list[float]], ...] = ({}, {}, {})

    def build(level: str, bot_seed: int) -> Bot:
        bot = made(level, bot_seed)
        if not timed:
            return bot
        return TimedBot(bot, *(times.setdefault(level, []) for times in result_times))
    sign = 1 if rules.end.winner == "lowest" else -1
    result = PairingResult(rules.key or rules.name, a, b, players, 0)
    started = time.perf_counter()
    for k in range(first_deal, first_deal + deals):
        deal_seed = seed * 1_000_003 + k
        a_total = b_total = 0.0
        a_n = b_n = 0
        for flip in (0, 1):
            is_a = [(s + flip) % 2 == 0 for s in range(players)]
            bots = [build(a if mine else b, deal_seed * 31 + flip * 7 + s)
                    for s, mine in enumerate(is_a)]
            game = play_game(rules, bots, deal_seed)
            share = 1 / len(game.winners) if game.winners else 0.0
            for seat, mine in enumerate(is_a):
                total = game.totals[seat]
                if mine:
                    result.a_scores.append(total)
                    a_total += total
                    a_n += 1
                    if seat in game.winners:
                        result.a_wins += share
                else:
                    result.b_scores.append(total)
                    b_total += total
                    b_n += 1
        result.margins.append(sign * (b_total / b_n - a_total / a_n))
        result.deals += 1
    result.seconds = time.perf_counter() - started
    result.cpu, result.wall, result.collector = result_times
    return result
