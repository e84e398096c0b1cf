"""The door's bookkeeping on its own, with an injected clock: connections in progress
are capped per address and in all (the oldest goes), failed logins double the wait per
address, up to a cap, and are forgotten after a quiet while."""

from __future__ import annotations

from tui.net.door import Door, DoorLimits
from tui.net.workers import WorkerSettings


def test_past_a_cap_the_oldest_connection_in_progress_is_closed():
    door = Door(DoorLimits(pending_per_address=2, pending_total=3))
    assert door.arrived("a1", "10.0.0.1") == []
    assert door.arrived("a2", "10.0.0.1") == []
    assert door.arrived("a3", "10.0.0.1") == ["a1"]  # that address's oldest
    assert door.arrived("b1", "10.0.0.2") == []
    assert door.arrived("c1", "10.0.0.3") == ["a2"]  # the oldest of all
    door.settled("a3")  # logged in: no longer counted
    assert door.pending == 2 and door.arrived("c2", "10.0.0.3") == []


def test_failed_logins_double_the_wait_per_address_and_are_forgotten():
    now = [0.0]
    door = Door(DoorLimits(first_delay=1, max_delay=4, failure_memory=60), clock=lambda: now[0])
    waits = [door.failed("10.0.0.1", "eve", "password") for _ in range(4)]
    assert waits == [1, 2, 4, 4]
    assert door.failed("10.0.0.2", "bob", "password") == 1  # another address: its own count
    now[0] = 61.0
    assert door.failure_count("10.0.0.1") == 0
    assert door.failed("10.0.0.1", "eve", "password") == 1


def test_workers_doors_together_keep_the_servers_caps():
    """Each worker keeps its own door; whichever worker the kernel hands each connection
    to, one address never has more connections in progress than the server's cap."""
    workers = 3
    settings = WorkerSettings("127.0.0.1", 0, "key", workers=workers)
    doors = [Door(settings.door_limits()) for _ in range(workers)]
    caps = DoorLimits()
    for number in range(5 * caps.pending_per_address):
        doors[number % workers].arrived(f"c{number}", "10.0.0.9")
    assert sum(door.pending for door in doors) <= caps.pending_per_address
    for number in range(2 * caps.pending_total):
        doors[number % workers].arrived(f"d{number}", f"10.1.{number // 250}.{number % 250}")
    assert sum(door.pending for door in doors) <= caps.pending_total
    assert settings.door_limits().login_grace == caps.login_grace
    assert WorkerSettings.from_json(settings.to_json()) == settings  # travels to the worker
