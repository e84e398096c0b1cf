"""Under `progression: per_player` (Phase 10) the table shows each player's own phase:
the deal line names the viewer's phase and contract, the hand title the viewer's phase,
and each opponent's pane the phase that player is on."""

from __future__ import annotations

from pathlib import Path

from tui.app.cardart import CardStyle
from tui.app.describe import deal_label
from tui.app.screens.summary import hands_table
from tui.app.table_presenter import SeatContext, hand_title, opponent
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset

PHASE10 = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "phase10.yaml"


def test_the_table_shows_each_players_own_phase() -> None:
    rules = load_ruleset(PHASE10)
    game = Game(rules, ["ann", "bob", "cy"], seed=4)
    game.phases_made[:] = [0, 3, 6]
    game.stack_deal([list(h) for h in game.round.hands], list(game.round.stock),
                    list(game.round.discard))  # dealt again with the seats on those phases
    view = game.view(1)
    assert deal_label(view).startswith("Deal 1 — your phase 4 of 10 — 1 run of 7")
    assert "phase 4" in hand_title(view, SeatContext(seat=1)).plain
    assert opponent(view, 2, SeatContext(seat=1)).subtitle.plain.startswith("phase 7")
    assert opponent(view, 0, SeatContext(seat=1)).subtitle.plain.startswith("phase 1")
    assert "each player on their own phase" in deal_label(game.view(-1))


def test_a_schedule_game_shows_no_phase() -> None:
    game = Game(load_ruleset("contract_rummy"), ["ann", "bob", "cy"], seed=4)
    view = game.view(0)
    assert "phase" not in deal_label(view)
    assert "phase" not in opponent(view, 1, SeatContext(seat=0)).subtitle.plain


def test_the_deal_summary_says_who_made_their_phase() -> None:
    game = Game(load_ruleset(PHASE10), ["ann", "bob"], seed=4)
    game.round.contract_turn[0] = 1  # as if ann had laid phase 1 down on turn 1
    game.round.end_as_it_stands("test")
    table = hands_table(game.view(0), CardStyle())
    names = [cell.plain for cell in table.columns[0]._cells]
    assert names[0].endswith("made phase 1") and names[1].endswith("still on phase 1")
