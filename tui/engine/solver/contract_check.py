"""The check the engine runs on a player's own lay-down (`contract_melds_ok`): whether
melds already valid one by one make the round's contract together.

A contract is a fixed number of sets and runs laid down together, with rules tying them
(sets of different ranks; runs of different suits, or of one suit only when apart).  The
search (`contract_search`) builds only lay-downs this check accepts; a player's own is
told, in words, what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import HIGH_ACE, RANK_NAMES
from ..contract_options import option_rulesets
from ..meld import Meld
from ..meld_rules import MeldParams, meld_params
from ..rules import Ruleset
from .contract_slots import set_slots, slot_sizes


def _sets_fill_slots(sets: Sequence[Meld], slots: Sequence[tuple[int, int, int | None]]
                     ) -> bool:
    """Whether each set can be matched to its own slot (size within the slot's bounds,
    rank the slot's if it names one): a small bipartite matching."""
    def fits(meld: Meld, slot: tuple[int, int, int | None]) -> bool:
        least, most, rank = slot
        return least <= len(meld.cards) <= most and rank in (None, meld.rank)

    holder: list[int | None] = [None] * len(slots)  # the set filling each slot

    def place(i: int, seen: set[int]) -> bool:
        for j, slot in enumerate(slots):
            if j in seen or not fits(sets[i], slot):
                continue
            seen.add(j)
            other = holder[j]
            if other is None or place(other, seen):
                holder[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(sets)))



def contract_melds_ok(melds: Sequence[Meld], rules: Ruleset, round_no: int) -> str | None:
    """Why these melds are not the round's contract (count, kinds, sizes, ranks, suits);
    None if they are.  The melds themselves are assumed valid (see `make_meld`)."""
    contract = rules.round(round_no).contract
    if not contract.required:
        return "this round has no contract to lay down"
    if contract.alternatives:
        return _any_pattern_ok(melds, rules, round_no)
    sets = [m for m in melds if m.kind == "set"]
    runs = [m for m in melds if m.kind == "run"]
    colours = [m for m in melds if m.kind == "colour"]
    if (len(sets), len(runs), len(colours)) != (contract.sets, contract.runs,
                                                contract.colours):
        return (f"the contract is {contract.describe()}; these melds are "
                f"{_describe_counts(len(sets), len(runs), len(colours))}")
    if contract.set_ranks:
        if not _sets_fill_slots(sets, set_slots(rules, round_no)):
            got = ", ".join(f"{len(m.cards)} {RANK_NAMES[m.rank]}s" for m in sets)
            return (f"the contract is {contract.describe()}; these sets are {got} "
                    "(a set of a named rank must be of that rank)")
    for kind, group in (("set", [] if contract.set_ranks else sets), ("run", runs),
                        ("colour", colours)):
        slots = slot_sizes(rules, round_no, kind)
        if not group:
            continue
        lengths = sorted((len(m.cards) for m in group), reverse=True)
        # the longest meld takes the largest size, and so on down
        if any(not least <= length <= most
               for length, (least, most) in zip(lengths, slots, strict=True)):
            wanted = ", ".join(str(least) for least, _ in slots)
            exact = rules.exact_size(round_no)
            what = "groups of one colour" if kind == "colour" else f"{kind}s"
            return (f"the contract's {what} must have {'exactly' if exact else 'at least'} "
                    f"{wanted} cards; these have {', '.join(map(str, lengths))} "
                    f"({'contract.exact_size' if exact else 'the contract sizes'})")
    if not rules.contract.sets_same_rank:
        ranks = [m.rank for m in sets]
        if len(set(ranks)) < len(ranks):
            return "the sets of a contract must be of different ranks (contract.sets_same_rank)"
    mode = rules.contract.runs_same_suit
    params = meld_params(rules, round_no)
    if mode != "allowed" and params.same_suit:
        gap = rules.contract.same_suit_gap
        for i, a in enumerate(runs):
            for b in runs[i + 1:]:
                if a.suit != b.suit:
                    continue
                if mode == "forbidden":
                    return ("the runs of a contract must be of different suits "
                            "(contract.runs_same_suit)")
                if _too_close(_run_places(a, params), _run_places(b, params), params.wrap,
                              gap):
                    between = ("touch, joining up into one run" if gap == 1
                               else f"have fewer than {gap} ranks between them")
                    return (f"runs of one suit in a contract must be separate melds: these "
                            f"{between} (contract.runs_same_suit, contract.same_suit_gap)")
    return None


def _any_pattern_ok(melds: Sequence[Meld], rules: Ruleset, round_no: int) -> str | None:
    """A contract of several patterns (`contract.any_of`): None if the melds make one;
    else why not, told for the pattern of as many sets and runs as the melds if there is
    one (its sizes or suits are wrong), or else for all of them."""
    reasons = []
    sets = sum(1 for m in melds if m.kind == "set")
    colours = sum(1 for m in melds if m.kind == "colour")
    runs = len(melds) - sets - colours
    for option in option_rulesets(rules, round_no):
        reason = contract_melds_ok(melds, option, round_no)
        if reason is None:
            return None
        pattern = option.round(round_no).contract
        if (pattern.sets, pattern.runs, pattern.colours) == (sets, runs, colours):
            return reason
        reasons.append(reason)
    return (f"the contract is {rules.round(round_no).contract.describe()}; these melds are "
            f"{_describe_counts(sets, runs, colours)}")


def _describe_counts(sets: int, runs: int, colours: int = 0) -> str:
    parts = [f"{sets} set{'s' if sets != 1 else ''}", f"{runs} run{'s' if runs != 1 else ''}"]
    if colours:
        parts.append(f"{colours} group{'s' if colours != 1 else ''} of one colour")
    return " + ".join(parts)


def _run_places(meld: Meld, params: MeldParams) -> set[int]:
    places = {face[0] for face in meld.stands_for}
    if params.wrap:
        return {1 if q == HIGH_ACE else q for q in places}
    return places


def _too_close(a: set[int], b: set[int], wrap: bool, gap: int = 1) -> bool:
    """Two same-suit runs that are not separate melds: they share no place (runs that do,
    from two decks, are plainly two melds) and fewer than `gap` empty places lie between
    them (gap 1: they touch, and would join up into one run; K and A touch when runs
    wrap)."""
    if a & b:
        return False
    for q in a:
        for r in b:
            d = abs(q - r)
            if wrap:
                d = min(d, 13 - d)
            if d <= gap:
                return True
    return False
