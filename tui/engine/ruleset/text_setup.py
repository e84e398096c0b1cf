"""The rules text's first section, "Players and cards": how many play, the decks and
jokers for each count, the ace and the corner in runs, and who deals."""

from __future__ import annotations

from ..rules import DeckSpec, Ruleset
from .text_page import counted, item, para, section, span


def _deck_text(spec: DeckSpec) -> str:
    cards = spec.decks * 52 + spec.jokers
    jokers = f" and {counted(spec.jokers, 'joker')}" if spec.jokers else ""
    return f"{counted(spec.decks, 'deck')}{jokers} ({cards} cards)"


def players_and_cards(r: Ruleset) -> str:
    lines = [para(f"{span(r.players_min, r.players_max)} players.")]
    specs = [s for s in r.decks if s.players <= r.players_max]
    for index, spec in enumerate(specs):
        low = max(spec.players, r.players_min)
        high = specs[index + 1].players - 1 if index + 1 < len(specs) else r.players_max
        if low <= high:
            lines.append(item("-", f"{span(low, high)} players: {_deck_text(spec)}."))
    ace = {
        "low": "Aces are low: A-2-3 is a run, Q-K-A is not.",
        "high": "Aces are high: Q-K-A is a run, A-2-3 is not.",
        "both": "Aces are high or low: A-2-3 and Q-K-A are runs, but an ace is never both "
        "ends of one run.",
    }[r.ace]
    wrap = (
        "Runs may turn the corner (such as Q-K-A-2)."
        if r.wrap
        else "Runs do not turn the corner (no K-A-2)."
    )
    high_ace = r.ace == "high" if r.dealer_ace == "ranks" else r.dealer_ace == "high"
    aces = " (aces count high)" if high_ace else " (aces count low)"
    dealer = {
        "random": "The first dealer is chosen at random",
        "lowest_card": f"Everyone draws a card and the lowest deals first{aces}",
        "highest_card": f"Everyone draws a card and the highest deals first{aces}",
    }[r.dealer]
    lines.append(para(f"{ace} {wrap}"))
    lines.append(
        para(
            f"{dealer}; the deal then passes to the left each round.  Cards are dealt one at "
            "a time; the rest form the face-down stock, and its top card is turned up to "
            "start the discard pile.  Play starts left of the dealer and goes clockwise."
        )
    )
    return section("Players and cards", lines)
