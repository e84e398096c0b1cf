"""The `rules show` words for `progression: per_player` (Phase 10): the rounds table is
then the list of phases, and the game ends when someone makes the last one."""

from __future__ import annotations

from ..rules import Ruleset


def phases_sentence(r: Ruleset) -> str | None:
    """The sentence under the rounds table, or None for a schedule of rounds."""
    if not r.per_player:
        return None
    return ("The rounds are phases, and each player is on their own: in every deal your "
            "contract is that of the phase you are on, and you move on to the next phase "
            "only by laying yours down in a deal.  Everyone starts on phase 1.")


def end_sentence(r: Ruleset, best: str) -> str | None:
    """How a game of phases ends, or None for a schedule of rounds."""
    if not r.per_player:
        return None
    last = len(r.rounds)
    return (f"The game ends after the deal in which a player lays down phase {last}, the "
            f"last (or after {r.end.max_rounds} deals at most, when the furthest phase "
            f"counts first).  Of the players who made the most phases, the {best} total "
            "wins.")
