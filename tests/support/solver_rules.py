"""Rulesets built straight from the `rules.py` dataclasses, for the meld and solver tests.

They mirror the bundled games (Three Thirteen, Contract Rummy, Liverpool and a wild-heavy
house variant) without going through the YAML loader, so these tests pin down meld logic
alone; `tests/engine/test_solver_bundled.py` checks the bundled files as loaded.
"""

from __future__ import annotations

from dataclasses import replace

from tui.engine.rules import (
    STANDARD_VALUES,
    BuyingRules,
    Contract,
    ContractRules,
    DeckSpec,
    DrawRules,
    EndRules,
    GoingOutRules,
    JokerSwapRules,
    LayOffRules,
    MeldRules,
    Round,
    Ruleset,
    RunRule,
    ScoringRules,
    SetRule,
    StockRules,
)


def three_thirteen(**changes) -> Ruleset:
    """11 rounds of 3..13 cards, the rank equal to the hand size wild, ace low only."""
    wild_of = {3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 11, 12: 12, 13: 13}
    rounds = tuple(Round(cards=n, wild=(wild_of[n],)) for n in range(3, 14))
    rules = Ruleset(
        name="Three Thirteen (test)",
        description="",
        players_min=2,
        players_max=8,
        decks=(DeckSpec(2, 1), DeckSpec(3, 2)),
        ace="low",
        wrap=False,
        jokers_wild=False,
        dealer="random",
        rounds=rounds,
        melds=MeldRules(set=SetRule(3, None, False), run=RunRule(3, None), min_natural=1,
                        wilds_may_outnumber_naturals=True),
        contract=ContractRules(),
        draw=DrawRules(),
        buying=BuyingRules(),
        lay_off=LayOffRules(when="never"),
        joker_swap=JokerSwapRules(enabled=False),
        going_out=GoingOutRules(melding_during_play=False, discard="required",
                                final_turns=True),
        stock=StockRules(),
        scoring=ScoringRules(values=dict(STANDARD_VALUES), score_best_arrangement=True),
        end=EndRules(),
    )
    return replace(rules, **changes) if changes else rules


def contract_rummy(**changes) -> Ruleset:
    """7 deals of 10/12 cards with contracts; jokers wild; sets of 3-4 distinct suits."""
    deals = (
        (10, 2, 0), (10, 1, 1), (10, 0, 2), (10, 3, 0), (12, 2, 1), (12, 1, 2), (12, 0, 3),
    )
    rounds = tuple(
        Round(cards=n, contract=Contract(sets=s, runs=r), all_at_once=(k == 6),
              going_out_discard="forbidden" if k == 6 else None)
        for k, (n, s, r) in enumerate(deals)
    )
    values = dict(STANDARD_VALUES) | {1: 15, 0: 15}
    rules = Ruleset(
        name="Contract Rummy (test)",
        description="",
        players_min=3,
        players_max=5,
        decks=(DeckSpec(3, 1, 1), DeckSpec(4, 2, 2)),
        ace="both",
        wrap=False,
        jokers_wild=True,
        dealer="lowest_card",
        rounds=rounds,
        melds=MeldRules(set=SetRule(3, 4, True), run=RunRule(3, None), min_natural=1,
                        wilds_may_outnumber_naturals=True),
        contract=ContractRules(runs_same_suit="forbidden", sets_same_rank=False),
        draw=DrawRules(discard="deep"),
        buying=BuyingRules(),
        lay_off=LayOffRules(when="after_contract"),
        joker_swap=JokerSwapRules(enabled=True, runs_only=True),
        going_out=GoingOutRules(melding_during_play=True, discard="optional"),
        stock=StockRules(),
        scoring=ScoringRules(values=values),
        end=EndRules(),
    )
    return replace(rules, **changes) if changes else rules


def liverpool(**changes) -> Ruleset:
    """Runs of 4+, sets of 3+ any suits, same-suit runs only when separate."""
    base = contract_rummy()
    rules = replace(
        base,
        name="Liverpool (test)",
        decks=(DeckSpec(3, 2, 2),),
        melds=MeldRules(set=SetRule(3, None, False), run=RunRule(4, None), min_natural=1,
                        wilds_may_outnumber_naturals=True),
        contract=ContractRules(runs_same_suit="separate", sets_same_rank=False),
    )
    return replace(rules, **changes) if changes else rules


def wild_heavy(**changes) -> Ruleset:
    """Three Thirteen with jokers as extra wilds and all-wild melds allowed."""
    base = three_thirteen()
    rules = replace(
        base,
        name="Wild heavy (test)",
        decks=(DeckSpec(2, 1, 2), DeckSpec(3, 2, 4)),
        jokers_wild=True,
        melds=replace(base.melds, min_natural=0),
        scoring=ScoringRules(values=dict(STANDARD_VALUES) | {0: 20, 11: 11, 12: 12, 13: 13},
                             score_best_arrangement=True),
    )
    return replace(rules, **changes) if changes else rules


def with_melds(rules: Ruleset, **changes) -> Ruleset:
    """`rules` with some `MeldRules` fields changed (set=..., run=..., min_natural=...)."""
    return replace(rules, melds=replace(rules.melds, **changes))


# Named families of rules the solver tests run through.
THREE_THIRTEEN_LIKE = {
    "three_thirteen": three_thirteen(),
    "two_naturals": with_melds(three_thirteen(), min_natural=2),
    "naturals_not_outnumbered": with_melds(three_thirteen(), wilds_may_outnumber_naturals=False),
    "ace_both": three_thirteen(ace="both"),
    "wrap": three_thirteen(wrap=True),
    "fixed_wild_value": three_thirteen(scoring=ScoringRules(
        values=dict(three_thirteen().scoring.values), wild_unmelded="fixed", wild_value=30)),
    "wilds_never_natural": with_melds(three_thirteen(), wild_rank_natural=False),
    "runs_3_to_k": with_melds(three_thirteen(ace="both"), run=RunRule(3, None, lowest=3,
                                                                      highest=13)),
    "runs_mixed_suits": with_melds(three_thirteen(), run=RunRule(3, None, same_suit=False)),
}
CONTRACT_LIKE = {
    "contract_rummy": contract_rummy(),
    "liverpool": liverpool(),
    "ace_high": contract_rummy(ace="high"),
    "short_runs": with_melds(contract_rummy(), run=RunRule(3, 5)),
    "wrap": contract_rummy(wrap=True),
    "even_wilds": with_melds(liverpool(), wilds_may_outnumber_naturals=False),
}
WILD_HEAVY = {
    "wild_heavy": wild_heavy(),
    "capped_sets": with_melds(wild_heavy(), set=SetRule(3, 3, False), run=RunRule(4, 6)),
    "distinct_suits": with_melds(wild_heavy(), set=SetRule(3, None, True)),
    "even_wilds": with_melds(wild_heavy(), wilds_may_outnumber_naturals=False),
    "two_naturals": with_melds(wild_heavy(), min_natural=2),
    "one_natural": with_melds(wild_heavy(), min_natural=1),
    "wrap_ace_high": wild_heavy(wrap=True, ace="high"),
    "wilds_never_natural": with_melds(wild_heavy(), wild_rank_natural=False),
    "all_wild_but_even": with_melds(wild_heavy(), wilds_may_outnumber_naturals=False,
                                    wild_rank_natural=False),
    "mixed_suits_to_q": with_melds(wild_heavy(ace="high"),
                                   run=RunRule(3, None, highest=12, same_suit=False)),
}
