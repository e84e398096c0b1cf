"""Melds on the table, one line each, as card chips; a click names the meld."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.widget import Widget

from tui.engine.cards import ACE, HIGH_ACE, RANK_NAMES, SUITS, Card
from tui.engine.meld import Meld

from ..cardart import CardStyle, chip
from ..messages import MeldClicked


def meld_text(meld: Meld, style: CardStyle, width: int) -> Text:
    """Chips for every card, a wild one with the card it stands for; a run too long for
    `width` is shortened to its ends."""
    wild = {id(card): stand_in(meld, face, style) for card, face in meld.wild_cards()}
    parts = [chip(card, style, id(card) in wild, wild.get(id(card), ""))
             for card in meld.cards]
    full = Text(" ").join(parts)
    if full.cell_len <= width or len(parts) < 4:
        return full
    short = Text(" ").join(parts[:2])
    short.append(style.text(" … "), Style(dim=True))
    short.append_text(parts[-1])
    short.append(f" ({len(parts)})", Style(dim=True))
    return short


def meld_lines(melds: Sequence[Meld], targets: set[int], style: CardStyle,
               width: int) -> list[Text]:
    """A line a meld, in `width` cells; the `targets` (where the selection can go)
    marked."""
    room = max(width - 2, 10)
    lines = []
    for meld in melds:
        target = Style(color=style.c.highlight, bold=True)
        mark = Text("▸ " if not style.ascii else "> ", target) \
            if meld.id in targets else Text("  ")
        lines.append(mark + meld_text(meld, style, room))
    return lines


def stand_in(meld: Meld, face: tuple[int, str], style: CardStyle) -> str:
    """What a wild card in `meld` stands for: the very card in a run (`7♣`), the rank in a
    set (`7`), where the suit is not the point, the colour in a group of one colour."""
    if meld.kind == "colour":  # a group of one colour: any card of its colour
        return meld.colour
    place, suit = face
    rank = ACE if place == HIGH_ACE else place  # a run's place above the king is the ace
    if meld.kind == "set" or suit not in SUITS:
        return RANK_NAMES.get(rank, "?")
    return style.label(Card(rank, suit))


class MeldList(Widget):
    """Melds, one per line; `targets` are marked (where the selection can go)."""

    DEFAULT_CSS = """
    MeldList { height: auto; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None, empty: str = "") -> None:
        super().__init__(id=id)
        self.melds: Sequence[Meld] = ()
        self.targets: set[int] = set()
        self.card_style = CardStyle()
        self.empty = empty

    def show(self, melds: Sequence[Meld], card_style: CardStyle,
             targets: set[int] | None = None) -> None:
        changed = len(melds) != len(self.melds)
        self.melds, self.card_style = tuple(melds), card_style
        self.targets = targets or set()
        self.refresh(layout=changed)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(len(self.melds), 1 if self.empty else 0)

    def render(self) -> Text:
        if not self.melds:
            return Text(self.empty, Style(dim=True, italic=True))
        return Text("\n").join(meld_lines(self.melds, self.targets, self.card_style,
                                          self.size.width))

    def on_click(self, event: events.Click) -> None:
        if 0 <= event.y < len(self.melds):
            event.stop()
            self.post_message(MeldClicked(self.melds[event.y].id))
