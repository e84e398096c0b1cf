"""SSH frames send only what changes between neighbouring styles, and look the same."""

from __future__ import annotations

import random

import pyte
import pytest
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tui.net.isolation import isolate_colours

COLOURS = ["red", "bright_green", "color(17)", "color(208)", "#102030", "#f0e0d0", "default"]
FLAGS = ["bold", "dim", "italic", "underline", "reverse", "strike", "blink"]
SYSTEMS = {"standard": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT,
           "truecolor": ColorSystem.TRUECOLOR}


def _style(rng: random.Random) -> Style | None:
    if rng.random() < 0.1:
        return None
    return Style(color=rng.choice(COLOURS + [None]), bgcolor=rng.choice(COLOURS + [None]),
                 **{flag: True for flag in rng.sample(FLAGS, rng.choice([0, 0, 1, 2]))})


def _plain_render(strip: Strip, system: ColorSystem) -> str:
    """What Textual sends for a strip: every styled segment whole, then a reset."""
    out = []
    for text, style, _ in strip:
        codes = "" if style is None else Strip.render_ansi(style, system)
        out.append(f"\x1b[{codes}m{text}\x1b[0m" if codes else text)
    return "".join(out)


def _screen(lines: list[str]) -> list[list[tuple[object, ...]]]:
    screen = pyte.Screen(40, len(lines))
    stream = pyte.Stream(screen)
    for row, line in enumerate(lines):
        stream.feed(f"\x1b[{row + 1};1H{line}")
    return [[(c.data, c.fg, c.bg, c.bold, c.italics, c.underscore, c.strikethrough,
              c.reverse, c.blink) for c in (screen.buffer[y][x] for x in range(40))]
            for y in range(len(lines))]


def _console(system: str) -> Console:
    console = Console(force_terminal=True, width=40)
    console._color_system = SYSTEMS[system]
    return console


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_terminal_shows_the_same_cells_as_with_every_style_sent_whole(system: str) -> None:
    isolate_colours()
    rng = random.Random(13)
    strips = []
    for _ in range(200):
        segments = [Segment(rng.choice("ab c#"), _style(rng)) for _ in range(rng.randint(1, 30))]
        strips.append(Strip(segments))
    console = _console(system)
    ours = [strip.render(console) for strip in strips]
    plain = [_plain_render(strip, SYSTEMS[system]) for strip in strips]
    for row in range(0, len(strips), 20):
        assert _screen(ours[row:row + 20]) == _screen(plain[row:row + 20])
    assert sum(map(len, ours)) < sum(map(len, plain))


def test_neighbours_that_differ_in_one_colour_send_only_that_colour() -> None:
    isolate_colours()
    back = "#202830"
    segments = [Segment("card ", Style(color=colour, bgcolor=back, bold=True))
                for colour in ("#ff0000", "#00ff00", "#ff0000", "#0000ff")]
    strip = Strip(segments)
    line = strip.render(_console("truecolor"))
    assert line.count("48;2;32;40;48") == 1  # the background once, not per segment
    assert line.endswith("\x1b[0m")
    assert len(line) < 0.7 * len(_plain_render(strip, ColorSystem.TRUECOLOR))
    assert _screen([line]) == _screen([_plain_render(strip, ColorSystem.TRUECOLOR)])


def test_a_strip_sent_to_several_sessions_is_written_once_for_each_depth() -> None:
    """Screens at one table send the same strips (lines shared between the screens of a
    process): a second session of the same depth is sent the text the first was, one of
    another depth its own."""
    isolate_colours()
    strip = Strip([Segment("10♠ ", Style(color="#ff0000", bgcolor="#202830", bold=True)),
                   Segment("pile", Style(color="color(208)"))])
    first = strip.render(_console("truecolor"))
    again = strip.render(_console("truecolor"))
    standard = strip.render(_console("standard"))
    assert again is first
    assert "38;2;255;0;0" in first and "38;2;" not in standard
    assert standard == _plain_render_changes(strip, "standard")
    assert strip.render(_console("truecolor")) is first


def _plain_render_changes(strip: Strip, system: str) -> str:
    """The strip written afresh (a copy of it: nothing kept for it yet)."""
    return Strip(list(strip), strip.cell_length).render(_console(system))
