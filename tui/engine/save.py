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


def game_to_json(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        # Self-contained: a ruleset that `extends` another must not depend on that file.
        "rules": {"key": game.rules.key, "standalone": standalone_yaml(game.rules),
                  "source": game.rules.source},
        "names": game.names,
        "seed": game.seed,
        "round": game.round.number,
        "actions": [a.to_json() for a in game.history],
        "fingerprint": fingerprint(game),
    }


def game_from_json(data: Any) -> Game:
    """Rebuild a game by replaying its actions; `SaveError` if anything does not fit,
    including a state that differs from the one the save was made in."""
    game = replay_moves(data)
    if fingerprint(game) != data.get("fingerprint"):
        raise SaveError("the save file does not match the game its moves replay to")
    return game


def replay_moves(data: Any) -> Game:
    """Play a saved game's moves through its rules; `SaveError` if they do not replay.
    Whether the result is the state that was saved is `game_from_json`'s check."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a rummy-tui saved game")
    if data.get("version") != VERSION:
        raise SaveError(f"saved by an unknown version ({data.get('version')!r})")
    try:
        rules_data = data["rules"]
        rules = load_ruleset_text(rules_data.get("standalone", rules_data["source"]),
                                  file=f"<saved {rules_data['key']}>", key=rules_data["key"])
        rules = replace(rules, source=str(rules_data["source"]))
        game = Game(rules, [str(n) for n in data["names"]], int(data["seed"]))
        for raw in data["actions"]:
            action = action_from_json(raw)
            if game.phase == "round_over":
                game.next_round()
            game.apply(action)
        while game.phase == "round_over" and game.round.number < int(data["round"]):
            game.next_round()
    except RulesetError as exc:
        raise SaveError(f"the saved ruleset is no longer valid:\n{exc}") from exc
    except IllegalAction as exc:
        raise SaveError(f"the saved moves do not replay: {exc}") from exc
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise SaveError(f"the save file is damaged ({exc})") from exc
    return game


def save_game(game: Game, path: Path) -> None:
    """Write atomically, so a crash mid-write never leaves a broken save behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(game_to_json(game)), encoding="utf-8")
    tmp.replace(path)


def load_game(path: Path) -> Game:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path} is damaged: {exc.msg} at line {exc.lineno}") from exc
    return game_from_json(data)
