"""The one subscribe/notify helper: order, unsubscribing, and a broken listener contained."""

from __future__ import annotations

import logging

import pytest

from tui.listeners import Listeners


def test_listeners_are_told_in_order_until_they_unsubscribe() -> None:
    heard: list[str] = []
    listeners: Listeners[[int]] = Listeners()
    stop_a = listeners.subscribe(lambda n: heard.append(f"a{n}"))
    listeners.subscribe(lambda n: heard.append(f"b{n}"))
    listeners.notify(1)
    stop_a()
    stop_a()  # twice is harmless
    listeners.notify(2)
    assert heard == ["a1", "b1", "b2"]
    assert len(listeners) == 1


def test_the_same_callback_twice_is_two_subscriptions() -> None:
    heard: list[int] = []
    listeners: Listeners[[int]] = Listeners()
    first = listeners.subscribe(heard.append)
    listeners.subscribe(heard.append)
    first()
    listeners.notify(7)
    assert heard == [7]


def test_a_listener_that_raises_is_logged_and_the_others_still_hear(
        caplog: pytest.LogCaptureFixture) -> None:
    heard: list[str] = []
    listeners: Listeners[[]] = Listeners("a screen")

    def broken() -> None:
        raise RuntimeError("boom")

    listeners.subscribe(broken)
    listeners.subscribe(lambda: heard.append("ok"))
    with caplog.at_level(logging.ERROR):
        listeners.notify()
    assert heard == ["ok"]
    assert "a screen failed" in caplog.text
