"""Properties of every game, whatever the ruleset and whatever legal moves are made."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.bots import make_bot
from tui.engine.actions import IllegalAction
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.save import fingerprint

BUNDLED = ["three_thirteen", "contract_rummy", "liverpool", "three_thirteen_jokers"]


@cache
def rules(key: str):  # noqa: ANN201 - a Ruleset
    return load_ruleset(key)


def play_checked(key: str, players: int, seed: int, max_rounds: int | None = None) -> Game:
    """Random legal play, checking card conservation after every single action."""
    game = Game(rules(key), [f"P{i}" for i in range(players)], seed)
    bots = [make_bot("random", seed * 10 + i) for i in range(players)]
    for _ in range(100_000):
        game.check_conservation()
        if game.phase == "game_over":
            return game
        if game.phase == "round_over":
            if max_rounds is not None and game.round.number >= max_rounds:
                return game
            game.next_round()
            continue
        seat = game.actor
        view = game.view(seat)
        assert view.legal, f"seat {seat} has no legal action in phase {game.phase}"
        game.apply(bots[seat].choose(view))
    raise AssertionError("the game never ended")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(BUNDLED), seed=st.integers(0, 10**6), data=st.data())
def test_random_legal_play_conserves_cards_and_rounds_end(key: str, seed: int,
                                                         data: st.DataObject) -> None:
    r = rules(key)
    players = data.draw(st.integers(r.players_min, min(r.players_max, 5)))
    play_checked(key, players, seed, max_rounds=3)


@pytest.mark.parametrize("key", BUNDLED)
def test_whole_games_end_with_winners(key: str) -> None:
    r = rules(key)
    for players in (r.players_min, r.players_max):
        game = play_checked(key, players, seed=players)
        assert game.phase == "game_over"
        assert game.winners
        assert len(game.scores) == len(r.rounds)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), key=st.sampled_from(BUNDLED))
def test_illegal_actions_change_nothing(seed: int, key: str) -> None:
    """Every action of another seat, or out of phase, is refused and leaves no trace."""
    game = Game(rules(key), ["A", "B", "C"], seed)
    bots = [make_bot("random", seed + i) for i in range(3)]
    for _ in range(30):
        if game.phase not in ("draw", "play", "buy"):
            break
        actor = game.actor
        other = (actor + 1) % 3
        stolen = game.view(actor).legal[0]
        before = fingerprint(game)
        from dataclasses import replace

        with pytest.raises(IllegalAction):
            game.apply(replace(stolen, seat=other))
        assert fingerprint(game) == before
        game.apply(bots[actor].choose(game.view(actor)))


@pytest.mark.parametrize("key", BUNDLED)
def test_views_hide_other_hands(key: str) -> None:
    game = Game(rules(key), ["A", "B", "C"], 3)
    view = game.view(0)
    assert view.hand == tuple(game.round.hands[0])
    assert [p.hand_count for p in view.players] == [len(h) for h in game.round.hands]
    spectator = game.view(-1)
    assert spectator.hand == () and spectator.legal == ()
    # Nothing in a seat's view holds another seat's cards (but the table and the pile).
    others = {c.uid for s in (1, 2) for c in game.round.hands[s]}
    assert not others & {c.uid for c in view.hand}
    assert not others & {c.uid for c in view.discard}
