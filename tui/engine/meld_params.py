"""The meld knobs of one round, flattened from the ruleset for speed.

The solver, the bots and the meld checks read these per call, so they are worked out once
per ruleset and round (a round may set its own meld rules: `rounds[].melds`).  A refusal of
cards as a meld is a `MeldError` naming the ruleset key at fault.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from .cards import ACE, HIGH_ACE, RED_SUITS, SUITS, Card
from .rules import Ruleset

MAX_RUN = 13  # a run never repeats a rank: 13 places (ace low or high, never both)
Of = TypeVar("Of", int, str)  # what a meld is of: a set's rank, a run's suit


class MeldError(ValueError):
    """Cards that do not form a legal meld; `rule` names the ruleset key broken."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.rule = rule


@dataclass(frozen=True)
class MeldParams:
    """The meld knobs of one round, flattened for speed (the solver reads them per call)."""

    wild_ranks: frozenset[int]  # includes 0 when jokers are wild
    set_min: int
    set_max: int  # a large number when unlimited; at most 4 with distinct suits
    distinct_suits: bool
    run_min: int
    run_max: int  # at most MAX_RUN
    ace_low: bool
    ace_high: bool
    wrap: bool
    min_natural: int
    outnumber: bool  # wilds may outnumber naturals (melds holding a natural card)
    wild_natural: bool = True  # a wild-rank card may stand for itself as a natural
    run_lowest: int = 1  # lowest run position allowed (`melds.run.lowest`; 1: no bound)
    run_highest: int = HIGH_ACE  # highest run position allowed (14: no bound)
    same_suit: bool = True  # runs are of one suit
    # Kinds the round allows (`melds.set.allowed` / `melds.run.allowed`).  A kind not
    # allowed also has a minimum size no meld reaches (`set_min` NO_MELD, `run_min` above
    # `run_max`), so every search that reads the sizes finds none without asking.
    sets: bool = True
    runs: bool = True
    max_wilds: int = 1 << 20  # most cards standing in as wilds in one meld (`melds.max_wilds`)
    # melds of one colour (`melds.set.one_colour`, `melds.run.one_colour`; the run's only
    # with runs of mixed suits: a run of one suit is of one colour anyway)
    set_colour: bool = False
    run_colour: bool = False
    # groups of one colour in any ranks (`contract.colours`, sized by `melds.colour`):
    # only where the round's contract asks for them (its lay-down, and laying off)
    colours: bool = False
    colour_min: int = 3
    colour_max: int = 1 << 20

    # derived (worked out once: the solver reads them in its inner loops)
    min_pos: int = field(init=False)  # lowest run position
    max_pos: int = field(init=False)  # highest run position
    bounded: bool = field(init=False)  # runs kept inside `melds.run.lowest` / `highest`

    def __post_init__(self) -> None:
        low = 1 if self.ace_low or self.wrap else 2
        high = 13 if self.wrap or not self.ace_high else HIGH_ACE
        bounded = not self.wrap and (self.run_lowest > 1 or self.run_highest < HIGH_ACE)
        if not self.wrap:
            low, high = max(low, self.run_lowest), min(high, self.run_highest)
        object.__setattr__(self, "min_pos", low)
        object.__setattr__(self, "max_pos", high)
        object.__setattr__(self, "bounded", bounded)


_PARAMS: dict[tuple[int, int, str], tuple[Ruleset, MeldParams]] = {}
UNLIMITED = 1 << 20
NO_MELD = UNLIMITED  # the smallest size of a kind of meld the round does not allow


def meld_params(rules: Ruleset, round_no: int, use: str = "meld") -> MeldParams:
    """The round's meld knobs (cached per ruleset object and round).

    `use` "lay_off" gives the knobs a lay-off is judged by (`melds.wild_ratio_on_lay_off`);
    "contract" those of the round's contract melds, whose sizes may be given per meld (the
    smallest set and run size of the contract; `contract_melds_ok` checks each meld's)."""
    key = (id(rules), round_no, use)
    hit = _PARAMS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if not 1 <= round_no <= len(rules.rounds):
        raise ValueError(f"round {round_no} does not exist: the ruleset has "
                         f"{len(rules.rounds)} rounds")
    wild = set(rules.round(round_no).wild)
    if rules.jokers_wild:
        wild.add(0)
    m = rules.melds_for(round_no)
    set_max = m.set.max if m.set.max is not None else UNLIMITED
    if m.set.distinct_suits:
        set_max = min(set_max, len(SUITS) // 2 if m.set.one_colour else len(SUITS))
    run_max = MAX_RUN if m.run.max is None else min(m.run.max, MAX_RUN)
    set_min, run_min = m.set.min, m.run.min
    outnumber = m.wilds_may_outnumber_naturals
    if use == "lay_off" and not m.wild_ratio_on_lay_off:
        outnumber = True
    if not m.set.allowed:
        set_min = NO_MELD
    if not m.run.allowed:
        run_min = MAX_RUN + 1
    options = rules.round(round_no).contract.options()
    colours = use != "meld" and any(o.colours for o in options)
    colour_min = m.colour.min
    if use == "contract":  # the smallest of any pattern of the contract
        set_min = min(min(o.sizes("set", set_min) or (set_min,)) for o in options)
        run_min = min(min(o.sizes("run", run_min) or (run_min,)) for o in options)
        colour_min = min(min(o.sizes("colour", colour_min) or (colour_min,))
                         for o in options)
    params = MeldParams(
        wild_ranks=frozenset(wild),
        set_min=set_min,
        set_max=set_max,
        distinct_suits=m.set.distinct_suits,
        run_min=run_min,
        run_max=run_max,
        ace_low=rules.ace_low,
        ace_high=rules.ace_high,
        wrap=rules.wrap,
        min_natural=m.min_natural,
        outnumber=outnumber,
        wild_natural=m.wild_rank_natural,
        run_lowest=m.run.lowest or 1,
        run_highest=m.run.highest or HIGH_ACE,
        same_suit=m.run.same_suit,
        sets=m.set.allowed,
        runs=m.run.allowed,
        max_wilds=UNLIMITED if m.max_wilds is None else m.max_wilds,
        set_colour=m.set.one_colour,
        run_colour=m.run.one_colour and not m.run.same_suit,
        colours=colours,
        colour_min=colour_min,
        colour_max=UNLIMITED if m.colour.max is None else m.colour.max,
    )
    if params.bounded:  # a run fits between the bounds
        params = replace(params, run_max=min(run_max, params.max_pos - params.min_pos + 1))
    if len(_PARAMS) > 256:
        _PARAMS.clear()
    _PARAMS[key] = (rules, params)
    return params


def colour(suit: str) -> str:
    """A suit's colour: "red" (hearts, diamonds) or "black" (clubs, spades)."""
    return "red" if suit in RED_SUITS else "black"


COLOUR_SUITS: dict[str, tuple[str, ...]] = {
    tint: tuple(s for s in SUITS if colour(s) == tint) for tint in ("black", "red")}


def one_colour(suits: Iterable[str], what: str, rule: str) -> str | None:
    """The one colour of `suits` (None for none); a `MeldError` for two colours."""
    tints = {colour(s) for s in suits if s}
    if len(tints) > 1:
        raise MeldError(f"a {what} here is of one colour: all red (hearts, diamonds) or all "
                        "black (clubs, spades)", rule)
    return next(iter(tints)) if tints else None


def settled(shown: set[Of], declared: set[Of], own: Iterable[Of], otherwise: Of) -> Of:
    """What a meld is of (a set's rank, a run's suit): the one its naturals show, else the
    least a wild was declared to stand for, else the commonest of `own` (its cards' own,
    jokers left out; the highest of equals), else `otherwise`.  So a meld of wilds only reads
    the same each time it is read, whatever order its cards come in."""
    if shown:
        return next(iter(shown))
    if declared:
        return min(declared)
    counts = Counter(own)
    return max(counts, key=lambda v: (counts[v], v)) if counts else otherwise


def card_penalty(card: Card, rules: Ruleset, round_no: int) -> int:
    """Points a card scores when left out of melds: its value, or the fixed wild value for
    wilds when the ruleset says so (`scoring.wild_unmelded: fixed`)."""
    if rules.scoring.wild_unmelded == "fixed" and rules.is_wild(card.rank, round_no):
        return rules.scoring.wild_value
    return rules.value(card.rank)


def run_positions_of(rank: int, params: MeldParams) -> tuple[int, ...]:
    """Places a natural card of `rank` can take in a run."""
    if rank != ACE:
        if params.run_lowest <= rank <= params.run_highest or params.wrap:
            return (rank,)
        return ()
    if params.wrap:
        return (1,)
    high = params.ace_high and params.run_highest >= HIGH_ACE
    return tuple(p for p, ok in ((1, params.ace_low and params.run_lowest <= 1),
                                 (HIGH_ACE, high)) if ok)


def check_counts(naturals: int, wilds: int, params: MeldParams, what: str) -> None:
    if naturals < params.min_natural:
        raise MeldError(
            f"a {what} needs at least {params.min_natural} natural card"
            f"{'s' if params.min_natural > 1 else ''}, this one has {naturals}",
            "melds.min_natural")
    if not params.outnumber and wilds > naturals and naturals:
        raise MeldError(f"wilds may not outnumber naturals ({wilds} wild, {naturals} natural)",
                        "melds.wilds_may_outnumber_naturals")
    if wilds > params.max_wilds:
        most = params.max_wilds
        raise MeldError(f"a {what} may hold {'no' if not most else f'at most {most}'} "
                        f"wild card{'s' if most != 1 else ''} here, this one has {wilds}",
                        "melds.max_wilds")
