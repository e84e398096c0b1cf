"""The player's hand: small cards in a fan that tightens as the hand grows.

Selected cards are lifted by one row, the cursor card has a blue edge, wild cards are
gold with a star, and cards of a staged meld are underlined with the meld's number.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual import events

from tui.engine.cards import Card

from ..cardart import (
    Canvas,
    CardStyle,
    fan_step,
    fan_width,
    paint_small,
)
from ..hand_model import HandModel
from ..messages import CardClicked
from .painted import Painted

CARD_W = 5


class HandView(Painted):
    """Draws a `HandModel`; clicks become `CardClicked` messages."""

    DEFAULT_CSS = """
    HandView { height: 5; width: 1fr; }
    HandView.-tall { height: 7; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = HandModel()
        self.card_style = CardStyle()
        self.is_wild: Callable[[Card], bool] = lambda card: False
        self.show_cursor = True
        self._geometry = (0, CARD_W + 1)  # offset, step

    def show(self, model: HandModel, card_style: CardStyle,
             is_wild: Callable[[Card], bool], show_cursor: bool = True) -> None:
        self.model = model
        self.card_style = card_style
        self.is_wild = is_wild
        self.show_cursor = show_cursor
        self.refresh()

    def paint(self) -> list[Text]:
        width = max(self.size.width, CARD_W)
        tall = self.has_class("-tall")
        card_h = 5 if tall else 3
        canvas = Canvas(width, card_h + 2)
        label_row = card_h + 1
        cards = self.model.hand
        c = self.card_style.c
        group_colours = (c.good, *c.seats[1:])
        if not cards:
            canvas.put(max(0, width // 2 - 5), 2, "(no cards)", Style(dim=True, italic=True))
            return canvas.lines()
        step = fan_step(len(cards), width, CARD_W)
        offset = max(0, (width - fan_width(len(cards), step, CARD_W)) // 2)
        self._geometry = (offset, step)
        for i, card in enumerate(cards):
            uid = card.uid
            x = offset + i * step
            selected = uid in self.model.selected
            at_cursor = self.show_cursor and i == self.model.cursor
            edge = c.cursor if at_cursor else c.selected if selected else \
                c.good if uid in self.model.hinted else c.edge
            paint_small(canvas, x, 0 if selected else 1, card, self.card_style,
                        wild=self.is_wild(card), edge=edge, bold_edge=at_cursor or selected,
                        tall=tall)
            if uid in self.model.hinted and not selected and step >= 4:
                canvas.put(x, 0, "hint", Style(color=c.good, bold=True))
            elif uid in self.model.new and not selected and step >= 4:
                canvas.put(x + 1, 0, "new", Style(color=c.highlight, italic=True))
            group = self.model.group_of(uid)
            hint = self.model.suggestion_of(uid)
            if group is None and hint is not None:
                same = i + 1 < len(cards) and self.model.suggestion_of(cards[i + 1].uid) == hint
                dash = "┈" if not self.card_style.ascii else "."
                canvas.put(x, label_row, dash * (step if same else CARD_W),
                           Style(color=c.good))
            if group is not None:
                colour = group_colours[group % len(group_colours)]
                mark = ("━" if not self.card_style.ascii else "=") * min(step, CARD_W)
                canvas.put(x, label_row, mark, Style(color=colour, bold=True))
                first_in_group = i == 0 or self.model.group_of(cards[i - 1].uid) != group
                if first_in_group:
                    canvas.put(x, label_row, str(group + 1), Style(color=colour, bold=True,
                                                           reverse=True))
            if at_cursor:
                arrow = "^" if self.card_style.ascii else "▲"
                canvas.put(x + min(2, step - 1), label_row, arrow,
                           Style(color=c.cursor, bold=True))
        return canvas.lines()

    def index_at(self, x: int) -> int | None:
        """The card under column `x`, or None."""
        count = len(self.model.order)
        offset, step = self._geometry
        rel = x - offset
        if count == 0 or rel < 0 or rel >= fan_width(count, step, CARD_W):
            return None
        return min(rel // step, count - 1)

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x)
        if index is not None:
            event.stop()
            self.post_message(CardClicked(index))
