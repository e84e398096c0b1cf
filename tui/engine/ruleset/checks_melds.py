"""Consistency checks of the meld keys kept in `schema_melds`: a round's own meld rules
are checked like the game's (a set minimum above its maximum), and a contract may not ask
for a kind of meld its round does not allow.  Each error is located at the key causing it,
in the round where it is written (or in `round_defaults`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .build import expanded_rounds
from .marked_yaml import KeyPath, deep_merge

Report = Callable[..., None]  # (message, *paths): an error located at the first path
RoundPath = Callable[..., tuple[KeyPath, ...]]  # (index, *keys): where a round's key is


def _get(data: Any, *keys: str, default: Any = None) -> Any:
    value = data
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return default
        value = value[key]
    return value


def _count(value: Any) -> int:
    if isinstance(value, list):
        return len(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def meld_errors(data: dict[str, Any], error: Report, round_path: RoundPath) -> None:
    """Report every meld key that cannot hold with the others."""
    game = data.get("melds") if isinstance(data.get("melds"), dict) else {}
    if _get(game, "set", "allowed") is False and _get(game, "run", "allowed") is False:
        error("`melds.set.allowed` and `melds.run.allowed` are both false: no meld could "
              "ever be made (allow one kind, for example `run: {allowed: true}`)",
              ("melds", "set", "allowed"))
    rounds = data.get("rounds") if isinstance(data.get("rounds"), list) else []
    for index, entry in enumerate(expanded_rounds({**data, "rounds": rounds})):
        if not isinstance(entry, dict):
            continue
        number = index + 1
        own = entry.get("melds")
        melds = deep_merge(game, own) if isinstance(own, dict) else game
        if isinstance(own, dict):
            for kind in ("set", "run"):
                low, high = _get(melds, kind, "min"), _get(melds, kind, "max")
                if isinstance(low, int) and isinstance(high, int) and low > high:
                    error(f"round {number}'s melds: a {kind} of at least {low} cards and at "
                          f"most {high} cannot be made (`melds.{kind}.min` above "
                          f"`melds.{kind}.max`)",
                          *round_path(index, "melds", kind, "min"),
                          *round_path(index, "melds", kind, "max"))
            if _get(own, "set", "allowed") is False and _get(melds, "run", "allowed") is False \
                    or _get(own, "run", "allowed") is False and \
                    _get(melds, "set", "allowed") is False:
                error(f"round {number} allows neither sets nor runs: no meld could be made "
                      "there", *round_path(index, "melds"))
        for kind, key in (("set", "sets"), ("run", "runs")):
            wanted = _count(_get(entry, "contract", key, default=0))
            if wanted and _get(melds, kind, "allowed") is False:
                other = "runs" if kind == "set" else "sets"
                error(f"round {number}'s contract asks for {wanted} {key}, but "
                      f"`melds.{kind}.allowed` is false there ({other} only): ask for "
                      f"{other} instead, or allow {key} in that round",
                      *round_path(index, "contract", key), *round_path(index, "contract"))
