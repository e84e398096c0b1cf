"""Consistency checks of `progression: per_player` (Phase 10): the rounds are phases,
each player on their own, all dealt in one deal, so every phase must deal alike; and the
phases are made by laying them down, so the game must let players lay down during play.
Each error is located at the key that breaks it."""

from __future__ import annotations

from typing import Any

from .build import expanded_rounds
from .checks_melds import Report, RoundPath

# the keys of a round every phase shares: one deal is dealt for players on several phases
DEALT_ALIKE = ("cards", "wild", "all_at_once", "going_out_discard")


def progression_errors(data: dict[str, Any], error: Report, round_path: RoundPath) -> None:
    if data.get("progression") != "per_player":
        return
    going_out = data.get("going_out")
    if isinstance(going_out, dict) and going_out.get("melding_during_play") is False:
        error("`progression: per_player` moves a player on by laying their phase down, but "
              "`going_out.melding_during_play` is false: nobody could ever make a phase "
              "(remove it, or `progression: schedule`)", ("progression",))
    rounds = data.get("rounds") if isinstance(data.get("rounds"), list) else []
    entries = expanded_rounds({**data, "rounds": rounds})
    if not entries or not isinstance(entries[0], dict):
        return
    first = entries[0]
    for index, entry in enumerate(entries[1:], start=1):
        if not isinstance(entry, dict):
            continue
        for key in DEALT_ALIKE:
            if entry.get(key) != first.get(key):
                error(f"with `progression: per_player` every phase is dealt in the same "
                      f"deal, so the rounds may differ only in `contract` and `melds`: round "
                      f"{index + 1}'s `{key}` differs from round 1's (write it in "
                      "`round_defaults` for all)", *round_path(index, key))
                break
