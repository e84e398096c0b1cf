"""Consistency checks of the meld keys (`schema_melds`, and a round's own in
`schema_rounds`): a round's own meld rules are checked like the game's (a set minimum
above its maximum), and a contract may not ask for a kind of meld its round does not
allow.  Each error is located at the key causing it, in the round where it is written (or
in `round_defaults`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..meld import MELD_KINDS
from .build import expanded_rounds
from .marked_yaml import KeyPath, deep_merge, get_key

COLOUR_KEY = ("melds", "set", "one_colour")
Report = Callable[..., None]  # (message, *paths): an error located at the first path
RoundPath = Callable[..., tuple[KeyPath, ...]]  # (index, *keys): where a round's key is
HandLimit = Callable[[int], tuple[int | None, str]]  # cards dealt -> most held, and why


def _count(value: Any) -> int:
    if isinstance(value, list):
        return len(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def meld_errors(data: dict[str, Any], error: Report, round_path: RoundPath,
                hand_limit: HandLimit | None = None) -> None:
    """Report every meld key that cannot hold with the others."""
    game: dict[str, Any] = data["melds"] if isinstance(data.get("melds"), dict) else {}
    if get_key(game, "set", "allowed") is False and get_key(game, "run", "allowed") is False:
        error("`melds.set.allowed` and `melds.run.allowed` are both false: no meld could "
              "ever be made (allow one kind, for example `run: {allowed: true}`)",
              ("melds", "set", "allowed"))
    rounds = data.get("rounds") if isinstance(data.get("rounds"), list) else []
    for index, entry in enumerate(expanded_rounds({**data, "rounds": rounds})):
        if not isinstance(entry, dict):
            continue
        number = index + 1
        own = entry.get("melds")
        melds: dict[str, Any] = deep_merge(game, own) if isinstance(own, dict) else game
        if isinstance(own, dict):
            for kind in MELD_KINDS:
                low, high = get_key(melds, kind, "min"), get_key(melds, kind, "max")
                if isinstance(low, int) and isinstance(high, int) and low > high:
                    what = "group of one colour" if kind == "colour" else kind
                    error(f"round {number}'s melds: a {what} of at least {low} cards and at "
                          f"most {high} cannot be made (`melds.{kind}.min` above "
                          f"`melds.{kind}.max`)",
                          *round_path(index, "melds", kind, "min"),
                          *round_path(index, "melds", kind, "max"))
            if (get_key(own, "set", "allowed") is False
                    and get_key(melds, "run", "allowed") is False
                    or get_key(own, "run", "allowed") is False
                    and get_key(melds, "set", "allowed") is False):
                error(f"round {number} allows neither sets nor runs: no meld could be made "
                      "there", *round_path(index, "melds"))
        _two_colour_suits(entry, number, melds, own, error, round_path(index, *COLOUR_KEY))
        for kind, key in (("set", "sets"), ("run", "runs")):
            wanted = _count(get_key(entry, "contract", key, default=0))
            if wanted and get_key(melds, kind, "allowed") is False:
                other = "runs" if kind == "set" else "sets"
                error(f"round {number}'s contract asks for {wanted} {key}, but "
                      f"`melds.{kind}.allowed` is false there ({other} only): ask for "
                      f"{other} instead, or allow {key} in that round",
                      *round_path(index, "contract", key), *round_path(index, "contract"))
        _patterns(entry, number, melds, error, round_path(index, "contract", "any_of"),
                  hand_limit)


def _patterns(entry: dict[str, Any], number: int, melds: dict[str, Any], error: Report,
              where: tuple[KeyPath, ...], hand_limit: HandLimit | None) -> None:
    """Each pattern of `contract.any_of`: of kinds the round allows, within the hand."""
    patterns = get_key(entry, "contract", "any_of")
    if not isinstance(patterns, list):
        return
    cards = entry.get("cards")
    if isinstance(cards, list):
        counts = [e.get("cards") for e in cards if isinstance(e, dict)]
        cards = max((c for c in counts if isinstance(c, int)), default=None)
    most, grows = hand_limit(cards) if hand_limit and isinstance(cards, int) else (None, "")
    for k, pattern in enumerate(patterns):
        at = tuple((*path, k) for path in where if path[-1] == "any_of") + where
        needed = 0
        for kind, key in (("set", "sets"), ("run", "runs")):
            value = get_key(pattern, key, default=0)
            least = get_key(melds, kind, "min", default=3)
            sizes = ([s.get("size") if isinstance(s, dict) else s for s in value]
                     if isinstance(value, list) else [least] * _count(value))
            needed += sum(s for s in sizes if isinstance(s, int))
            if sizes and get_key(melds, kind, "allowed") is False:
                error(f"round {number}'s contract pattern {k + 1} asks for {key}, but "
                      f"`melds.{kind}.allowed` is false there", *at)
        if most is not None and needed > most:
            error(f"round {number}'s contract pattern {k + 1} needs at least {needed} cards "
                  f"but a hand holds at most {most} (the {cards} dealt plus one "
                  f"drawn{grows})", *at)


def _two_colour_suits(entry: dict[str, Any], number: int, melds: dict[str, Any], own: Any,
                      error: Report, in_round: tuple[KeyPath, ...]) -> None:
    """A set of one colour with distinct suits holds at most 2 cards (a colour has two
    suits): a larger set minimum, or a contract set of more, can never be made.  Located at
    `one_colour` where the round writes it, else the game's."""
    if not (get_key(melds, "set", "one_colour") is True
            and get_key(melds, "set", "distinct_suits") is True):
        return
    where = in_round if get_key(own, "set", "one_colour") is not None else (COLOUR_KEY,)
    least = get_key(melds, "set", "min", default=3)
    sets = get_key(entry, "contract", "sets", default=0)
    sizes = [s.get("size") if isinstance(s, dict) else s for s in sets] \
        if isinstance(sets, list) else []
    biggest = max([least, *[s for s in sizes if isinstance(s, int)]]) \
        if isinstance(least, int) else None
    if biggest is not None and biggest > 2:
        error(f"round {number}: a set of one colour with distinct suits holds at most 2 "
              f"cards (a colour has two suits), so a set of {biggest} can never be made "
              "(drop `melds.set.distinct_suits` or `one_colour`, or ask for sets of 2)",
              *where)
