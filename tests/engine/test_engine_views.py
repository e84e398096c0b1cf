"""Views are snapshots: a view taken earlier never changes as the game goes on, and every
field of a view is filled (views are built field by field for speed)."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from tui.bots import make_bot
from tui.engine.cards import Card
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


def test_a_deal_past_the_schedule_plays_its_row_again() -> None:
    """Three rows, point limit: deal 4 plays row 1, deal 5 row 2, with that row's wilds."""
    from table_rig import goto_deal

    base = load_ruleset("three_thirteen")
    rules = replace(base, rounds=base.rounds[:3],
                    end=replace(base.end, point_limit=10_000, max_rounds=20))
    game = Game(rules, ["a", "b"], 3)
    goto_deal(game, 5)
    view = game.view(0)
    assert (view.deal, view.schedule_round) == (5, 2)
    assert view.round == rules.rounds[1]
    wild_rank = rules.rounds[1].wild[0]
    assert view.is_wild(Card(wild_rank, "S"))
    assert not view.is_wild(Card(rules.rounds[0].wild[0], "S"))
    assert all(e.deal == 5 for e in view.deal_events())
    assert view.deal_events()[0].kind == "deal"


def test_the_view_answers_what_a_card_scores_and_what_may_go() -> None:
    rules = load_ruleset("three_thirteen")
    fixed = replace(rules, scoring=replace(rules.scoring, wild_unmelded="fixed", wild_value=25))
    game = Game(fixed, ["a", "b"], 4)
    view = game.view(game.actor)
    wild = Card(view.round.wild[0], "H")
    assert view.card_points(wild) == 25
    assert view.card_points(Card(13, "H")) == rules.value(13)
    assert view.discardable == ()  # the draw comes first
    game.apply(next(a for a in view.legal if a.kind == "draw_stock"))
    after = game.view(view.seat)
    assert {c.uid for c in after.discardable} == {c.uid for c in after.hand}
    assert after.going_out_discard == rules.going_out.discard


def test_a_listing_of_an_older_state_never_serves_the_next_one(monkeypatch) -> None:  # noqa: ANN001
    """A front end lists a seat's moves in a worker while its own thread may play the next
    action: a listing that began before the action ends after it, and must not be cached as
    the listing of the new state."""
    from tui.engine.actions import DrawStock
    from tui.engine.deal.moves import Deal

    game = Game(load_ruleset("three_thirteen"), ["a", "b"], 3)
    seat = game.actor
    deal = game.round
    real = Deal._draw_options

    def drawn_while_listing(self: Deal, who: int) -> list:  # noqa: ANN401
        options = real(self, who)
        monkeypatch.setattr(Deal, "_draw_options", real)
        game.apply(DrawStock(who))  # the other thread plays meanwhile
        return options

    monkeypatch.setattr(Deal, "_draw_options", drawn_while_listing)
    stale = deal.legal(seat)
    assert {a.kind for a in stale} >= {"draw_stock"}
    assert game.phase == "play"
    assert "draw_stock" not in {a.kind for a in game.view(seat).legal}
    assert any(a.kind == "discard" for a in game.view(seat).legal)
