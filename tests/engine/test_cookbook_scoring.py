"""The cookbook's scoring recipes (Rummy 500, Gin, basic rummy going rummy) played to the
end by bots at their fewest and most players: every action legal (an illegal one raises),
every card in one place after every action, and a winner at the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_games import play_out

from tui.bots import make_bot
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset

COOKBOOK = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook"
RECIPES = ["rummy_500", "going_rummy", "gin"]
LEVELS = ["medium", "random", "easy", "hard"]


def play_to_the_end(key: str, players: int, seed: int) -> Game:
    rules = load_ruleset(COOKBOOK / f"{key}.yaml")
    bots = [make_bot(LEVELS[(seat + seed) % len(LEVELS)], seed * 10 + seat)
            for seat in range(players)]
    for bot in bots:
        if hasattr(bot, "steps"):
            bot.steps = 2  # quick and the same on any machine
        if hasattr(bot, "budget"):
            bot.budget = None
    game = Game(rules, [f"p{s}" for s in range(players)], seed)
    return play_out(game, bots, check_every_action=True,
                    label=f"{key}, {players} players, seed {seed}: ")


@pytest.mark.parametrize("key", RECIPES)
@pytest.mark.parametrize("end", ["min", "max"])
def test_a_scoring_recipe_plays_to_the_end_at_its_fewest_and_most_players(
        key: str, end: str) -> None:
    rules = load_ruleset(COOKBOOK / f"{key}.yaml")
    players = rules.players_min if end == "min" else rules.players_max
    game = play_to_the_end(key, players, seed=3)
    assert game.winners
    best = max(game.totals) if rules.end.winner == "highest" else min(game.totals)
    assert all(game.totals[s] == best for s in game.winners)
    limit = rules.end.point_limit
    assert limit is None or best >= limit or len(game.results) == rules.end.max_rounds


@pytest.mark.parametrize("key", ["rummy_500", "gin"])
def test_a_saved_game_loads_to_the_same_scores(key: str) -> None:
    """Who played each card is read from the log, which a loaded game replays."""
    from tui.engine.save import game_from_json, game_to_json

    game = play_to_the_end(key, 2, seed=5)
    loaded = game_from_json(game_to_json(game))
    assert loaded.results == game.results and loaded.totals == game.totals
    assert any(r.points[s] > 0 for r in game.results for s in range(2))
