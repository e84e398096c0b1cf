"""Scoring a finished deal: what each player's unmelded cards cost, and who won the game.

The player who went out scores the going-out bonus (and the one-turn bonus for melding the
whole hand at once, or a gin bonus for knocking with nothing kept), plus any cards kept
under a laying-down limit; the others pay for their cards, either as they stand or, where
the ruleset says so, after melding what they can and laying off onto a knocker's melds,
multiplied when the player who went out did so in one turn.  Where the player who went
out collects, the others' points are theirs instead (or go to a defender who undercut a
knocker); under melder scoring every card on the table scores plus for who played it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .deal import Deal
from .knocking import discarded_going_out, gin_bonus, knocked, lay_off_onto, undercut
from .meld_rules import card_penalty
from .melded_points import melded_points
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
    out = deal.went_out
    kept_cards = deal.hands[out] if out >= 0 else []
    kept = sum(card_penalty(c, rules, rn) for c in kept_cards)
    knock = knocked(rules, out, kept_cards)
    onto = [m for m in deal.table if m.owner == out] \
        if knock and rules.lay_off.onto_knocker else []
    # going "rummy" multiplies what the others hold
    times = rules.going_out.one_turn_multiplier if out >= 0 and deal.in_one_turn else 1
    plus = melded_points(deal.table, deal.log, deal.number, deal.players, rules) \
        if rules.scoring.melded == "plus" else [0] * deal.players
    points: list[int] = []
    melds: list[tuple[tuple[Card, ...], ...]] = []
    deadwood: list[tuple[Card, ...]] = []
    for seat in range(deal.players):
        hand = deal.hands[seat]
        # what the seat melded on the table (a contract game's melds; the declared melds of
        # whoever went out elsewhere): the summary shows them beside the cards that scored
        on_table = tuple(m.cards for m in deal.table if m.owner == seat)
        if seat == out:
            melds.append(on_table)
            deadwood.append(tuple(hand))  # cards kept under `going_out.deadwood_limit`
            bonus = rules.going_out.bonus + gin_bonus(
                rules, out, hand, discarded_going_out(deal.log, deal.number, seat))
            if deal.in_one_turn:
                bonus += rules.going_out.one_turn_bonus
            points.append(plus[seat] + bonus + (-kept if rules.scoring.melded == "plus"
                                                else kept))
            continue
        if rules.scoring.score_best_arrangement:
            best = best_arrangement(hand, rules, rn)
            seat_melds = on_table + tuple(m.cards for m in best.melds)
            dead, penalty = best.deadwood, best.penalty
        else:
            seat_melds, dead = on_table, tuple(hand)
            penalty = hand_points(hand, rules, rn)
        if onto:
            laid, dead = lay_off_onto(dead, onto, rules, rn)
            if laid:
                seat_melds += (laid,)
                penalty -= sum(card_penalty(c, rules, rn) for c in laid)
        melds.append(seat_melds)
        deadwood.append(tuple(dead))
        points.append(plus[seat] - penalty * times if rules.scoring.melded == "plus"
                      else penalty * times)
    if rules.scoring.out_player_collects:
        cut = rules.scoring.undercut_bonus
        turned = undercut(points, out, kept, cut) if knock and cut is not None else None
        points = turned if turned is not None else _collected(points, out, kept)
    phases, made = _phases_played(deal) if rules.per_player else ((), ())
    return RoundResult(deal.number, tuple(points), deal.went_out, tuple(melds),
                       tuple(deadwood), phases, made)


def _phases_played(deal: Deal) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """`progression: per_player`: the phase each seat played in `deal`, and whether it
    laid that phase down (a phase with no contract is made by playing it)."""
    seats = range(deal.players)
    return (tuple(deal.round_of(s) for s in seats),
            tuple(not deal.contract_of(s).required or deal.contract_down(s) for s in seats))


def _collected(points: list[int], out: int, kept: int) -> list[int]:
    """`scoring.out_player_collects`: the player who went out scores the others' points
    less the `kept` points of their own cards (the bonuses stay theirs); everyone else
    scores 0, and so does everyone when nobody went out."""
    if out < 0:
        return [0] * len(points)
    bonuses = points[out] - kept
    collected = sum(p for seat, p in enumerate(points) if seat != out)
    return [collected - kept + bonuses if seat == out else 0 for seat in range(len(points))]


def winners(totals: Sequence[int], rules: Ruleset, results: Sequence[RoundResult] = (),
            phases: Sequence[int] = ()) -> tuple[int, ...]:
    """The seats with the best total (lowest or highest, as the ruleset says); equal best
    totals share the win unless `end.tie_break` settles it from the deals played.  With
    `phases` (the phases each seat made, `progression: per_player`) only the seats that
    made the most are in the running."""
    pick = min if rules.end.winner == "lowest" else max
    seats = list(range(len(totals)))
    if phases:
        seats = [s for s in seats if phases[s] == max(phases)]
    best = pick(totals[s] for s in seats)
    tied = [s for s in seats if totals[s] == best]
    rule = rules.end.tie_break
    if len(tied) > 1 and rule == "last_round":
        for result in reversed(results):
            top = pick(result.points[s] for s in tied)
            tied = [s for s in tied if result.points[s] == top]
            if len(tied) == 1:
                break
    elif len(tied) > 1 and rule == "most_outs":
        outs = {s: sum(1 for r in results if r.went_out == s) for s in tied}
        most = max(outs.values())
        tied = [s for s in tied if outs[s] == most]
    return tuple(tied)
