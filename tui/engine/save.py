"""Saving a game and loading it back to the identical state.

A game is deterministic given its ruleset, players, seed and actions, so a save file holds
exactly those, plus a fingerprint of the state they lead to.  Loading replays the actions
through the rules; a file that is damaged, edited or from a ruleset that has since changed
is reported with a `SaveError` and nothing is half-loaded.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from .actions import IllegalAction, action_from_json
from .game import Game
from .rules import Ruleset
from .ruleset import RulesetError, load_ruleset_text, standalone_yaml

FORMAT = "rummy-tui-game"
VERSION = 1


class SaveError(Exception):
    """A save file that cannot be loaded, and why."""


def fingerprint(game: Game) -> str:
    """A digest of where every card is and of the scores: equal states, equal digests."""
    st = game.round
    parts = [
        st.number, st.phase, st.turn, game.dealer, game.totals,
        [c.uid for c in st.stock], [c.uid for c in st.discard],
        [[c.uid for c in hand] for hand in st.hands],
        [[m.id, m.owner, [c.uid for c in m.cards], [list(f) for f in m.stands_for]]
         for m in st.table],
    ]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


_STANDALONE: dict[int, tuple[Ruleset, str]] = {}  # by ruleset object: YAML, made once


def _standalone(rules: Ruleset) -> str:
    """The ruleset as self-contained YAML, made once per ruleset object (a game is saved
    after every move, and dumping the YAML was most of the cost)."""
    hit = _STANDALONE.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_STANDALONE) > 32:
            _STANDALONE.clear()
        hit = _STANDALONE[id(rules)] = (rules, standalone_yaml(rules))
    return hit[1]


def game_to_json(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        # Self-contained: a ruleset that `extends` another must not depend on that file.
        "rules": {"key": game.rules.key, "standalone": _standalone(game.rules),
                  "source": game.rules.source},
        "names": game.names,
        "seed": game.seed,
        "round": game.round.number,
        "actions": [a.to_json() for a in game.history],
        "fingerprint": fingerprint(game),
    }


MAX_SEED = 2**63  # seeds are whole numbers below this in size (the app draws below 2**31)
MAX_SAVE_BYTES = 64 * 1024 * 1024  # far beyond any real game; a bigger file is not a save


def game_from_json(data: Any) -> Game:
    """Rebuild a game by replaying its actions; `SaveError` if anything does not fit,
    including a state that differs from the one the save was made in."""
    game = replay_moves(data)
    if fingerprint(game) != data.get("fingerprint"):
        raise SaveError("the save file does not match the game its moves replay to")
    return game


def replay_moves(data: Any) -> Game:
    """Play a saved game's moves through its rules; `SaveError` if they do not replay.
    Whether the result is the state that was saved is `game_from_json`'s check.

    Every value is checked for its type and range before it is used, so a damaged or
    hand-edited file is refused in one line and never half-loaded."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a rummy-tui saved game")
    if data.get("version") != VERSION:
        raise SaveError(f"saved by an unknown version ({_short(data.get('version'))})")
    rules_data = _field(data, "rules", dict)
    key = _field(rules_data, "key", str)
    source = _field(rules_data, "source", str)
    standalone = rules_data.get("standalone", source)
    if not isinstance(standalone, str):
        raise _damaged("its ruleset is not text")
    names = _field(data, "names", list)
    if not all(isinstance(n, str) for n in names):
        raise _damaged("a player's name is not text")
    seed = whole_number(data, "seed", -MAX_SEED, MAX_SEED)
    last_round = whole_number(data, "round", 1, MAX_SEED)
    actions = _field(data, "actions", list)
    try:
        rules = load_ruleset_text(standalone, file=f"<saved {key}>", key=key)
        rules = replace(rules, source=source)
        game = Game(rules, names, seed)
        for raw in actions:
            action = action_from_json(raw)
            if game.phase == "round_over":
                game.next_round()
            game.apply(action)
        while game.phase == "round_over" and game.round.number < last_round:
            game.next_round()
    except RulesetError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "it does not load"
        raise SaveError(f"the saved ruleset is no longer valid ({first})") from exc
    except IllegalAction as exc:
        raise SaveError(f"the saved moves do not replay: {exc}") from exc
    except (AttributeError, KeyError, TypeError, ValueError, ArithmeticError,
            RecursionError) as exc:
        raise _damaged(_short(exc)) from exc
    return game


def whole_number(data: dict[str, Any], key: str, low: int, high: int) -> int:
    """`data[key]` if it is a whole number (not a bool, not a float) in [low, high)."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _damaged(f"{key} is not a whole number")
    if not low <= value < high:
        raise _damaged(f"{key} is out of range")
    return value


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise _damaged(f"no {key}" if value is None else f"{key} is not a {kind.__name__}")
    return value


def _damaged(reason: str) -> SaveError:
    return SaveError(f"the save file is damaged ({reason})")


def _short(value: object, limit: int = 80) -> str:
    """A value or an error in one short line, for a message."""
    text = str(value) if isinstance(value, BaseException) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def read_save_json(path: Path) -> Any:
    """The JSON document in a save file; `SaveError` in one line if it cannot be read
    (missing, unreadable, too big, not UTF-8, not JSON, nested or numbered absurdly)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SAVE_BYTES + 1)
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(f"{path} is damaged (far too big for a saved game)")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SaveError(f"{path} is damaged (not UTF-8 text at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path} is damaged: {exc.msg} at line {exc.lineno}") from exc
    except (ValueError, RecursionError) as exc:  # e.g. a 5,000-digit number, deep nesting
        raise SaveError(f"{path} is damaged ({_short(exc)})") from exc
