"""Statistics over recorded games, from the people's side of the table.

Every seat a person sat in counts as one game played by that person (all people, or only
the one named by `player`); games between computer players alone are recorded but count
for nobody.  A game's *margin* says how clearly it was won or lost, whatever the scoring
direction: a winner's lead over the best of the rest (positive), or a loser's distance
behind the winner (negative).  Best and worst games are the largest and smallest margins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from .store import GameSummary

PEOPLE = "people"  # the "level" of opponents who are people
RECENT = 20


@dataclass
class Line:
    """One row of a statistics table: games played and won, points and rounds."""

    label: str
    played: int = 0
    won: int = 0
    points: int = 0
    rounds: int = 0

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def per_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0

    def add(self, result: Result) -> None:
        self.played += 1
        self.won += int(result.won)
        self.points += result.total
        self.rounds += result.rounds


@dataclass(frozen=True)
class Result:
    """One person's result in one recorded game."""

    game_id: int
    finished_at: datetime
    ruleset: str
    name: str
    seat: int
    total: int
    rounds: int
    won: bool
    margin: int
    opponents: tuple[str, ...]  # "Ben (medium)" ...
    levels: tuple[str, ...]  # distinct opponent levels, PEOPLE for people

    @property
    def mark(self) -> str:
        return "W" if self.won else "L"


@dataclass
class Stats:
    player: str | None  # None: every person
    games: int = 0  # recorded games, including those between computer players only
    overall: Line = field(default_factory=lambda: Line("all games"))
    by_ruleset: list[Line] = field(default_factory=list)
    by_level: list[Line] = field(default_factory=list)
    best: Result | None = None
    worst: Result | None = None
    recent: list[Result] = field(default_factory=list)  # oldest first


def margin(totals: Sequence[int], winners: Sequence[int], seat: int) -> int:
    """How clearly `seat` won (> 0) or lost (< 0); 0 for a tie everyone shares."""
    if seat in winners:
        others = [t for s, t in enumerate(totals) if s not in winners]
        if not others:
            return 0
        return min(abs(totals[seat] - t) for t in others)
    if not winners:
        return 0
    return -abs(totals[winners[0]] - totals[seat])


def results(summaries: Iterable[GameSummary], player: str | None = None) -> list[Result]:
    """Every person's result, oldest game first."""
    out = []
    for game in sorted(summaries, key=lambda g: (g.finished_at, g.id)):
        for seat, spec in enumerate(game.seats):
            if spec.bot is not None or (player is not None and spec.name != player):
                continue
            others = [s for s in range(len(game.seats)) if s != seat]
            levels = sorted({game.seats[s].bot or PEOPLE for s in others})
            out.append(Result(
                game_id=game.id,
                finished_at=game.finished_at,
                ruleset=game.ruleset_name,
                name=spec.name,
                seat=seat,
                total=game.totals[seat],
                rounds=game.rounds,
                won=seat in game.winners,
                margin=margin(game.totals, game.winners, seat),
                opponents=tuple(game.seats[s].label for s in others),
                levels=tuple(levels),
            ))
    return out


def summarize(summaries: Sequence[GameSummary], player: str | None = None,
              recent: int = RECENT) -> Stats:
    """The statistics screen's numbers (and `rummy stats`')."""
    stats = Stats(player=player, games=len(summaries))
    rulesets: dict[str, Line] = {}
    levels: dict[str, Line] = {}
    found = results(summaries, player)
    for result in found:
        stats.overall.add(result)
        rulesets.setdefault(result.ruleset, Line(result.ruleset)).add(result)
        for level in result.levels:
            levels.setdefault(level, Line(level)).add(result)
    stats.by_ruleset = sorted(rulesets.values(), key=lambda line: (-line.played, line.label))
    stats.by_level = sorted(levels.values(), key=lambda line: (line.label == PEOPLE, line.label))
    if found:
        # On equal margins the more recent game is shown.
        stats.best = max(reversed(found), key=lambda r: r.margin)
        stats.worst = min(reversed(found), key=lambda r: r.margin)
    stats.recent = found[-recent:] if recent > 0 else []
    return stats
