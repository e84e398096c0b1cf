"""Screens in one process showing the same log lines draw them once: over SSH one worker
draws every screen at a table, and after a move each log shifts up a row and gains the
same event.  A line is taken from another screen only where it shows the same thing in
the same way; what a screen shows must be what it would draw alone."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.strip import Strip

from tui.app.cardart import CardStyle, CardWords
from tui.app.widgets import gamelog
from tui.app.widgets.gamelog import LogTail
from tui.engine.view import Event

EVENTS = [Event(seat=i % 3, deal=1, text=f"P{i % 3} drew from the stock and discarded QH #{i}"
                + (" and then some more words to wrap" if i % 4 == 0 else ""))
          for i in range(14)]
WORDS = CardWords(CardStyle(), ("P0", "P1", "P2"))


class TailApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LogTail(id="recent", headers=False)


def _cells(strips: list[Strip]) -> list[list[tuple[str, object]]]:
    return [[(ch, seg.style) for seg in strip for ch in seg.text] for strip in strips]


async def _drawn(me: int, fresh_from: int, words=WORDS,  # noqa: ANN001 - a words function
                 alone: bool = False) -> list[Strip]:
    app = TailApp()
    async with app.run_test(size=(36, 8)) as pilot:
        tail = app.query_one(LogTail)
        tail.show(EVENTS, me, fresh_from, words)
        await pilot.pause()
        if alone:  # nothing kept from other screens: drawn as one screen would
            gamelog._EVENTS.clear()
            gamelog._STYLED.clear()
        return tail.render_lines(tail.size.region)


async def test_a_log_line_another_screen_drew_alike_is_taken_and_looks_the_same() -> None:
    first = await _drawn(me=1, fresh_from=11)
    again = await _drawn(me=1, fresh_from=11)
    assert all(a is b for a, b in zip(again, first, strict=True))
    assert _cells(again) == _cells(await _drawn(me=1, fresh_from=11, alone=True))


async def test_a_line_that_looks_otherwise_on_another_screen_is_its_own() -> None:
    """Seat 0's own moves are plain on its screen, dimmed or fresh on the others; another
    way of writing the cards (not a `CardWords` value) keeps its lines to itself."""
    seat1 = await _drawn(me=1, fresh_from=11)
    seat0 = await _drawn(me=0, fresh_from=11)
    assert _cells(seat0) == _cells(await _drawn(me=0, fresh_from=11, alone=True))
    own = [y for y, line in enumerate(seat0) if "P0 drew" in line.text]
    assert own
    for y in own:
        assert seat0[y] is not seat1[y] and _cells([seat0[y]]) != _cells([seat1[y]])
    upper = await _drawn(me=1, fresh_from=11, words=str.upper)
    again = await _drawn(me=1, fresh_from=11, words=str.upper)
    assert not any(a is b for a, b in zip(upper, again, strict=True) if a.text.strip())
    assert _cells(upper) == _cells(again)
