"""Statistics and game lists as plain-text tables, for `rummy stats` (no UI needed)."""

from __future__ import annotations

from collections.abc import Sequence

from .rows import AbandonedSummary
from .stats import Line, Result, Stats
from .store import GameSummary

BARS = "▁▂▃▄▅▆▇█"
ASCII_BARS = ".:-=+*#%"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]],
          right: Sequence[int] = ()) -> list[str]:
    """Columns padded to their widest cell; `right` lists the right-aligned columns."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        parts = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        return "  ".join(parts).rstrip()

    return [line(cells[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in cells[1:]]


def _line_rows(lines: Sequence[Line]) -> list[list[object]]:
    return [[ln.label, ln.played, ln.won, f"{ln.win_rate:.0%}", f"{ln.per_round:.1f}"]
            for ln in lines]


LINE_HEADERS = ("", "played", "won", "won %", "avg/round")


def result_bars(recent: Sequence[Result], ascii_only: bool = False) -> str:
    """One character per game, oldest first: its height the size of the margin."""
    glyphs = ASCII_BARS if ascii_only else BARS
    top = max((abs(r.margin) for r in recent), default=0)
    out = []
    for r in recent:
        level = round(abs(r.margin) / top * (len(glyphs) - 1)) if top else 0
        out.append(glyphs[level])
    return "".join(out)


def describe_result(result: Result | None) -> str:
    if result is None:
        return "-"
    how = f"won by {result.margin}" if result.margin > 0 else (
        "tied" if result.margin == 0 and result.won else f"lost by {-result.margin}")
    when = result.finished_at.astimezone().strftime("%Y-%m-%d")
    return (f"#{result.game_id} {when} {result.ruleset}: {result.name} {result.total} "
            f"({how}) vs {', '.join(result.opponents)}")


def format_stats(stats: Stats, games: Sequence[GameSummary] = (), ascii_only: bool = False,
                 abandoned: Sequence[AbandonedSummary] = (), shown: int | None = None
                 ) -> str:
    """The whole `rummy stats` report; `shown` caps the abandoned games listed (all are
    counted)."""
    who = stats.player or "all people"
    out = [f"Game records: {stats.games} game{'s' if stats.games != 1 else ''} recorded; "
           f"statistics for {who}."]
    if not stats.overall.played:
        out.append("No finished games with a person playing yet: play one, then look again.")
    else:
        o = stats.overall
        out.append(f"Played {o.played}, won {o.won} ({o.win_rate:.0%}); "
                   f"average {o.per_round:.1f} points per round.")
        out += ["", "By ruleset"]
        out += table(LINE_HEADERS, _line_rows(stats.by_ruleset), right=(1, 2, 3, 4))
        out += ["", "By opponent level"]
        out += table(LINE_HEADERS, _line_rows(stats.by_level), right=(1, 2, 3, 4))
        out += ["", f"Best game:  {describe_result(stats.best)}",
                f"Worst game: {describe_result(stats.worst)}"]
        if stats.recent:
            marks = "".join(r.mark for r in stats.recent)
            count = len(stats.recent)
            out += ["", "Recent results (the last game):" if count == 1 else
                    f"Recent results (the last {count} games, oldest first):",
                    f"  {marks}", f"  {result_bars(stats.recent, ascii_only)}  (margin)"]
    if games:
        out += ["", "Latest games (open one with `rummy replay ID`)"]
        out += table(("ID", "finished", "rules", "players", "winner", "rounds"),
                     [game_row(g) for g in games], right=(0, 5))
    if abandoned:
        count = len(abandoned)
        out += ["", f"Abandoned: {count} game{'s' if count != 1 else ''} given up unfinished "
                "(a new game was started over {0}; never counted as played)".format(
                    "it" if count == 1 else "them")]
        listed = abandoned[:shown] if shown is not None else abandoned
        if listed:
            out += table(ABANDONED_HEADERS, [abandoned_row(g) for g in listed], right=(0, 4))
    return "\n".join(out)


ABANDONED_HEADERS = ("ID", "given up", "rules", "players and points so far", "in deal")


def abandoned_row(game: AbandonedSummary) -> list[object]:
    """An abandoned game as table cells: id, when, rules, players with points, deal."""
    players = ", ".join(f"{s.label} {t}" for s, t in zip(game.seats, game.totals, strict=False))
    when = game.abandoned_at.astimezone().strftime("%Y-%m-%d %H:%M")
    return [game.id, when, game.ruleset_name, players, game.deal]


def game_row(game: GameSummary) -> list[object]:
    """A recorded game as table cells: id, when, rules, players with totals, winner."""
    players = ", ".join(f"{s.label} {t}" for s, t in zip(game.seats, game.totals, strict=False))
    winner = " & ".join(game.seats[w].name for w in game.winners if w < len(game.seats))
    when = game.finished_at.astimezone().strftime("%Y-%m-%d %H:%M")
    return [game.id, when, game.ruleset_name, players, winner or "-", game.rounds]
