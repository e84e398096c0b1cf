"""Every shipped ruleset (bundled and cookbook) plays whole games at its smallest and largest
table: random legal moves to the end, every card in exactly one place throughout,
every move the engine offers accepted, a move out of turn refused without a change, and
never a live turn with nothing to do (a turn that cannot end by the rules)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tui.engine.actions import DrawStock, IllegalAction
from tui.engine.game import Game
from tui.engine.ruleset import load_ruleset
from tui.engine.save import fingerprint

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
FILES = sorted(RULESETS.rglob("*.yaml"))
CASES = [(path, players) for path in FILES
         for players in sorted({load_ruleset(path).players_min, load_ruleset(path).players_max})]
IDS = [f"{path.relative_to(RULESETS).with_suffix('')}-{players}p" for path, players in CASES]
PROBE_EVERY = 97  # actions between two out-of-turn probes (a fingerprint costs a little)
CHECK_EVERY = 13  # actions between two card counts: a card lost or doubled stays so


def play_whole_game(path: Path, players: int, seed: int) -> Game:
    game = Game(load_ruleset(path), [f"P{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    actions = 0
    while game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
            game.check_conservation()
            continue
        seat = game.actor
        legal = game.legal_actions(seat)
        assert legal, f"deal {game.round.number}: {game.names[seat]} has no legal move"
        game.apply(rng.choice(legal))  # raises if the engine refuses what it offered
        actions += 1
        if actions % CHECK_EVERY == 0:
            game.check_conservation()
        if actions % PROBE_EVERY == 0 and game.actor >= 0:
            other = (game.actor + 1) % players
            before = fingerprint(game)
            with pytest.raises(IllegalAction):
                game.apply(DrawStock(other))
            assert fingerprint(game) == before
        assert actions < 50_000, "the game does not end"
    assert game.winners
    assert len(game.results) == game.round.number
    return game


@pytest.mark.parametrize(("path", "players"), CASES, ids=IDS)
def test_whole_game_at_min_and_max_players(path: Path, players: int) -> None:
    play_whole_game(path, players, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize(("path", "players"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", range(2, 12))
def test_many_whole_games_at_min_and_max_players(path: Path, players: int, seed: int) -> None:
    play_whole_game(path, players, seed)
