"""Whether cards form a legal meld under a ruleset, and what every wild in it stands for.

Every rule a meld can break is checked here and nowhere else, so the engine, the bots, the
solver and the `rummy solve` command all agree on what a set or a run is.  A refusal is a
`MeldError` whose `rule` names the ruleset key at fault (e.g. `melds.set.max`), so front
ends can point the player at the rule rather than just saying no.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .cards import ACE, HIGH_ACE, Card
from .meld import Face, Meld
from .meld_colours import validate_colour
from .meld_params import (
    MAX_RUN,
    UNLIMITED,
    MeldError,
    MeldParams,
    card_penalty,
    meld_params,
    run_positions_of,
)
from .meld_runs import validate_run
from .meld_sets import validate_set
from .rules import Ruleset

# the meld API: callers import these from here
__all__ = ["MAX_RUN", "UNLIMITED", "MeldError", "MeldParams", "card_penalty", "extend_meld",
           "make_meld", "meld_params", "run_positions_of", "swap_joker", "validate_meld"]

# --------------------------------------------------------------------------------------------
# validation


def make_meld(
    cards: Sequence[Card],
    rules: Ruleset,
    round_no: int,
    declare: Mapping[int, Face] | None = None,
    *,
    kind: str | None = None,
    use: str = "meld",
) -> Meld:
    """Validate `cards` as one set or run and say what each card stands for.

    `declare` maps a wild card's uid to the face it stands for; undeclared wilds get a
    sensible face (gaps first, then the high end of a run, then the low end).  `kind`
    ("set"/"run") forces the reading when cards could be either (e.g. all wilds).  `use`
    "contract" judges a meld of the round's contract (see `meld_params`).
    """
    fixed = [declare.get(card.uid) if declare else None for card in cards]
    return validate_meld(list(cards), fixed, meld_params(rules, round_no, use), kind, "")


def extend_meld(
    meld: Meld,
    cards: Sequence[Card],
    rules: Ruleset,
    round_no: int,
    end: str = "",
    declare: Mapping[int, Face] | None = None,
) -> Meld:
    """Lay `cards` off onto `meld`: a new meld (same owner and id) holding them too.

    Cards already in the meld keep what they stand for; `end` ("low"/"high") says at which
    end of a run new wilds go (default: high end first, then low).
    """
    if not cards:
        raise MeldError("nothing to lay off", "lay_off")
    uids = {card.uid for card in meld.cards if card.uid >= 0}
    for card in cards:
        if card.uid >= 0 and card.uid in uids:
            raise MeldError(f"{card} is already in that meld", "lay_off")
    fixed: list[Face | None] = list(meld.stands_for)
    fixed += [declare.get(card.uid) if declare else None for card in cards]
    new = validate_meld(list(meld.cards) + list(cards), fixed,
                        meld_params(rules, round_no, "lay_off"), meld.kind, end)
    return replace(meld, cards=new.cards, stands_for=new.stands_for)


def swap_joker(meld: Meld, card: Card, rules: Ruleset, round_no: int) -> tuple[Meld, Card]:
    """Put the natural `card` in place of the joker standing for it; return the new meld
    and the freed joker.  Only jokers are reclaimed (`joker_swap.*` rules)."""
    if not rules.joker_swap.enabled:
        raise MeldError("jokers cannot be taken back from melds", "joker_swap.enabled")
    if meld.kind == "set" and rules.joker_swap.runs_only:
        raise MeldError("a joker in a set stays there: only jokers in runs can be swapped",
                        "joker_swap.runs_only")
    params = meld_params(rules, round_no)
    if card.is_joker or card.rank in params.wild_ranks:
        raise MeldError(f"{card} is wild: only a natural card can replace a joker",
                        "joker_swap")
    wanted_pos = run_positions_of(card.rank, params)
    for i, (held, face) in enumerate(zip(meld.cards, meld.stands_for, strict=True)):
        if not held.is_joker:
            continue
        if meld.kind == "run":
            if face[1] not in (card.suit, "" if not params.same_suit else card.suit) \
                    or face[0] not in wanted_pos:
                continue
            if params.wrap and face[0] == HIGH_ACE and card.rank != ACE:
                continue
        else:
            if face[0] != card.rank or face[1] not in ("", card.suit):
                continue
        fixed: list[Face | None] = list(meld.stands_for)
        fixed[i] = (face[0], card.suit)
        cards = list(meld.cards)
        cards[i] = card
        new = validate_meld(cards, fixed, params, meld.kind, "")
        return replace(meld, cards=new.cards, stands_for=new.stands_for), held
    raise MeldError(f"no joker in that meld stands for {card}", "joker_swap")


def validate_meld(cards: list[Card], fixed: list[Face | None], params: MeldParams,
              kind: str | None, end: str) -> Meld:
    if not cards:
        raise MeldError("a meld needs cards", "melds")
    for card in cards:
        if card.is_joker and 0 not in params.wild_ranks:
            raise MeldError("jokers are not wild in this ruleset and cannot be melded",
                            "jokers_wild")
    errors: list[MeldError] = []
    for k in ((kind,) if kind else _kind_order(cards, fixed, params)):
        try:
            if k == "set":
                return validate_set(cards, fixed, params)
            if k == "colour":
                return validate_colour(cards, fixed, params)
            return validate_run(cards, fixed, params, end)
        except MeldError as exc:
            errors.append(_blame(exc, cards, fixed, params, end) if k == "run" else exc)
    if kind is None:
        naturals = [c for c in cards if c.rank not in params.wild_ranks]
        ranks = {c.rank for c in naturals}
        suits = {c.suit for c in naturals}
        if len(ranks) > 1 and len(suits) > 1 and params.same_suit and params.sets \
                and params.runs:
            raise MeldError(
                "these cards are neither a set (one rank) nor a run (one suit): "
                + " ".join(str(c) for c in cards), "melds")
    raise errors[0]


def _blame(exc: MeldError, cards: list[Card], fixed: list[Face | None], params: MeldParams,
           end: str) -> MeldError:
    """A run that fails only because of the ace rule or the lack of wrap-around says so."""
    if exc.rule not in ("melds.run", "ace"):
        return exc
    relaxed = (
        (replace(params, ace_low=True, ace_high=True), "ace",
         f"aces are {'low' if params.ace_low else 'high'} only here"),
        (replace(params, wrap=True), "wrap", "runs do not wrap around (K-A-2) here"),
    )
    for other, rule, why in relaxed:
        if other == params:
            continue
        try:
            validate_run(cards, fixed, other, end)
        except MeldError:
            continue
        return MeldError(f"not a run: {why}", rule)
    return exc


def _kind_order(cards: list[Card], fixed: list[Face | None], params: MeldParams) -> tuple[Any, ...]:
    """Which reading to try first; the first one's error is the one reported (a group of
    one colour last, where the contract asks for one)."""
    order = _set_or_run_order(cards, fixed, params)
    if not params.colours:
        return order
    naturals = [c for c in cards if c.rank not in params.wild_ranks]
    if len({c.rank for c in naturals}) > 1 and len({c.suit for c in naturals}) > 1:
        return ("colour", *order)  # neither a set nor a run of one suit
    return (*order, "colour")


def _set_or_run_order(cards: list[Card], fixed: list[Face | None],
                      params: MeldParams) -> tuple[Any, ...]:
    naturals = [c for c in cards if c.rank not in params.wild_ranks]
    if len({c.rank for c in naturals}) > 1:
        return ("run", "set")
    if len({c.suit for c in naturals}) > 1:
        return ("set", "run")
    declared_ranks = {f[0] for f in fixed if f is not None}
    if len(declared_ranks) > 1:
        return ("run", "set")
    return ("set", "run")
