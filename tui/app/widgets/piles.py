"""The stock (face down, with its count) and the discard pile (top card large; where the
rules allow deep draws, the cards below it fanned out to the left, each clickable)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from rich.style import Style
from rich.text import Text
from textual import events

from tui.engine.cards import Card

from ..cardart import Canvas, CardStyle, big_card, card_back, empty_slot, paint_small
from ..messages import DiscardClicked, StockClicked
from .painted import Painted
from .shared_lines import SharedLines

FAN_STEP = 4  # the rank and suit of each card below the top show, `10♣` too


class StockPile(SharedLines, Painted):
    DEFAULT_CSS = """
    StockPile { width: 9; height: 5; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = 0
        self.active = False
        self.card_style = CardStyle()

    def show(self, count: int, active: bool, card_style: CardStyle) -> None:
        self.count, self.active, self.card_style = count, active, card_style
        self.refresh()

    def shared_key(self) -> Hashable:
        """The stock looks the same on every screen at the table (but the mover's)."""
        return (self.count, self.active, self.card_style)

    def paint(self) -> list[Text]:
        art = card_back(self.card_style) if self.count else empty_slot(self.card_style)
        canvas = Canvas(9, 5)
        for y, line in enumerate(art):
            canvas.put_text(1, y, line)
        label = str(self.count).center(5) if self.count else "empty"
        c = self.card_style.c
        canvas.put(2, 2, label[:5],
                   Style(color=c.on_highlight, bgcolor=c.highlight, bold=True) if self.active
                   else Style(color=c.back_ink, bgcolor=c.back, bold=True))
        return canvas.lines()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(StockClicked())


class DiscardPile(SharedLines, Painted):
    DEFAULT_CSS = """
    DiscardPile { width: 1fr; height: 5; min-width: 9; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: Sequence[Card] = ()
        self.count = 0
        self.deep = False
        self.active = False
        self.card_style = CardStyle()
        self.is_wild: Callable[[Card], bool] = lambda card: False

    def show(self, cards: Sequence[Card], count: int, deep: bool, active: bool,
             card_style: CardStyle, is_wild: Callable[[Card], bool]) -> None:
        self.cards, self.count, self.deep, self.active = cards, count, deep, active
        self.card_style, self.is_wild = card_style, is_wild
        self.refresh()

    def shared_key(self) -> Hashable:
        """The pile looks the same on every screen at the table (but the mover's)."""
        cards = tuple(self.cards)
        return (cards, tuple(self.is_wild(card) for card in cards), self.count, self.deep,
                self.active, self.card_style)

    def paint(self) -> list[Text]:
        width = max(self.size.width, 9)
        canvas = Canvas(width, 5)
        top = self.cards[-1] if self.cards else None
        fan = self._fanned(width)
        fan_x, step = 0, FAN_STEP
        top_x = fan_x + (len(fan) * step + 2 if fan else 1)
        for j, card in enumerate(fan):
            paint_small(canvas, fan_x + j * step, 1, card, self.card_style,
                        wild=self.is_wild(card))
        art = (big_card(top, self.card_style, wild=self.is_wild(top)) if top
               else empty_slot(self.card_style))
        for y, line in enumerate(art):
            canvas.put_text(top_x, y, line)
        if self.active and top is not None:
            c = self.card_style.c
            canvas.put(top_x + 1, 0, "take", Style(color=c.on_highlight, bgcolor=c.highlight,
                                                   bold=True))
        return canvas.lines()

    def _fanned(self, width: int) -> list[Card]:
        """The cards below the top one that show, fanned out to its left."""
        below = list(self.cards[:-1]) if self.deep else []
        room = max(0, (width - 8 - 2) // FAN_STEP)
        return below[-room:] if room else []

    def depth_at(self, x: int) -> int:
        """(Worked out from what the pile holds, not from the last paint: a screen may
        show lines another screen painted, see `SharedLines`.)"""
        fan_x, step, shown = 0, FAN_STEP, len(self._fanned(max(self.size.width, 9)))
        if shown and fan_x <= x < fan_x + shown * step:
            j = (x - fan_x) // step
            return shown - j
        return 0

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(DiscardClicked(self.depth_at(event.x)))

