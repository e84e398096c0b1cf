"""Which cards of a suit a run could ever hold: the shortest-window bitmask test used when
wilds may outnumber naturals agrees with a plain search over every run window.

A card wrongly called incapable would be scored as deadwood by the exact search (too many
points); one wrongly called capable only costs time, so both directions are checked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from solver_hands import examples
from solver_rules import contract_rummy, three_thirteen, wild_heavy, with_melds

from tui.engine.rules import RunRule
from tui.engine.solver.context import X, context_for
from tui.engine.solver.suits import _find_capable

# every ruleset here lets one natural carry any number of wilds (the bitmask's premise)
RULESETS = {
    "three_thirteen": three_thirteen(),
    "ace_both": three_thirteen(ace="both"),
    "ace_high": contract_rummy(ace="high"),
    "wrap": three_thirteen(wrap=True),
    "runs_of_four": with_melds(wild_heavy(), run=RunRule(4, 6)),
    "short_runs": with_melds(contract_rummy(), run=RunRule(3, 4)),
    "long_runs": with_melds(three_thirteen(), run=RunRule(5, None)),
}


def capable_by_search(ctx, budget: int, items: tuple[int, ...]) -> set[int]:
    """Codes some run window (any allowed length, any start) holds with <= budget wilds."""
    p = ctx.p
    places: dict[int, set[int]] = {}  # place -> codes there
    for c in items:
        q = c % X
        spots = ([1] if p.ace_low or p.wrap else []) + ([14] if p.ace_high and not p.wrap
                                                        else []) if q == 1 else [q]
        for spot in spots:
            places.setdefault(spot, set()).add(c)
            if p.wrap:
                places.setdefault(spot + 13, set()).add(c)
    lo, hi = (1, 26) if p.wrap else (p.min_pos, p.max_pos)
    out: set[int] = set()
    for length in range(p.run_min, min(p.run_max, 13) + 1):
        for start in range(lo, hi - length + 2):
            window = [q for q in range(start, start + length) if q in places]
            if len(window) >= max(1, p.min_natural) and length - len(window) <= budget:
                for q in window:
                    out |= places[q]
    return out


@examples(400)
@given(name=st.sampled_from(sorted(RULESETS)), budget=st.integers(0, 3),
       ranks=st.lists(st.integers(1, 13), max_size=9))
def test_bitmask_capability_matches_window_search(name, budget, ranks):
    rules = RULESETS[name]
    ctx = context_for(rules, len(rules.rounds))
    assert ctx.nat_min <= 1 and ctx.p.outnumber
    items = tuple(sorted(r for r in ranks if r not in ctx.p.wild_ranks))
    assert set(_find_capable(ctx, budget, items)) == capable_by_search(ctx, budget, items)
