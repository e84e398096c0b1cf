"""Bounds that make every accepted ruleset playable in reasonable time, each located.

The schema and the consistency checks accept any ruleset that makes sense; these limits
refuse the ones that make sense only on paper: hands so large that no search can arrange
them between two key presses, card values so large that they overflow the solver's
weights, melds no hand can ever make.  A file may come from a stranger on a shared server,
so each limit says why it is there and what is allowed.  How long a game may run is not
judged here but during play (`game.MAX_GAME_MOVES`): a worst case no real game reaches is
no reason to refuse a file an earlier version accepted.
"""

from __future__ import annotations

from typing import Any

from .errors import LocatedError
from .marked_yaml import KeyPath, LocatedDoc

MAX_RULESET_BYTES = 64 * 1024  # the bundled rulesets are about 5 KB with their comments
MAX_NAME = 80
MAX_DESCRIPTION = 1000
MAX_HAND = 20  # cards dealt to a player: the bundled games deal at most 13
MAX_CARD_VALUE = 1000  # points of one card, either sign
MAX_BONUS = 10_000
MAX_POINT_LIMIT = 1_000_000
MAX_PENALTY_CARDS = 5  # cards a buyer also takes (hands grow by this per buy)
MIN_MELD = 2  # a "meld" of one card would make every card a meld
MAX_RUN = 13


def limit_errors(doc: LocatedDoc, data: dict[str, Any]) -> list[LocatedError]:
    """Every limit the (schema-checked) ruleset `data` breaks, located in `doc`."""
    found: list[LocatedError] = []

    def error(path: KeyPath, message: str) -> None:
        found.append(doc.value_loc(path).error(message))

    _texts(data, error)
    listed = data.get("rounds")
    rounds: list[Any] = listed if isinstance(listed, list) else []
    for index, entry in enumerate(rounds):
        for where, cards in _dealt(entry, index):
            if cards > MAX_HAND:
                error(where, f"{cards} cards in a hand is more than the {MAX_HAND} a game can "
                             "arrange in reasonable time")
    defaults = data.get("round_defaults")
    if isinstance(defaults, dict):
        for where, cards in _dealt(defaults, None):
            if cards > MAX_HAND:
                error(where, f"{cards} cards in a hand is more than the {MAX_HAND} a game can "
                             "arrange in reasonable time")
    _numbers(data, error)
    _melds(data, error)
    return found


def _texts(data: dict[str, Any], error: Any) -> None:
    name = data.get("name")
    if isinstance(name, str) and len(name) > MAX_NAME:
        error(("name",), f"a name of {len(name)} characters is too long (at most {MAX_NAME})")
    about = data.get("description")
    if isinstance(about, str) and len(about) > MAX_DESCRIPTION:
        error(("description",), f"a description of {len(about)} characters is too long "
                                f"(at most {MAX_DESCRIPTION})")


def _dealt(entry: Any, index: int | None) -> list[tuple[KeyPath, int]]:
    """(where, cards) for each hand size a round entry deals (a number, or a list of
    per-player-count entries)."""
    if not isinstance(entry, dict):
        return []
    base: KeyPath = ("rounds", index) if index is not None else ("round_defaults",)
    cards = entry.get("cards")
    if isinstance(cards, int) and not isinstance(cards, bool):
        return [((*base, "cards"), cards)]
    if isinstance(cards, list):
        return [((*base, "cards", i, "cards"), item["cards"]) for i, item in enumerate(cards)
                if isinstance(item, dict) and isinstance(item.get("cards"), int)]
    return []


def _section(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    value: Any = data
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _numbers(data: dict[str, Any], error: Any) -> None:
    scoring = _section(data, "scoring")
    for rank, points in _section(data, "scoring", "values").items():
        if isinstance(points, int) and abs(points) > MAX_CARD_VALUE:
            error(("scoring", "values", rank),
                  f"{points} points for one card is beyond ±{MAX_CARD_VALUE}")
    wild = scoring.get("wild_value")
    if isinstance(wild, int) and abs(wild) > MAX_CARD_VALUE:
        error(("scoring", "wild_value"), f"{wild} points for one card is beyond "
                                         f"±{MAX_CARD_VALUE}")
    bonus = _section(data, "going_out").get("bonus")
    if isinstance(bonus, int) and abs(bonus) > MAX_BONUS:
        error(("going_out", "bonus"), f"a bonus of {bonus} is beyond ±{MAX_BONUS}")
    limit = _section(data, "end").get("point_limit")
    if isinstance(limit, int) and limit > MAX_POINT_LIMIT:
        error(("end", "point_limit"), f"a point limit of {limit} is beyond "
                                      f"{MAX_POINT_LIMIT:,}")
    penalty = _section(data, "buying").get("penalty_cards")
    if isinstance(penalty, int) and penalty > MAX_PENALTY_CARDS:
        error(("buying", "penalty_cards"), f"{penalty} penalty cards per buy is more than "
                                           f"{MAX_PENALTY_CARDS} (every buy grows a hand)")


def _melds(data: dict[str, Any], error: Any) -> None:
    melds = _section(data, "melds")
    for kind in ("set", "run"):
        least = _section(melds, kind).get("min")
        if isinstance(least, int) and least < MIN_MELD:
            error(("melds", kind, "min"), f"a {kind} of {least} card would make every card a "
                                          f"meld; `melds.{kind}.min` is at least {MIN_MELD}")
    naturals = melds.get("min_natural")
    if not isinstance(naturals, int) or naturals <= 1:
        return
    largest = {kind: _largest(data, kind) for kind in ("set", "run")}
    if all(size is not None and naturals > size for size in largest.values()):
        error(("melds", "min_natural"),
              f"`min_natural: {naturals}` asks more natural cards of every meld than any meld "
              f"can hold (a set at most {largest['set']}, a run at most {largest['run']}): "
              "no meld could ever be made")


def _largest(data: dict[str, Any], kind: str) -> int | None:
    """The most cards a meld of `kind` can hold under the ruleset, None if unbounded."""
    spec = _section(data, "melds", kind)
    most = spec.get("max")
    if kind == "run":
        return min(most, MAX_RUN + 1) if isinstance(most, int) else MAX_RUN + 1
    if isinstance(most, int):
        return most
    if spec.get("distinct_suits"):
        return 4
    decks = [d.get("decks") for d in data.get("decks", []) if isinstance(d, dict)]
    counts = [d for d in decks if isinstance(d, int)]
    return 4 * max(counts) if counts else None
