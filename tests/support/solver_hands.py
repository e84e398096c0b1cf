"""Hypothesis strategies for the solver tests: hands dealt from two decks (so duplicates
occur) plus jokers, often from a few ranks and suits so that melds are common, sometimes
made only of wild cards."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tui.engine.cards import Card, build_shoe, parse_card
from tui.engine.rules import Ruleset

SHOE = build_shoe(2, 4)


class Rulesets(dict[str, Ruleset]):
    """Rulesets by name whose repr is their names: hypothesis writes a strategy's arguments
    into the strategy's repr, and a dozen whole rulesets made one of 51 kB (and a warning
    in every test run)."""

    def __repr__(self) -> str:
        return f"Rulesets({', '.join(self)})"


def examples(count: int) -> settings:
    """A solver property test's settings: the brute forces take milliseconds a hand, so no
    deadline.  Each heavy property runs a few hundred examples in the everyday run and again
    with thousands in the slow tier (`-m slow`), so the README's test command stays within
    its five minutes while the soak still runs before a release."""
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def cards(text: str) -> list[Card]:
    """Cards from text, each a distinct physical card (twins included) by its place."""
    return [parse_card(tok, uid=i) for i, tok in enumerate(text.split())]


def check_partition(hand: list[Card], arrangement) -> None:
    """Every card of the hand is exactly once among the melds and the deadwood."""
    placed = [c.uid for m in arrangement.melds for c in m.cards]
    placed += [c.uid for c in arrangement.deadwood]
    assert sorted(placed) == sorted(c.uid for c in hand)


@st.composite
def deals(draw, rulesets: dict[str, Ruleset], max_cards: int = 9, min_cards: int = 0,
          wild_only: bool = False):
    """(ruleset name, ruleset, round, hand)."""
    name = draw(st.sampled_from(sorted(rulesets)))
    rules = rulesets[name]
    round_no = draw(st.integers(1, len(rules.rounds)))
    wild = [c for c in SHOE if rules.is_wild(c.rank, round_no) or c.is_joker]
    if wild_only:
        pool = [c for c in wild if rules.is_wild(c.rank, round_no)] or wild
    elif draw(st.booleans()):
        ranks = draw(st.sets(st.integers(1, 13), min_size=2, max_size=5))
        suits = draw(st.sets(st.sampled_from("CDHS"), min_size=1, max_size=3))
        pool = [c for c in SHOE if c.rank in ranks and c.suit in suits]
        pool += [c for c in wild if c not in pool or c.is_joker]
        pool = list({c.uid: c for c in pool}.values())
    else:
        pool = list(SHOE)
    size = draw(st.integers(min(min_cards, len(pool)), min(max_cards, len(pool))))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size,
                          unique=True))
    return name, rules, round_no, [pool[i] for i in picks]
