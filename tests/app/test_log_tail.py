"""The table's log tail keeps each line it has drawn and draws only the new ones; what it
shows must always be what `log_text` writes for the lines in sight, wrapped to the box."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.visual import Visual, visualize

from tui.app.widgets.gamelog import LogTail, log_text
from tui.engine.view import Event

EVENTS = [Event(seat=i % 3, deal=1 + i // 9,
                text=f"P{i % 3} " + ("played a long move that wraps " * (i % 4)) + f"#{i}")
          for i in range(40)]


class TailApp(App[None]):
    def __init__(self, headers: bool) -> None:
        super().__init__()
        self.headers = headers

    def compose(self) -> ComposeResult:
        yield LogTail(id="tail", headers=self.headers)


def written(tail: LogTail, events: list[Event], me: int, fresh_from: int) -> list[Strip]:
    """The tail as the log writes it, drawn in one piece (no lines kept)."""
    width, height = tail.size.width, tail.size.height
    if not events:
        return []
    start = max(0, len(events) - height)
    text = log_text(events[start:], me, fresh_from - start, height, tail.headers, str.upper)
    lines = list(text.wrap(tail.app.console, width, overflow="fold"))[-height:]
    return Visual.to_strips(tail, visualize(tail, Text("\n").join(lines)), width, height,
                            tail.visual_style)


def cells(strips: list[Strip]) -> list[list[tuple[str, object]]]:
    """Each line as (character, look) per cell: how it looks, not how it is cut up."""
    def look(style: Style | None) -> tuple[object, ...]:
        if style is None:
            return ()
        return (style.color, style.bgcolor, style.bold, style.dim, style.italic,
                style.underline, style.reverse, style.strike)
    return [[(ch, look(seg.style)) for seg in strip for ch in seg.text] for strip in strips]


async def _check(headers: bool) -> None:
    app = TailApp(headers)
    async with app.run_test(size=(34, 9)) as pilot:
        tail = app.query_one(LogTail)
        me = 0
        steps = [(n, max(0, n - 4)) for n in range(0, 31)]  # the log grows, one at a time
        steps += [(30, 30), (30, 22), (24, 22), (27, 25)]  # own move, fresh moves, undo
        for length, fresh_from in steps:
            tail.show(EVENTS[:length], me, fresh_from, str.upper)
            await pilot.pause()
            shown = [tail.render_line(y) for y in range(tail.size.height)]
            expected = written(tail, EVENTS[:length], me, fresh_from)
            expected += [Strip.blank(tail.size.width, tail.visual_style.rich_style)] * (
                tail.size.height - len(expected))
            assert cells(shown) == cells(expected), (length, fresh_from)
            assert [s.text for s in shown] == [s.text for s in expected]


async def test_the_tail_shows_what_the_log_writes_as_it_grows_and_is_undone() -> None:
    await _check(headers=True)


async def test_the_tail_without_deal_headers() -> None:
    await _check(headers=False)
