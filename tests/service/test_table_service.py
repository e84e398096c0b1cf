"""The table service: the one door front ends play through."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.engine.actions import Discard, DrawStock, IllegalAction, TakeDiscard
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.save import SaveError
from tui.records import RecordStore
from tui.service.interface import SeatSpec
from tui.service.table import Table


def bots_table(seed: int = 2) -> Table:
    return Table(load_ruleset("three_thirteen"),
                 [SeatSpec("Ann"), SeatSpec("Bea", "random"), SeatSpec("Cy", "random")], seed)


def test_a_seat_plays_only_for_itself() -> None:
    table = bots_table()
    actor = table.game.actor
    with pytest.raises(IllegalAction):
        table.act((actor + 1) % 3, DrawStock(actor))


def test_subscribers_hear_every_change_and_can_leave() -> None:
    table = bots_table()
    heard: list[int] = []
    unsubscribe = table.subscribe(lambda: heard.append(1))
    while table.bot_to_move() is not None:
        table.step_bot()
    changes = len(heard)
    seat = table.game.actor
    table.act(seat, table.view(seat).legal[0])
    assert len(heard) == changes + 1
    unsubscribe()
    table.act(table.game.actor, table.view(table.game.actor).legal[0])
    assert len(heard) == changes + 1


def _my_turn(table: Table) -> None:
    while table.bot_to_move() is not None:
        table.step_bot()
    assert table.game.actor == 0


def test_undo_takes_back_my_own_moves_of_this_turn_one_at_a_time() -> None:
    """Issue 33: by default undo takes back only the player's own moves of the turn they
    are playing; the draw from the stock stays (it showed a card)."""
    table = bots_table()
    _my_turn(table)
    table.act(0, DrawStock(0))
    drawn = table.view(0)
    assert not table.can_undo(0)  # the stock's card was seen
    card = drawn.hand[0]
    table.act(0, Discard(0, card))
    assert table.can_undo(0)  # nobody has moved since
    table.undo(0)
    assert table.view(0) == drawn and table.undos == 1
    assert not table.can_undo(0)


def test_a_card_taken_from_the_pile_can_be_put_back() -> None:
    table = bots_table()
    _my_turn(table)
    before = table.view(0)
    table.act(0, TakeDiscard(0))
    assert table.can_undo(0)
    table.undo(0)
    assert table.view(0) == before


def test_undo_stops_once_someone_else_has_moved_unless_the_house_allows_more() -> None:
    table = bots_table()
    _my_turn(table)
    before = table.view(0)
    table.act(0, DrawStock(0))
    table.act(0, Discard(0, table.view(0).hand[0]))
    table.step_bot()  # the next seat moves: my turn is over
    assert not table.can_undo(0)
    with pytest.raises(IllegalAction):
        table.undo(0)
    table.undo_turns = True  # the house setting for solo play: whole turns, bots' too
    assert table.can_undo(0)
    table.undo(0)
    assert table.view(0).hand == before.hand and table.view(0).phase == "draw"


def test_undos_are_counted_and_kept_in_the_save(tmp_path: Path) -> None:
    table = bots_table()
    _my_turn(table)
    table.act(0, TakeDiscard(0))
    table.undo(0)
    table.act(0, TakeDiscard(0))
    table.undo(0)
    table.save(tmp_path / "t.json")
    assert Table.load(tmp_path / "t.json").undos == 2


@pytest.mark.parametrize("count", ["-1", "true", "\"2\"", "1.5"])
def test_a_save_with_a_bad_count_of_undos_is_refused(tmp_path: Path, count: str) -> None:
    path = tmp_path / "t.json"
    bots_table().save(path)
    path.write_text(path.read_text().replace('"undos": 0', f'"undos": {count}'))
    with pytest.raises(SaveError, match="undos"):
        Table.load(path)


def test_no_undo_with_other_people_at_the_table() -> None:
    table = Table(load_ruleset("three_thirteen"), [SeatSpec("Ann"), SeatSpec("Bo")], 1)
    seat = table.game.actor
    table.act(seat, DrawStock(seat))
    assert not table.can_undo(seat)


def test_a_bot_can_take_over_a_seat_and_hand_it_back() -> None:
    table = bots_table()
    table.set_bot(0, "random")
    assert table.is_bot(0)
    table.set_bot(0, None)
    assert not table.is_bot(0)


def test_save_and_resume_exactly(tmp_path: Path) -> None:
    table = bots_table()
    for _ in range(10):
        if table.bot_to_move() is None:
            seat = table.game.actor
            table.act(seat, table.view(seat).legal[-1])
        else:
            table.step_bot()
    table.save(tmp_path / "t.json")
    again = Table.load(tmp_path / "t.json")
    assert again.view(0) == table.view(0)
    assert again.seats == table.seats
    assert again.started_at == table.started_at


def test_corrupt_table_save_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text("{not json")
    with pytest.raises(SaveError, match="damaged"):
        Table.load(path)


def test_finished_games_are_recorded_once() -> None:
    table = Table(load_ruleset("three_thirteen"),
                  [SeatSpec("Bot A", "random"), SeatSpec("Bot B", "random")], 5)
    while table.game.phase != "game_over":
        if table.game.phase == "round_over":
            table.next_round()
        else:
            table.step_bot()
    assert table.record_outcome is not None and table.record_outcome.record_id is not None
    table._changed()  # more notifications after the end record nothing new
    assert RecordStore().count() == 1


def _play_out_deal(table: Table) -> None:
    """Play the deal to its end, the person always taking the first legal move."""
    while table.view(0).phase not in ("round_over", "game_over"):
        if table.bot_to_move() is not None:
            table.step_bot()
        else:
            table.act(0, table.view(0).legal[0])


@pytest.mark.parametrize("reload", [False, True])
def test_undo_never_reaches_back_into_a_scored_deal(tmp_path: Path, reload: bool) -> None:
    table = bots_table(seed=4)
    table.undo_turns = True  # (even the house setting never crosses a scored deal)
    _play_out_deal(table)
    assert table.view(0).phase == "round_over"
    assert not table.can_undo(0)  # scored: issue 33 went back into it, totals and all
    with pytest.raises(IllegalAction):
        table.undo(0)
    table.next_round()
    if reload:  # a resumed game knows where its deal began too
        table.save(tmp_path / "game.json")
        table = Table.load(tmp_path / "game.json")
        table._bots = bots_table(seed=4)._bots
        table.undo_turns = True  # (a setting of the app, not of the save)
    while table.bot_to_move() is not None:
        table.step_bot()
    assert table.view(0).deal == 2 and table.view(0).phase == "draw"
    assert not table.can_undo(0)
    with pytest.raises(IllegalAction):
        table.undo(0)
    table.act(0, DrawStock(0))
    assert table.can_undo(0)
    table.undo(0)
    assert table.view(0).deal == 2 and table.view(0).phase == "draw"


def test_no_undo_once_the_game_is_over() -> None:
    """The game is scored and recorded: even the last turn of its last deal stays."""
    table = bots_table(seed=4)
    while table.game.phase != "game_over":
        if table.game.phase == "round_over":
            table.next_round()
        else:
            _play_out_deal(table)
    assert not table.can_undo(0)
    with pytest.raises(IllegalAction):
        table.undo(0)
