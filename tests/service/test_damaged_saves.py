"""Damaged saved tables: refused in one line, or loaded whole and able to finish.

The cases from the fault campaign (non-UTF-8 bytes, an unknown bot level, deep nesting,
``seed: 1e400``, a 5,000-digit number, ``started_at`` NaN or 1e20) each get a test, and a
property test damages a real save at random.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_kit import T0, short_rules

from tui.bots import make_bot
from tui.engine.save import SaveError
from tui.service.table import SeatSpec, Table


@cache
def saved_table_text() -> str:
    """A short two-round game between bots, saved on the last turns of its last round."""
    table = Table(short_rules(2), [SeatSpec("Ann", "random"), SeatSpec("Bea", "easy")], 11,
                  started_at=T0)
    while not (table.game.round.number == 2 and len(table.game.round.hands[0]) > 3
               and table.game.phase == "play"):
        if table.game.phase == "round_over":
            table.next_round()
        else:
            table.step_bot()
    return json.dumps(table.to_json())


def write(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "current_game.json"
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return path


def edited(change: Any) -> str:
    data = json.loads(saved_table_text())
    change(data)
    return json.dumps(data)


def refused(path: Path) -> str:
    with pytest.raises(SaveError) as caught:
        Table.load(path)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300
    return message


def test_the_fixture_save_loads_and_finishes(tmp_path: Path) -> None:
    table = Table.load(write(tmp_path, saved_table_text()))
    play_to_the_end(table)


def test_non_utf8_bytes_are_refused(tmp_path: Path) -> None:
    raw = saved_table_text().encode()
    assert "UTF-8" in refused(write(tmp_path, raw[:40] + b"\xff\xfe" + raw[40:]))


def test_an_unknown_bot_level_is_refused(tmp_path: Path) -> None:
    def level(data: dict) -> None:
        data["seats"][1]["bot"] = "grandmaster"

    assert "level" in refused(write(tmp_path, edited(level)))


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    assert "damaged" in refused(write(tmp_path, "[" * 100_000 + "]" * 100_000))


@pytest.mark.parametrize("seed", ["1e400", "-1e400", "3.0", "true", '"7"',
                                  pytest.param("9" * 5000, id="5000-digits")])
def test_a_seed_that_is_not_a_whole_number_is_refused(tmp_path: Path, seed: str) -> None:
    text = saved_table_text()
    data = json.loads(text)
    original = json.dumps(data["game"]["seed"])
    marker = f'"seed": {original}'
    assert marker in text
    refused(write(tmp_path, text.replace(marker, f'"seed": {seed}')))


@pytest.mark.parametrize("when", [math.nan, math.inf, 1e20, -1e20, -5.0])
def test_a_start_time_that_is_not_a_time_is_refused(tmp_path: Path, when: float) -> None:
    def start(data: dict) -> None:
        data["started_at"] = when

    assert "start time" in refused(write(tmp_path, edited(start)))


def test_a_missing_start_time_loads_and_the_game_still_finishes(tmp_path: Path) -> None:
    table = Table.load(write(tmp_path, edited(lambda data: data.pop("started_at"))))
    play_to_the_end(table)


STAND_IN = make_bot("random", 1)


def play_to_the_end(table: Table) -> None:
    for _ in range(2000):
        if table.game.phase == "game_over":
            break
        if table.game.phase == "round_over":
            table.next_round()
        elif table.step_bot() is None:  # a person's seat: a stand-in plays it
            seat = table.game.actor
            table.act(seat, STAND_IN.choose(table.view(seat)))
    assert table.game.phase == "game_over"
    assert table.record_outcome is not None and table.record_outcome.record_id is not None
    table.game.check_conservation()


# ---------------------------------------------------------------------- property

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                               max_size=3),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON document (the actions list only sampled, it is long)."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3] + value[-3:] if len(value) > 6 else value):
            index = i if i < 3 or len(value) <= 6 else len(value) - 6 + i
            out += paths(item, (*prefix, index))
    return out


@cache
def places() -> list[tuple]:
    return paths(json.loads(saved_table_text()))


def replace_at(data: Any, where: tuple, value: Any) -> Any:
    if not where:
        return value
    parent = data
    for step in where[:-1]:
        parent = parent[step]
    parent[where[-1]] = value
    return data


@st.composite
def damaged_saves(draw: st.DrawFn) -> bytes:
    text = saved_table_text()
    how = draw(st.sampled_from(["value", "bytes", "truncate"]))
    if how == "value":
        where = draw(st.sampled_from(places()))
        data = replace_at(json.loads(text), where, draw(JSON_VALUES))
        return json.dumps(data).encode()
    raw = bytearray(text.encode())
    if how == "truncate":
        return bytes(raw[:draw(st.integers(0, len(raw) - 1))])
    for _ in range(draw(st.integers(1, 4))):
        raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
    return bytes(raw)


def check_damaged_save(tmp_path: Path, raw: bytes) -> None:
    path = write(tmp_path, raw)
    try:
        table = Table.load(path)
    except SaveError as exc:
        assert "\n" not in str(exc)
        return
    play_to_the_end(table)


QUICK = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
LONG = settings(QUICK, max_examples=1000)


@QUICK
@given(damaged_saves())
def test_a_damaged_save_is_refused_cleanly_or_loads_whole(tmp_path: Path, raw: bytes) -> None:
    check_damaged_save(tmp_path, raw)


@pytest.mark.slow
@LONG
@given(damaged_saves())
def test_many_damaged_saves_are_refused_cleanly_or_load_whole(tmp_path: Path,
                                                              raw: bytes) -> None:
    check_damaged_save(tmp_path, raw)
