"""How cards look: small cards for the hand, a large one for the discard pile, card backs
for the stock and inline "chips" for melds, logs and summaries.

Pure Rich text, no widgets: each function returns `Text` lines so widgets can place them
and tests can read them.  A `CardStyle` carries the player's choices (suit symbols or
ASCII letters, two- or four-colour deck).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from tui.engine.cards import RANK_NAMES, RED_SUITS, SUIT_SYMBOLS, Card

from .colours import Colours, default_colours

# Unicode punctuation the table writes, and what ASCII mode writes instead.
_TO_ASCII = str.maketrans({"—": "-", "–": "-", "…": "...", "·": "-", "●": "*", "✓": "v",
                           "★": "*", "▶": ">", "▸": ">", "◀": "<", "×": "x", "→": "->",
                           "←": "<-", "⏎": "Enter", "␣": "Space", "Σ": "tot", "═": "=",
                           "━": "=", "┈": "."})


@dataclass(frozen=True)
class CardStyle:
    """The player's card choices (from settings) and the theme's colours to paint with."""

    ascii: bool = False
    four_colour: bool = False
    colours: Colours | None = None  # None: the default theme's

    @property
    def c(self) -> Colours:
        return self.colours if self.colours is not None else default_colours()

    def text(self, words: str) -> str:
        """`words` as the table writes them: unchanged, or in ASCII mode with plain
        punctuation (`—` as `-`, `…` as `...`)."""
        return words.translate(_TO_ASCII) if self.ascii else words

    def suit(self, card: Card) -> str:
        if card.is_joker:
            return ""
        return card.suit if self.ascii else SUIT_SYMBOLS[card.suit]

    def colour(self, card: Card) -> str:
        c = self.c
        if card.is_joker:
            return c.joker
        if self.four_colour and card.suit in ("C", "D"):
            return c.green if card.suit == "C" else c.blue
        return c.red if card.suit in RED_SUITS else c.ink

    def label(self, card: Card) -> str:
        """`7♥`, `10♥` (`7H`, `10H` in ASCII), `JK` for a joker: the one notation of the
        app, in the log, hints, hand, melds and piles alike (a ten is always `10`)."""
        if card.is_joker:
            return "JK"
        return RANK_NAMES[card.rank] + self.suit(card)

    @property
    def wild_mark(self) -> str:
        return "*" if self.ascii else "★"

    @property
    def corners(self) -> tuple[str, str, str, str, str, str]:
        """top-left, top-right, bottom-left, bottom-right, horizontal, vertical."""
        if self.ascii:
            return ("+", "+", "+", "+", "-", "|")
        return ("╭", "╮", "╰", "╯", "─", "│")


def chip(card: Card, style: CardStyle, wild: bool = False, stands_for: str = "") -> Text:
    """A card as a small inline label on a card-coloured background; a wild card on the
    table also names what it stands for (`JK★7♣` in a run, `JK★7` in a set)."""
    c = style.c
    bg = c.wild_face if wild else c.face
    text = Text(style.label(card), Style(color=style.colour(card), bgcolor=bg, bold=True))
    if wild:
        text.append(style.wild_mark, Style(color=c.wild_mark, bgcolor=bg))
    if stands_for:
        text.append(stands_for, Style(color=c.wild_mark, bgcolor=bg, bold=True))
    return text


def chips(cards: Iterable[Card], style: CardStyle, wild: Iterable[Card] = ()) -> Text:
    """Cards as chips separated by spaces; `wild` lists cards (by uid) to mark."""
    wild_uids = {c.uid for c in wild}
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(chip(card, style, card.uid in wild_uids))
    return out


class Canvas:
    """A grid of styled cells that cards are painted onto, later cards over earlier."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.cells: list[list[tuple[str, Style | None]]] = [
            [(" ", None)] * width for _ in range(height)
        ]

    def put(self, x: int, y: int, text: str, style: Style | None) -> None:
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width and 0 <= y < self.height:
                self.cells[y][x + i] = (ch, style)

    def put_text(self, x: int, y: int, text: Text) -> None:
        """Paint a styled `Text` (one line) keeping its styles."""
        plain = text.plain
        styles: list[Style | None] = [_as_style(text.style)] * len(plain)
        for span in text.spans:
            for i in range(span.start, min(span.end, len(plain))):
                styles[i] = _as_style(span.style)
        for i, ch in enumerate(plain):
            self.put(x + i, y, ch, styles[i])

    def lines(self) -> list[Text]:
        """One `Text` a row, with one span for each run of cells in the same style (a
        span a cell would make every redraw of a card several times slower)."""
        out = []
        for row in self.cells:
            line = Text()
            run: list[str] = []
            run_style: Style | None = None
            for ch, style in row:
                if run and style is not run_style and style != run_style:
                    line.append("".join(run), run_style)
                    run = []
                run_style = style
                run.append(ch)
            if run:
                line.append("".join(run), run_style)
            out.append(line)
        return out


def _as_style(style: str | Style | None) -> Style | None:
    if style is None or style == "":
        return None
    return style if isinstance(style, Style) else Style.parse(style)


def paint_small(
    canvas: Canvas,
    x: int,
    y: int,
    card: Card,
    style: CardStyle,
    *,
    wild: bool = False,
    edge: str = "",
    bold_edge: bool = False,
    tall: bool = False,
) -> None:
    """A 5×3 card (5×5 when `tall`): a border and the rank and suit in its top-left
    corner; a tall card repeats them bottom-right with the suit in the middle."""
    tl, tr, bl, br, h, v = style.corners
    bg = style.c.wild_face if wild else style.c.face
    edge_style = Style(color=edge or style.c.edge, bgcolor=bg, bold=bold_edge)
    ink = Style(color=style.colour(card), bgcolor=bg, bold=True)
    top = tl + (style.wild_mark + h * 2 if wild else h * 3) + tr
    canvas.put(x, y, top, edge_style)
    label = style.label(card)[:3]
    inside = [label.ljust(3)]
    if tall:
        inside.append((style.suit(card) or style.wild_mark).center(3))
        inside.append(label.rjust(3))
    for row, text in enumerate(inside, start=1):
        canvas.put(x, y + row, v, edge_style)
        canvas.put(x + 1, y + row, text, ink)
        canvas.put(x + 4, y + row, v, edge_style)
    canvas.put(x, y + len(inside) + 1, bl + h * 3 + br, edge_style)


def big_card(card: Card, style: CardStyle, wild: bool = False, edge: str = "") -> list[Text]:
    """A 7×5 card for the top of the discard pile."""
    tl, tr, bl, br, h, v = style.corners
    bg = style.c.wild_face if wild else style.c.face
    edge_style = Style(color=edge or style.c.edge, bgcolor=bg)
    ink = Style(color=style.colour(card), bgcolor=bg, bold=True)
    label = style.label(card)
    suit = style.suit(card) or (style.wild_mark if not style.ascii else "*")
    rows = [
        (tl + (style.wild_mark + h * 4 if wild else h * 5) + tr, None),
        (v, label.ljust(5)),
        (v, suit.center(5)),
        (v, label.rjust(5)),
        (bl + h * 5 + br, None),
    ]
    lines = []
    for border, inside in rows:
        line = Text()
        if inside is None:
            line.append(border, edge_style)
        else:
            line.append(border, edge_style)
            line.append(inside, ink)
            line.append(v, edge_style)
        lines.append(line)
    return lines


def card_back(style: CardStyle, width: int = 7, height: int = 5) -> list[Text]:
    """The back of a card (the stock)."""
    tl, tr, bl, br, h, v = style.corners
    edge = Style(color=style.c.back_ink, bgcolor=style.c.back)
    fill = edge
    pattern = "#" if style.ascii else "░"
    lines = [Text(tl + h * (width - 2) + tr, edge)]
    for _ in range(height - 2):
        line = Text(v, edge)
        line.append(pattern * (width - 2), fill)
        line.append(v, edge)
        lines.append(line)
    lines.append(Text(bl + h * (width - 2) + br, edge))
    return lines


def empty_slot(style: CardStyle, width: int = 7, height: int = 5) -> list[Text]:
    """Where a pile would be when it is empty."""
    faint = Style(color=style.c.faint, dim=True)
    if style.ascii:
        tl = tr = bl = br = "+"
        h, v = "-", "|"
    else:
        tl, tr, bl, br, h, v = "┌", "┐", "└", "┘", "╌", "╎"
    lines = [Text(tl + h * (width - 2) + tr, faint)]
    for _ in range(height - 2):
        lines.append(Text(v + " " * (width - 2) + v, faint))
    lines.append(Text(bl + h * (width - 2) + br, faint))
    return lines


def fan_step(count: int, width: int, card_width: int = 5) -> int:
    """How far apart to draw `count` small cards in `width` columns: 6 (a gap between
    cards) down to 2 (heavily overlapped)."""
    if count <= 1:
        return card_width + 1
    for step in (card_width + 1, card_width, card_width - 1, card_width - 2):
        if step * (count - 1) + card_width <= width:
            return step
    return 2


def fan_width(count: int, step: int, card_width: int = 5) -> int:
    return 0 if count == 0 else step * (count - 1) + card_width


# A card in the engine's notation inside a sentence: `QC`, `10H`, `TS`.
_CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([CDHS])(?![A-Za-z0-9])")


@dataclass(frozen=True)
class CardWords:
    """`card_words` in one card style, keeping one table's names: equal for equal style
    and names, so lines written with it can be kept for every screen that writes alike
    (`widgets.gamelog.LogTail`)."""

    style: CardStyle
    names: tuple[str, ...]

    def __call__(self, text: str) -> str:
        return card_words(text, self.style, self.names)


def card_words(text: str, style: CardStyle, keep: Iterable[str] = ()) -> str:
    """`text` (a log line, a hint, a refusal) with every card written as the table writes
    it (`QC` becomes `Q♣`, `TS` becomes `10♠`); the strings in `keep` (player names, which
    are data) are left exactly as they are."""
    names = sorted((k for k in keep if k), key=len, reverse=True)
    pieces = re.split("(" + "|".join(map(re.escape, names)) + ")", text) if names else [text]

    def written(match: re.Match[str]) -> str:
        rank = 10 if match.group(1) in ("T", "10") else match.group(1)
        face = f"{rank}{match.group(2)}"
        return face if style.ascii else face[:-1] + SUIT_SYMBOLS[face[-1]]

    return style.text("".join(piece if i % 2 else _CARD_IN_TEXT.sub(written, piece)
                              for i, piece in enumerate(pieces)))
