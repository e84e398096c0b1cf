"""The table presenter, without an app: what each pane shows, and that a move changes
only the panes it concerns (the screen redraws exactly those)."""

from __future__ import annotations

from rich.color import Color
from table_rig import goto_deal, new_game, rig

from tui.app.table_presenter import SeatContext, opponent_seats, present
from tui.bots import make_bot
from tui.engine.actions import DrawStock
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset_text


def bot_move(game: Game) -> None:
    seat = game.actor
    game.apply(make_bot("random", seat).choose(game.view(seat)))


def test_another_seats_discard_changes_only_its_panes_the_piles_and_the_log() -> None:
    game = new_game("three_thirteen", players=4, seed=2)
    while game.actor != 2 or game.phase != "play":
        if game.phase == "round_over":
            game.next_round()
        bot_move(game)
    ctx = SeatContext(seat=0)
    before = present(game.view(0), ctx)
    bot_move(game)  # seat 2 discards: seat 3 is to draw
    after = present(game.view(0), ctx)
    assert game.history[-1].kind in ("discard", "go_out")
    changed = {o.seat for o, p in zip(after.opponents, before.opponents, strict=True) if o != p}
    assert changed == {2, 3}  # the one who discarded, the one now to draw; not seat 1
    assert after.pile != before.pile and after.log != before.log
    assert after.bar != before.bar  # whose move it is
    assert (after.hand_title, after.hand_subtitle, after.scores, after.stock) == (
        before.hand_title, before.hand_subtitle, before.scores, before.stock)
    assert after.hints == before.hints  # still not my move


def test_the_same_view_presents_the_same_contents() -> None:
    game = new_game("liverpool", players=3, seed=4)
    ctx = SeatContext(seat=1, width=120, narrow=False)
    assert present(game.view(1), ctx) == present(game.view(1), ctx)


def test_my_draw_changes_my_hand_title_and_keys() -> None:
    game = new_game("three_thirteen", players=2, seed=6)
    me = game.actor
    ctx = SeatContext(seat=me)
    before = present(game.view(me), ctx)
    game.apply(next(a for a in game.view(me).legal if a.kind == "draw_stock"))
    after = present(game.view(me), ctx)
    assert "4 cards" in after.hand_title.plain and "3 cards" in before.hand_title.plain
    assert [h.key for h in after.hints if h.key == "d"] == ["d"]
    assert after.stock.count == before.stock.count - 1


def test_a_repeating_schedule_is_named_by_its_deal() -> None:
    game = new_game("rulesets/cookbook/rummy_to_100.yaml", players=2, seed=1)
    goto_deal(game, 3)
    bar = present(game.view(0), SeatContext(seat=0)).bar.plain
    assert bar.startswith(" Deal 3 — 7 cards — 2s wild")


def test_a_spectator_has_every_seat_across_the_table() -> None:
    game = new_game("three_thirteen", players=3, seed=1)
    assert opponent_seats(3, -1) == [0, 1, 2]
    assert opponent_seats(3, 1) == [2, 0]
    contents = present(game.view(-1), SeatContext(seat=-1))
    assert [o.seat for o in contents.opponents] == [0, 1, 2]
    assert {h.label for h in contents.hints} >= {"Scores", "Help", "Leave"}


def test_a_first_to_ask_buy_is_offered_to_every_seat_asked_at_once() -> None:
    """The table screen prompts each seat still asked (b buy · n pass) when the priority is
    first_to_ask, and only the nearest one under `nearest`."""
    hands = ["7C 7D 7H 9C 9D 9S 2H 4S 6D QC", "3C 3D 5H 8S JD KH 2C 4D 6S QS",
             "AC 5D 8H 10S JC KS 2D 4H 6C QH"]
    offered = {}
    for priority in ("nearest", "first_to_ask"):
        rules = load_ruleset_text(f"extends: liverpool\nbuying: {{priority: {priority}}}\n")
        game = Game(rules, ["P0", "P1", "P2"], 1)
        rig(game, hands, discard="10D", turn=0)
        game.apply(DrawStock(0))
        for seat in (1, 2):
            shown = present(game.view(seat), SeatContext(seat=seat))
            keys = {h.action for h in shown.hints}
            offered[priority, seat] = ({"buy", "pass_buy"} <= keys,
                                       "May I? Buy" in shown.prompt.plain)
    assert offered["nearest", 1] == offered["first_to_ask", 1] == (True, True)
    assert offered["first_to_ask", 2] == (True, True)
    assert offered["nearest", 2] == (False, False)


def test_the_seat_to_move_is_lit_by_its_titles_own_colour() -> None:
    """Whose turn it is shows in the pane's title and the hand's title as coloured spans
    (so the screen restyles no pane to light it, and Text equality sees the change)."""
    game = new_game("three_thirteen", players=3, seed=2)
    ctx = SeatContext(seat=0)
    while game.actor == 0:
        bot_move(game)
    view = game.view(0)
    highlight = Color.parse(ctx.style.c.highlight)
    contents = present(view, ctx)
    lit = [o.seat for o in contents.opponents
           if [s.style.color for s in o.title.spans] == [highlight]]
    assert lit == [game.actor]
    assert not contents.hand_title.spans  # not my move: my title in the pane's colours
    while game.actor != 0:
        bot_move(game)
    mine = present(game.view(0), ctx)
    assert [s.style.bold for s in mine.hand_title.spans] == [True]
    assert [s.style.color for s in mine.hand_title.spans] == [highlight]
    assert not any(o.title.spans for o in mine.opponents)
