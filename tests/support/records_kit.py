"""Finished games for the records tests: short Three Thirteen games played by random bots."""

from __future__ import annotations

import dataclasses
from functools import cache

from tui.bots import make_bot
from tui.bots.arena import play_game
from tui.engine.game import Game
from tui.engine.rules import Ruleset
from tui.engine.ruleset.loader import load_ruleset

T0 = 1_700_000_000.0  # a fixed start time, so records made in a test are reproducible


@cache
def short_rules(rounds: int = 3, key: str = "three_thirteen") -> Ruleset:
    """The bundled rules cut to their first rounds, so a bot game takes a fraction of a
    second (the record keeps these exact rules, whatever the bundled file says)."""
    rules = load_ruleset(key)
    return dataclasses.replace(rules, rounds=rules.rounds[:rounds],
                               name=f"{rules.name} (first {rounds})")


def finished_game(seed: int = 1, players: int = 2, rules: Ruleset | None = None) -> Game:
    rules = rules or short_rules()
    bots = [make_bot("random", seed * 100 + i) for i in range(players)]
    return play_game(rules, bots, seed, names=seat_names(players))


NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn")


def seat_names(players: int) -> list[str]:
    return list(NAMES[:players])


def seats(players: int = 2, person: int = 0, level: str = "random") -> list[tuple[str, str | None]]:
    """Seat 0 (or `person`) is a person, the others bots of `level`."""
    return [(name, None if i == person else level) for i, name in enumerate(seat_names(players))]
