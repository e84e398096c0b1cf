"""Whole games played by bots, for the tests that watch a ruleset play to its end."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tui.engine.game import Game

Watch = Callable[[Game, object], None]


def play_out(game: Game, bots: Sequence, *, before: Watch | None = None,
             after: Watch | None = None, check_every_action: bool = False,
             actions: int = 200_000, label: str = "") -> Game:
    """`game` played to its end by `bots` (one a seat), each next deal dealt as the last
    ends: `before(game, action)` is called before each action is applied and
    `after(game, action)` after it.  Every card is checked to be in one place at the end,
    and after every action with `check_every_action`.  A game still going after `actions`
    actions fails the test (`label` says which game)."""
    for _ in range(actions):
        if game.phase == "game_over":
            game.check_conservation()
            return game
        if game.phase == "round_over":
            game.next_round()
            continue
        action = bots[game.actor].choose(game.view(game.actor))
        if before is not None:
            before(game, action)
        game.apply(action)
        if after is not None:
            after(game, action)
        if check_every_action:
            game.check_conservation()
    raise AssertionError(f"{label}the game did not end")
