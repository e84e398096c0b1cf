"""Consistency checks of the scoring keys beyond penalty points (going out "rummy",
knocking and gin, melder scoring): a key that could never take effect with the keys
beside it is an error at that key (gin without a laying-down limit to knock under, an
undercut with nobody collecting, and so on)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .marked_yaml import KeyPath, get_key

Report = Callable[..., None]  # (message, *paths): an error located at the first path


def scoring_errors(data: dict[str, Any], error: Report) -> None:
    """Report every scoring key that cannot take effect with the others."""
    limit = get_key(data, "going_out", "deadwood_limit", default=0)
    melding = get_key(data, "going_out", "melding_during_play", default=True)
    knocking = isinstance(limit, int) and limit > 0 and melding is False
    need = ("needs knocking: `going_out.deadwood_limit` above 0 with "
            "`going_out.melding_during_play: false` (for example `deadwood_limit: 10`)")
    knock_keys: list[tuple[KeyPath, bool]] = [
        (("going_out", "gin_bonus"), get_key(data, "going_out", "gin_bonus", default=0) != 0),
        (("going_out", "big_gin_bonus"),
         get_key(data, "going_out", "big_gin_bonus") is not None),
        (("lay_off", "onto_knocker"), get_key(data, "lay_off", "onto_knocker") is True),
        (("scoring", "undercut_bonus"), get_key(data, "scoring", "undercut_bonus") is not None),
    ]
    for path, written in knock_keys:
        if written and not knocking:
            error(f"`{'.'.join(map(str, path))}` {need}", path)
    discard = get_key(data, "going_out", "discard", default="optional")
    if get_key(data, "going_out", "big_gin_bonus") is not None and discard != "optional":
        error(f"`going_out.big_gin_bonus` needs `going_out.discard: optional` (big gin goes "
              f"out with no discard), not {discard}", ("going_out", "big_gin_bonus"))
    collects = get_key(data, "scoring", "out_player_collects", default=False) is True
    if get_key(data, "scoring", "undercut_bonus") is not None and not collects:
        error("`scoring.undercut_bonus` needs `scoring.out_player_collects: true`: the undercut "
              "turns who collects", ("scoring", "undercut_bonus"))
    melded = get_key(data, "scoring", "melded", default="none")
    if melded == "plus" and collects:
        error("`scoring.melded: plus` and `scoring.out_player_collects: true` cannot both "
              "hold: under melder scoring each player keeps their own points (write "
              "`out_player_collects: false`)", ("scoring", "melded"))
    if get_key(data, "scoring", "low_ace_value") is not None and melded != "plus":
        error("`scoring.low_ace_value` needs `scoring.melded: plus`: it is what a melded ace "
              "scores low in a run", ("scoring", "low_ace_value"))


def scoring_warnings(data: dict[str, Any], warn: Report) -> None:
    """Warn of scoring keys that are legal together but almost surely not meant."""
    if (get_key(data, "scoring", "melded") == "plus"
            and get_key(data, "end", "winner", default="lowest") == "lowest"):
        warn("`scoring.melded: plus` makes melds score for you, but `end.winner` is lowest, "
             "so the player who melds least wins (write `end.winner: highest`)",
             ("scoring", "melded"))
