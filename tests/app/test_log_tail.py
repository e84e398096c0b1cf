"""The table's log tail keeps each line it has drawn and draws only the new ones; what it
shows must always be what `log_text` writes for the lines in sight, wrapped to the box."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.visual import Visual, visualize

from tui.app.colours import app_colours
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
    text = log_text(events[start:], me, fresh_from - start, height, tail.headers, str.upper,
                    app_colours(tail.app))
    entries: list[list[Text]] = []  # the wrapped lines, an entry's first line marked
    for line in text.wrap(tail.app.console, width, overflow="fold"):
        if not entries or line.plain.startswith(("● ", "· ", "— ")):
            entries.append([line])
        else:
            entries[-1].append(line)
    lines: list[Text] = []
    for entry in reversed(entries):  # the newest entries that fit, each whole
        if len(lines) + len(entry) > height:
            break
        lines = entry + lines
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


def _marker_colour(tail: LogTail, y: int) -> str:
    """The colour of the seat marker ("● "/"· ") that starts line `y` of the tail."""
    first = next(iter(tail.render_line(y)))
    assert first.text.strip() in ("●", "·"), first.text
    assert first.style is not None and first.style.color is not None
    return first.style.color.get_truecolor().hex


async def test_the_tail_takes_the_seat_colours_from_the_theme_and_redraws_when_it_changes(
        ) -> None:
    from app_driver import wait_until
    from rich.color import Color as RichColor
    from textual.theme import BUILTIN_THEMES

    from tui.app.colours import colours_from, default_colours

    def hexed(colour: str) -> str:
        return RichColor.parse(colour).get_truecolor().hex

    # seats 0 and 4: their colours differ between the light and the dark theme
    events = [Event(seat=0, deal=1, text="Ada drew"), Event(seat=4, deal=1, text="Eve drew")]
    app = TailApp(headers=False)
    async with app.run_test(size=(34, 9)) as pilot:
        app.theme = "textual-light"
        await pilot.pause()
        tail = app.query_one(LogTail)
        tail.show(events, -1, 0)
        await pilot.pause()
        light = app_colours(app).seats
        assert light[0] != default_colours().seats[0]
        assert _marker_colour(tail, 0) == hexed(light[0])
        assert _marker_colour(tail, 1) == hexed(light[4])

        app.theme = "textual-dark"  # nothing shown anew: the theme alone redraws the lines
        dark = BUILTIN_THEMES["textual-dark"].to_color_system().generate()
        await wait_until(pilot, lambda: app_colours(app) == colours_from(
            dark, app.console.color_system))
        await pilot.pause()
        assert _marker_colour(tail, 0) == hexed(app_colours(app).seats[0]) != hexed(light[0])


async def test_the_top_line_of_the_tail_is_never_the_end_of_an_entry_cut_off_above() -> None:
    """Bug: the tail showed the last lines that fit, so at 80x24 its top line could read
    "up." - the end of "... Q♣ turned up." whose start was cut off."""
    long = Event(seat=1, deal=1, text="Deal 1: Ada deals 10 cards each; Q♣ turned up.")
    events = [long] + [Event(seat=i % 3, deal=1, text=f"P{i} drew.") for i in range(8)]
    app = TailApp(headers=False)
    async with app.run_test(size=(34, 9)) as pilot:
        tail = app.query_one(LogTail)
        tail.show(events, -1, 0)
        await pilot.pause()
        shown = [tail.render_line(y).text for y in range(tail.size.height)]
        assert shown[0].startswith(("· ", "● ")), shown  # the long entry went whole
        assert not any("turned up" in line for line in shown)
        assert "P7 drew." in shown[7] and not shown[8].strip()


def test_a_card_like_one_taken_this_turn_is_the_other_one() -> None:
    """Issue 33: with two decks, "Ada took 10♠ … Ada discarded 10♠" read like a broken
    rule; the second is the other 10♠ (a different card of the same face)."""
    from tui.app.cardart import CardStyle, card_words
    from tui.app.widgets.gamelog import log_text
    from tui.engine.cards import Card
    from tui.engine.view import Event

    taken, twin = Card(10, "S", 5), Card(10, "S", 57)
    took = Event(1, "Ada took 10S from the discard pile.", "take", 1, (taken,))
    other = Event(1, "Ada discarded 10S.", "discard", 1, (twin,))
    same = Event(1, "Ada discarded 10S.", "discard", 1, (taken,))
    style = CardStyle()

    def words(text: str) -> str:
        return card_words(text, style, ["Ada"])

    assert "Ada discarded the other 10♠." in log_text([took, other], 0, 2, words=words).plain
    assert "Ada discarded 10♠." in log_text([took, same], 0, 2, words=words).plain
    bo = Event(2, "Bo discarded 10S.", "discard", 1, (twin,))  # another seat's turn
    assert "Bo discarded 10♠." in log_text([took, bo], 0, 2, words=words).plain
