"""What a hint points at, read from its words: the cards of the hand it names, or the pile
to draw from.  A hint is one line of text (over SSH too), advice first, then why after a
colon; the table marks what the advice names and puts the cursor there."""

from __future__ import annotations

import re

from tui.engine.cards import Card, parse_cards

_CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9TJQKA])[CDHS]|JK)(?![A-Za-z0-9])")


def advice_of(hint: str) -> str:
    """The advice of a hint, without its reasons."""
    return hint.split(":", 1)[0]


def named_cards(hint: str) -> list[Card]:
    """The cards the advice names, in order (engine codes such as `10S`, `QH`, `JK`)."""
    return [card for code in _CARD_CODE.findall(advice_of(hint))
            for card in parse_cards(code)]


def named_pile(hint: str) -> str | None:
    """`"stock"` or `"discard"` when the advice is to draw from it, else None."""
    advice = advice_of(hint).lower()
    if "draw from the stock" in advice:
        return "stock"
    if "take the top discard" in advice or "from the pile" in advice:
        return "discard"
    return None
