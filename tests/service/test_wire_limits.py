"""Lines the game service cannot read safely - a number thousands of digits long, JSON
nested thousands deep, a line past the size limit - are refused one by one with a logged
error: the worker that sent them, and its players, stay."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from scripted_worker import ScriptedWorker
from ssh_room import until

from tui.service.authority import GameService
from tui.service.wire import MAX_DEPTH, MAX_LINE, WireError, decode, encode

HUGE_NUMBER = b'{"t": "join", "s": 1, "q": 5, "table": ' + b"7" * 5000 + b', "code": ""}\n'
DEEP = b'{"t": "say", "s": 1, "q": 6, "text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
DEEP_OBJECTS = b'{"t": "say", "s": 1, "q": 7, "text": ' + b'{"a":' * 50 + b"1" \
    + b"}" * 50 + b"}\n"
TOO_LONG = b'{"t": "say", "s": 1, "q": 8, "text": "' + b"x" * (MAX_LINE + 10) + b'"}\n'


@pytest.mark.parametrize(("line", "why"), [
    (HUGE_NUMBER, "a number of 5000 characters"),
    (DEEP, f"nested more than {MAX_DEPTH} deep"),
    (DEEP_OBJECTS, f"nested more than {MAX_DEPTH} deep"),
    (b'{"t": "hello", "worker": NaN}\n', "NaN is not a number"),
    (b'{"t": "hello", "worker": -Infinity}\n', "Infinity is not a number"),
    (b'{"t": "hello", "worker": 1e999}\n', "not a finite number"),
], ids=["5000 digits", "deep lists", "deep objects", "NaN", "-Infinity", "1e999"])
def test_lines_that_cannot_be_read_safely_are_refused_with_the_reason(line, why) -> None:
    with pytest.raises(WireError, match=why):
        decode(line)


def test_every_message_the_service_sends_is_within_the_limits() -> None:
    """A lobby line with every field filled reads back (the limits refuse only abuse)."""
    message = {"t": "lobby", "people": 10**12, "tables": [
        [1, "three_thirteen", "Three Thirteen", [["ann", "person"]] * 8, "playing", 3,
         "ann", "medium"]] * 50}
    assert decode(encode(message)) == message


async def test_a_worker_sending_unreadable_lines_keeps_its_players(
        service: GameService, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    worker = await ScriptedWorker.connect(tmp_path / "service.sock", 1)
    assert (await worker.reply(worker.ask({"t": "enter", "s": 1, "name": "ann",
                                           "key": ""})))["ok"]
    caplog.set_level(logging.ERROR, "tui.service.authority")
    for line in (HUGE_NUMBER, DEEP, DEEP_OBJECTS, TOO_LONG):
        worker.raw(line)
    # (a line that cannot be read has no request number to answer: the log says why)
    await until(lambda: len([r for r in caplog.records if "refused" in r.getMessage()]) >= 4)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("5000 characters" in e for e in errors), errors
    assert any("deep" in e for e in errors), errors
    assert any("too long" in e for e in errors), errors
    # The worker is still there, with its player, and is served as before.
    [link] = [link for link in service.links if link.worker == 1]
    assert [s.guest.name for s in link.sessions.values()] == ["ann"]
    created = await worker.reply(worker.ask({"t": "create", "s": 1,
                                             "rules_key": "three_thirteen", "seats": 2,
                                             "fill": "random", "rules_text": None}))
    assert created["ok"], created
    assert [t.host for t in service.lobby.tables] == ["ann"]
