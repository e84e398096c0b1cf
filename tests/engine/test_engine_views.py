"""Views are snapshots: a view taken earlier never changes as the game goes on, and every
field of a view is filled (views are built field by field for speed)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from tui.bots import make_bot
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.view import LogSoFar, SeatView


def play(game: Game, moves: int) -> None:
    bots = [make_bot("random", seat) for seat in range(game.players)]
    for _ in range(moves):
        if game.phase == "round_over":
            game.next_round()
            continue
        seat = game.actor
        game.apply(bots[seat].choose(game.view(seat)))


def test_a_view_keeps_the_log_as_it_was() -> None:
    game = Game(load_ruleset("three_thirteen"), ["a", "b", "c"], 5)
    before = game.view(0)
    frozen = tuple(before.log)
    play(game, 12)
    assert len(game.log) > len(frozen)
    assert len(before.log) == len(frozen)
    assert tuple(before.log) == frozen and before.log == frozen
    assert before.log[-1] == frozen[-1] and before.log[1:] == frozen[1:]
    with pytest.raises(IndexError):
        before.log[len(frozen)]
    after = game.view(0)
    assert after.log[: len(frozen)] == frozen
    assert after.log != before.log


def test_log_so_far_reads_like_a_tuple() -> None:
    events = ["a", "b", "c"]
    log = LogSoFar(events)  # type: ignore[arg-type]
    events += ["d", "e"]  # the game goes on
    assert list(log) == ["a", "b", "c"]
    assert log[-1] == "c" and log[::-1] == ("c", "b", "a") and log[5:] == ()
    assert log == ("a", "b", "c") and log != ("a", "b")
    assert hash(log) == hash(("a", "b", "c"))


def test_every_field_of_a_view_is_filled() -> None:
    game = Game(load_ruleset("contract_rummy"), ["a", "b", "c"], 2)
    play(game, 7)
    for seat in (-1, 0, 1, 2):
        view = game.view(seat)
        assert {f.name for f in fields(SeatView)} == set(vars(view))
