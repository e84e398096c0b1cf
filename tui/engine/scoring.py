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


def score_deal(deal: Deal) -> RoundResult:
    """Each seat's points for the deal, with the melds and deadwood they were scored by."""
    rules, rn = deal.rules, deal.rules_round
    points: list[int] = []
    melds: list[tuple[tuple[Card, ...], ...]] = []
    deadwood: list[tuple[Card, ...]] = []
    for seat in range(deal.players):
        hand = deal.hands[seat]
        if seat == deal.went_out:
            table_melds = tuple(m.cards for m in deal.table if m.owner == seat)
            melds.append(table_melds if not rules.going_out.melding_during_play else ())
            deadwood.append(())
            points.append(rules.going_out.bonus)
            continue
        if rules.scoring.score_best_arrangement:
            best = best_arrangement(hand, rules, rn)
            melds.append(tuple(m.cards for m in best.melds))
            deadwood.append(tuple(best.deadwood))
            points.append(best.penalty)
        else:
            melds.append(())
            deadwood.append(tuple(hand))
            points.append(sum(card_penalty(c, rules, rn) for c in hand))
    return RoundResult(deal.number, tuple(points), deal.went_out, tuple(melds),
                       tuple(deadwood))


def winners(totals: Sequence[int], rules: Ruleset) -> tuple[int, ...]:
    """The seats with the best total (lowest or highest, as the ruleset says); ties share."""
    pick = min if rules.end.winner == "lowest" else max
    best = pick(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
