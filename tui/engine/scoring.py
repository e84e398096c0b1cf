"""Scoring a finished deal: what each player's unmelded cards cost, and who won the game.

The player who went out scores the going-out bonus; the others pay for their cards, either
as they stand or, where the ruleset says so, after melding what they can.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .deal import Deal
from .meld_rules import card_penalty
from .rules import Ruleset
from .solver import best_arrangement
from .view import RoundResult


def hand_points(hand: Sequence[Card], rules: Ruleset, rules_round: int) -> int:
    """What `hand` would score if the deal ended now with it still held: after melding
    what it can where the ruleset scores the best arrangement, else every card in it (a
    contract game's hand scores whole, melds in it and all)."""
    if rules.scoring.score_best_arrangement:
        return best_arrangement(list(hand), rules, rules_round).penalty
    return sum(card_penalty(c, rules, rules_round) for c in hand)


def score_deal(deal: Deal) -> RoundResult:
    """Each seat's points for the deal, with the melds and deadwood they were scored by."""
    rules, rn = deal.rules, deal.rules_round
    points: list[int] = []
    melds: list[tuple[tuple[Card, ...], ...]] = []
    deadwood: list[tuple[Card, ...]] = []
    for seat in range(deal.players):
        hand = deal.hands[seat]
        # what the seat melded on the table (a contract game's melds; the declared melds of
        # whoever went out elsewhere): the summary shows them beside the cards that scored
        on_table = tuple(m.cards for m in deal.table if m.owner == seat)
        if seat == deal.went_out:
            melds.append(on_table)
            deadwood.append(())
            points.append(rules.going_out.bonus)
            continue
        if rules.scoring.score_best_arrangement:
            best = best_arrangement(hand, rules, rn)
            melds.append(on_table + tuple(m.cards for m in best.melds))
            deadwood.append(tuple(best.deadwood))
            points.append(best.penalty)
        else:
            melds.append(on_table)
            deadwood.append(tuple(hand))
            points.append(hand_points(hand, rules, rn))
    return RoundResult(deal.number, tuple(points), deal.went_out, tuple(melds),
                       tuple(deadwood))


def winners(totals: Sequence[int], rules: Ruleset) -> tuple[int, ...]:
    """The seats with the best total (lowest or highest, as the ruleset says); ties share."""
    pick = min if rules.end.winner == "lowest" else max
    best = pick(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
