"""The door's bookkeeping on its own, with an injected clock: logins in progress are
capped per address and in all (the oldest goes), and an address that fails - a wrong
password, or an attempt abandoned - is penalised for a time that doubles with its
failures: refused while it lasts, one attempt at a time after, forgotten after a quiet
while.  Other addresses are never touched."""

from __future__ import annotations

import logging

from tui.net.door import DoorLimits
from tui.service.door_keeper import DoorKeeper, DoorRules


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_past_a_cap_the_oldest_login_in_progress_is_closed():
    door = DoorKeeper(DoorRules(pending_per_address=2, pending_total=3))
    assert door.arrive("a1", "10.0.0.1") == ("", [])
    assert door.arrive("a2", "10.0.0.1") == ("", [])
    assert door.arrive("a3", "10.0.0.1") == ("", ["a1"])  # that address's oldest
    assert door.arrive("b1", "10.0.0.2") == ("", [])
    assert door.arrive("c1", "10.0.0.3") == ("", ["a2"])  # the oldest of all
    door.settled("a3", "in")  # logged in: no longer counted
    assert door.pending == 2 and door.arrive("c2", "10.0.0.3") == ("", [])
    door.settled("a1", "abandoned")  # closed by the cap: the server's doing, not counted
    assert door.failures("10.0.0.1") == 0


def test_a_family_of_eight_at_one_address_all_log_in_at_once():
    door = DoorKeeper()
    answers = [door.arrive(f"f{n}", "192.0.2.7") for n in range(8)]
    assert answers == [("", [])] * 8
    for n in range(8):
        door.settled(f"f{n}", "in")
    assert door.pending == 0 and door.failures("192.0.2.7") == 0


def test_each_failure_penalises_the_address_twice_as_long_and_is_logged_once(caplog):
    clock = Clock()
    door = DoorKeeper(DoorRules(first_penalty=1, max_penalty=8), clock)
    caplog.set_level(logging.WARNING, "tui.service.door_keeper")
    penalties = []
    for n in range(5):
        why, _ = door.arrive(f"g{n}", "10.0.0.1")
        assert why == ""
        penalties.append(door.failed(f"g{n}", "10.0.0.1", "eve", "password"))
        door.settled(f"g{n}", "abandoned")  # gave up after its wrong password: one failure
        refused, _ = door.arrive(f"r{n}", "10.0.0.1")
        assert refused.startswith("too many failed logins"), refused
        clock.now += penalties[-1]
    assert penalties == [1, 2, 4, 8, 8]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 5
    assert lines[2] == ("door: 10.0.0.1 penalised for 4s: failed password login as 'eve' "
                        "(3 failures from this address)")


def test_an_abandoned_attempt_is_a_failure_and_a_right_password_waits_its_turn():
    clock = Clock()
    door = DoorKeeper(DoorRules(first_penalty=1), clock)
    assert door.arrive("a", "10.0.0.1") == ("", [])
    door.settled("a", "abandoned")  # connected, never logged in
    assert door.failures("10.0.0.1") == 1 and door.penalty_left("10.0.0.1") == 1
    # Whatever the next connection would say (the right password too), it is refused
    # before it is asked anything.
    why, _ = door.arrive("b", "10.0.0.1")
    assert why == "too many failed logins from your address; try again in 1 second."
    door.settled("b", "closed")  # refused: nothing to count
    assert door.failures("10.0.0.1") == 1
    clock.now += 1
    assert door.arrive("c", "10.0.0.1") == ("", [])
    door.settled("c", "in")


def test_a_penalised_address_has_one_attempt_in_progress_at_a_time():
    clock = Clock()
    door = DoorKeeper(DoorRules(first_penalty=1), clock)
    door.arrive("a", "10.0.0.1")
    door.failed("a", "10.0.0.1", "eve", "password")
    clock.now += 2  # the penalty is over, the failure is remembered...
    assert "one login at a time" in door.arrive("a2", "10.0.0.1")[0]  # ...a still tries
    door.settled("a", "abandoned")  # (its failure already counted: not twice)
    assert door.failures("10.0.0.1") == 1
    assert door.arrive("b", "10.0.0.1") == ("", [])
    why, _ = door.arrive("c", "10.0.0.1")
    assert "one login at a time" in why
    door.settled("b", "in")
    assert door.arrive("d", "10.0.0.1") == ("", [])


def test_other_addresses_are_untouched_and_failures_are_forgotten():
    clock = Clock()
    door = DoorKeeper(DoorRules(first_penalty=1, memory=60), clock)
    for n in range(6):
        door.arrive(f"g{n}", "10.0.0.1")
        door.failed(f"g{n}", "10.0.0.1", "eve", "password")
        clock.now += door.penalty_left("10.0.0.1")
    assert [door.arrive(f"o{n}", "10.0.0.2")[0] for n in range(8)] == [""] * 8
    assert door.failures("10.0.0.2") == 0
    clock.now += 61
    assert door.failures("10.0.0.1") == 0 and door.penalty_left("10.0.0.1") == 0


def test_a_guesser_gets_few_attempts_a_minute():
    """The bookkeeping alone: a guesser that knocks every 0.25 s for a minute."""
    clock = Clock()
    door = DoorKeeper(DoorRules(), clock)
    start, tries, n = clock.now, 0, 0
    while clock.now - start < 60:
        n += 1
        why, _ = door.arrive(n, "10.0.0.1")
        if not why:
            tries += 1
            door.settled(n, "abandoned")
        clock.now += 0.25
    # at 0, 1.25, 3.5, 7.75, 16, 32.25 s: the sixth earns 32 s, past the minute
    assert tries == 6


def test_the_limits_the_server_is_given_are_the_keepers():
    limits = DoorLimits(pending_per_address=3, first_penalty=2, max_penalty=10,
                        failure_memory=30)
    rules = limits.rules()
    assert (rules.pending_per_address, rules.first_penalty, rules.max_penalty,
            rules.memory) == (3, 2, 10, 30)
