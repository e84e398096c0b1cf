"""The guided lessons as a table service: each step passes only on its own move (any other
legal move is refused with the step's nudge and changes nothing), the other seats play the
script, and the deal ends with the learner out; never saved, never recorded."""

from __future__ import annotations

import pytest

from tui.engine.actions import Action, Discard, IllegalAction
from tui.engine.ruleset import load_ruleset
from tui.service.interface import TableService
from tui.service.lesson import PLAYER, LessonTable
from tui.service.lessons import lesson_keys, load_lesson

LESSONS = {key: load_lesson(key) for key in lesson_keys()}


def lesson_table(key: str) -> LessonTable:
    return LessonTable(LESSONS[key], load_ruleset(key), "Tess")


def test_there_is_a_lesson_for_each_bundled_game() -> None:
    assert {"three_thirteen", "contract_rummy", "liverpool"} <= set(LESSONS)
    assert all(lesson.rules == key for key, lesson in LESSONS.items())


def let_others_play(table: LessonTable) -> None:
    while table.bot_to_move() is not None:
        assert table.step_bot() is not None


def state(table: LessonTable) -> tuple[object, ...]:
    view = table.view(PLAYER)
    return (table.step, view.hand, view.discard, view.table, view.phase, view.turn)


@pytest.mark.parametrize("key", lesson_keys())
def test_each_step_passes_only_on_its_own_move(key: str) -> None:
    table = lesson_table(key)
    assert isinstance(table, TableService)
    assert table.view(PLAYER).players[PLAYER].name == "Tess"
    steps = 0
    while table.current is not None:
        let_others_play(table)
        step = table.current
        assert step is not None
        legal = table.view(PLAYER).legal
        right = [a for a in legal if step.expect.met_by(a)]
        wrong = [a for a in legal if not step.expect.met_by(a)]
        assert right, f"step {step.title!r} cannot be done"
        for action in wrong:
            before = state(table)
            with pytest.raises(IllegalAction) as refused:
                table.act(PLAYER, action)
            assert str(refused.value) == step.nudge
            assert state(table) == before
        assert table.hint(PLAYER) == step.nudge  # the h key: what to do now
        table.act(PLAYER, right[0])
        steps += 1
    let_others_play(table)
    assert steps == len(LESSONS[key].steps)
    assert table.finished and table.bot_to_move() is None
    if key in ("three_thirteen", "contract_rummy"):  # these end with the learner out
        assert table.view(PLAYER).phase == "round_over"
        assert table.view(PLAYER).players[PLAYER].went_out
    assert "lesson is over" in table.hint(PLAYER)
    with pytest.raises(IllegalAction, match="lesson is over"):
        table.act(PLAYER, Discard(PLAYER, None))


def test_the_player_waits_while_the_others_play_and_cannot_move_for_them() -> None:
    table = lesson_table("three_thirteen")
    table.act(PLAYER, table.view(PLAYER).legal[0])  # draw
    discard = next(a for a in table.view(PLAYER).legal
                   if isinstance(a, Discard) and a.card is not None and str(a.card) == "KS")
    table.act(PLAYER, discard)
    seat, move = table.bot_choice() or (None, None)
    assert seat == 1 and move is not None and move.kind == "draw_stock"
    with pytest.raises(IllegalAction, match="others are playing"):
        table.act(PLAYER, table.view(PLAYER).legal[0] if table.view(PLAYER).legal
                  else discard)
    wrong: Action = Discard(1, table.view(1).hand[0])
    with pytest.raises(IllegalAction, match="lesson's own moves"):
        table.act(1, wrong)
    let_others_play(table)
    assert str(table.view(PLAYER).discard[-1]) == "3D"


def test_a_lesson_is_never_saved_undone_or_recorded() -> None:
    table = lesson_table("contract_rummy")
    assert table.save_text() is None and table.record_outcome is None
    assert not table.can_undo(PLAYER)
    with pytest.raises(IllegalAction):
        table.undo(PLAYER)
    assert table.humans() == [PLAYER] and all(table.is_bot(s) for s in (1, 2))
    assert table.view(PLAYER).deal == 2  # the deal with a run in its contract


def test_a_lesson_that_does_not_exist_or_does_not_read_is_refused(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    from tui.service import lessons

    with pytest.raises(lessons.LessonError, match="no lesson for 'gin'"):
        load_lesson("gin")
    (tmp_path / "broken.yaml").write_text("rules: x\nsteps: [oops]\n")
    monkeypatch.setattr(lessons, "lessons_dir", lambda: tmp_path)
    with pytest.raises(lessons.LessonError, match="broken.yaml: not a lesson"):
        load_lesson("broken")


def test_liverpool_teaches_buying_out_of_turn() -> None:
    table = lesson_table("liverpool")
    titles = []
    while table.current is not None:
        let_others_play(table)
        step = table.current
        assert step is not None
        titles.append(step.title)
        view = table.view(PLAYER)
        if step.expect.kind == "buy":
            assert view.phase == "buy" and str(view.buy_offer) == "9H"
            held = len(view.hand)
        table.act(PLAYER, next(a for a in view.legal if step.expect.met_by(a)))
        if step.expect.kind == "buy":
            assert len(table.view(PLAYER).hand) == held + 2  # the card and a penalty card
    assert 'Buying ("May I?")' in titles
