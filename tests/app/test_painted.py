"""The hand and the piles make their strips straight from their card art: cell for cell
(character, ink, background, attributes) the same picture Textual's own text drawing makes
of the same lines, in every card style."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.visual import Visual, visualize

from tui.app.cardart import CardStyle
from tui.app.hand_model import HandModel
from tui.app.widgets.hand import HandView
from tui.app.widgets.painted import Painted
from tui.app.widgets.piles import DiscardPile, StockPile
from tui.engine.cards import Card, parse_cards


class PaintedApp(App[None]):
    CSS = "HandView { width: 60; } DiscardPile { width: 30; }"

    def compose(self) -> ComposeResult:
        yield StockPile()
        yield DiscardPile()
        yield HandView()


def cells(strips: list[Strip]) -> list[list[tuple[str, tuple[object, ...]]]]:
    def look(style: Style | None) -> tuple[object, ...]:
        if style is None:
            return ()
        return (style.color, style.bgcolor, style.bold, style.dim, style.italic,
                style.underline, style.reverse, style.strike)
    return [[(ch, look(seg.style)) for seg in strip for ch in seg.text] for strip in strips]


def drawn_by_textual(widget: Painted) -> list[Strip]:
    width, height = widget.size.width, widget.size.height
    return Visual.to_strips(widget, visualize(widget, widget.render()), width, height,
                            widget.visual_style)


@pytest.mark.parametrize("style", [CardStyle(), CardStyle(ascii=True),
                                   CardStyle(four_colour=True)])
async def test_the_hand_and_the_piles_look_as_textual_would_draw_them(style: CardStyle) -> None:
    app = PaintedApp()
    async with app.run_test(size=(100, 20)) as pilot:
        cards = [Card(c.rank, c.suit, uid) for uid, c in enumerate(parse_cards(
            "7H 7S 9D 9C 9S 4H 5D 10S JC KC"))]
        model = HandModel()
        model.sync(cards)
        model.set_cursor(2)
        model.toggle(4)
        wild = lambda card: card.rank == 9  # noqa: E731 - a rule for the test
        app.query_one(StockPile).show(31, True, style)
        app.query_one(DiscardPile).show(cards[:4], 4, True, True, style, wild)
        app.query_one(HandView).show(model, style, wild)
        await pilot.pause()
        for widget in app.query(Painted):
            shown = [widget.render_line(y) for y in range(widget.size.height)]
            assert cells(shown) == cells(drawn_by_textual(widget)), type(widget).__name__
