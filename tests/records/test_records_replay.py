"""Replays reproduce recorded games exactly; records export and import as JSON."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_kit import T0, finished_game, seats, short_rules

from tui.records import RecordStore
from tui.records.exchange import export_record, import_record_file, read_record_file
from tui.records.record import GameRecord, RecordError
from tui.records.replay import Frame, Replay
from tui.records.store import DB_NAME


def stored(home: Path, seed: int, players: int = 3, rules=None) -> GameRecord:  # noqa: ANN001
    store = RecordStore(home / "data" / DB_NAME)
    game = finished_game(seed=seed, players=players, rules=rules)
    record_id = store.add(GameRecord.from_game(game, seats(players), T0, T0 + 300))
    return store.get(record_id)


def where(frame: Frame) -> tuple:
    """Where every physical card is (by uid), and the scores: equal states, equal values."""
    return (
        frame.deal, frame.phase, frame.actor,
        tuple(tuple(c.uid for c in hand) for hand in frame.hands),
        tuple((m.id, m.owner, tuple(c.uid for c in m.cards)) for m in frame.table),
        tuple(c.uid for c in frame.discard), frame.stock_count, frame.totals, frame.scores,
    )


# ---------------------------------------------------------------------- exact replay


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_a_stored_game_replays_to_its_recorded_scores_exactly(home: Path, seed: int) -> None:
    game = finished_game(seed=seed, players=3)
    store = RecordStore(home / "data" / DB_NAME)
    record = store.get(store.add(GameRecord.from_game(game, seats(3), T0)))
    replay = Replay(record)
    assert replay.position == 0
    end = replay.end()
    assert end.at_end and end.phase == "game_over"
    assert end.scores == tuple(tuple(p) for p in game.scores)  # every round, every seat
    assert end.totals == tuple(game.totals)
    assert end.winners == tuple(game.winners)
    assert replay.steps == len(game.history) + len(game.scores) - 1  # actions + later deals
    from tui.engine.save import fingerprint

    assert fingerprint(replay.game) == fingerprint(game) == record.fingerprint


def test_a_replay_of_a_ruleset_with_jokers_matches_too(home: Path) -> None:
    record = stored(home, seed=3, players=2, rules=short_rules(4, "three_thirteen_jokers"))
    assert Replay(record).end().totals == record.totals


def test_every_step_shows_every_card_exactly_once(home: Path) -> None:
    record = stored(home, seed=2, players=3)
    replay = Replay(record)
    shoe = len(replay.game.shoe)
    frame = replay.start()
    while True:
        cards = [c.uid for hand in frame.hands for c in hand]
        cards += [c.uid for m in frame.table for c in m.cards] + [c.uid for c in frame.discard]
        assert len(cards) == len(set(cards))
        assert len(cards) + frame.stock_count == shoe
        if frame.at_end:
            break
        frame = replay.forward()


def test_each_step_carries_the_log_lines_of_its_action(home: Path) -> None:
    record = stored(home, seed=4, players=2)
    replay = Replay(record)
    start = replay.frame()
    assert start.action is None and any(e.kind == "deal" for e in start.events)
    kinds = {"draw_stock": "draw", "take_discard": "take", "discard": "discard"}
    seen = 0
    frame = start
    while not frame.at_end:
        frame = replay.forward()
        if frame.action is None:  # a new deal is a step of its own
            assert [e.kind for e in frame.events] == ["deal"]
            assert all(len(h) == len(frame.hands[0]) for h in frame.hands)
        elif frame.action.kind in kinds:
            assert kinds[frame.action.kind] in [e.kind for e in frame.events]
            assert frame.names[frame.action.seat] in frame.caption
            seen += 1
    assert seen > 10
    assert "Game over" in frame.caption


def test_rounds_can_be_skipped_forward_and_back(home: Path) -> None:
    record = stored(home, seed=5, players=2)
    replay = Replay(record)
    starts = []
    frame = replay.start()
    while not frame.at_end:
        starts.append((frame.index, frame.deal))
        frame = replay.next_round()
    assert [r for _, r in starts] == list(range(1, record.rounds + 1))
    assert all(replay.goto(i).action is None for i, _ in starts)
    replay.end()
    assert replay.previous_round().deal == record.rounds
    assert replay.frame().index == starts[-1][0]
    assert replay.previous_round().index == starts[-2][0]


@pytest.fixture(scope="module")
def long_replay(tmp_path_factory: pytest.TempPathFactory) -> tuple[Replay, list[tuple]]:
    store = RecordStore(tmp_path_factory.mktemp("records") / DB_NAME)
    game = finished_game(seed=11, players=3)
    record = store.get(store.add(GameRecord.from_game(game, seats(3), T0)))
    replay = Replay(record, checkpoint_every=7)
    states = [where(replay.start())]
    while not replay.frame().at_end:
        states.append(where(replay.forward()))
    return replay, states


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(jumps=st.lists(st.integers(min_value=-5, max_value=2000), min_size=1, max_size=12))
def test_jumping_anywhere_gives_the_state_reached_by_stepping(
        long_replay: tuple[Replay, list[tuple]], jumps: list[int]) -> None:
    replay, states = long_replay
    for target in jumps:
        frame = replay.goto(target)
        index = max(0, min(target, replay.steps))
        assert frame.index == index
        assert where(frame) == states[index]
        back = replay.back()
        assert where(back) == states[max(0, index - 1)]


def test_a_record_whose_scores_were_altered_does_not_replay(home: Path) -> None:
    record = stored(home, seed=1, players=2)
    scores = list(record.scores)
    scores[0] = (scores[0][0] + 1, *scores[0][1:])
    with pytest.raises(RecordError, match="scores"):
        Replay(dataclasses.replace(record, scores=tuple(scores)))


def test_a_record_with_missing_moves_does_not_replay(home: Path) -> None:
    record = stored(home, seed=1, players=2)
    with pytest.raises(RecordError, match="do not finish"):
        Replay(dataclasses.replace(record, actions=record.actions[:-3]))
    bad = list(record.actions)
    bad[5] = {"kind": "discard", "seat": bad[5]["seat"], "card": {"card": "XX", "uid": 1}}
    with pytest.raises(RecordError, match="damaged"):
        Replay(dataclasses.replace(record, actions=tuple(bad)))


def test_a_record_keeps_working_after_its_ruleset_file_is_gone(home: Path) -> None:
    from tui.engine.ruleset.loader import load_ruleset
    from tui.paths import user_rulesets_dir

    folder = user_rulesets_dir()
    folder.mkdir(parents=True)
    mine = folder / "quick_house.yaml"
    mine.write_text("extends: three_thirteen\nname: Quick house\n"
                    "rounds:\n  - {cards: 3, wild: [3]}\n  - {cards: 4, wild: [4]}\n")
    rules = load_ruleset("quick_house")
    record = stored(home, seed=6, players=2, rules=rules)
    mine.unlink()
    assert "extends" not in record.ruleset_text
    assert record.ruleset_name == "Quick house"
    assert Replay(record).end().totals == record.totals


# ---------------------------------------------------------------------- export / import


def test_export_and_import_round_trip(home: Path, tmp_path: Path) -> None:
    record = stored(home, seed=8, players=3)
    path = export_record(record, tmp_path / "shared" / "game.rummy.json")
    assert path == tmp_path / "shared" / "game.rummy.json"
    data = json.loads(path.read_text())
    assert data["format"] == "rummy-tui-record" and data["game"]["format"] == "rummy-tui-game"
    again = read_record_file(path)
    assert dataclasses.replace(again, id=record.id) == record
    other = RecordStore(tmp_path / "friend" / DB_NAME)
    assert import_record_file(path, other) == (1, True)
    assert import_record_file(path, other) == (1, False)  # kept once
    assert Replay(other.get(1)).end().totals == record.totals


def test_export_into_a_folder_names_the_file(home: Path, tmp_path: Path) -> None:
    record = stored(home, seed=8, players=2)
    folder = tmp_path / "out"
    folder.mkdir()
    path = export_record(record, folder)
    assert path.parent == folder and path.name.endswith(f"-{record.id}.rummy.json")
    assert "three-thirteen" in path.name


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["scores"][0].__setitem__(0, 999), "scores"),
    (lambda d: d["game"]["actions"].pop(), "does not replay|do not finish|does not match"),
    (lambda d: d.__setitem__("format", "something-else"), "not a rummy-tui game record"),
    (lambda d: d.pop("seats"), "damaged"),
    (lambda d: d["seats"].pop(), "seats do not match"),
    (lambda d: d["game"]["rules"].__setitem__("source", "players: {min: 9}"), "ruleset"),
])
def test_an_altered_record_file_is_refused_with_a_reason(
        home: Path, tmp_path: Path, change, message: str) -> None:  # noqa: ANN001
    record = stored(home, seed=9, players=2)
    data = record.to_json()
    change(data)
    path = tmp_path / "bad.rummy.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=message) as err:
        read_record_file(path)
    assert str(path) in str(err.value)


def test_a_file_that_is_not_json_is_refused_with_its_location(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"format": "rummy-tui-record",\n oops}')
    with pytest.raises(RecordError, match="line 2"):
        read_record_file(path)
    with pytest.raises(RecordError, match="no such file"):
        read_record_file(tmp_path / "missing.json")


def test_a_contract_game_with_buys_and_lay_offs_replays_exactly(home: Path) -> None:
    record = stored(home, seed=0, players=3, rules=short_rules(3, "liverpool"))
    kinds = {a["kind"] for a in record.actions}
    assert {"lay_down", "lay_off", "buy", "pass_buy"} <= kinds
    replay = Replay(record, checkpoint_every=5)
    assert replay.end().totals == record.totals
    states = [where(replay.start())]
    bought = 0
    while not replay.frame().at_end:
        frame = replay.forward()
        states.append(where(frame))
        if frame.action is not None and frame.action.kind == "buy":
            replay.game.check_conservation()
            assert "bought" in frame.caption
            bought += 1
    assert bought
    for i in range(replay.steps, -1, -37):  # back through swaps, buys and lay-offs
        assert where(replay.goto(i)) == states[i]
        replay.game.check_conservation()
