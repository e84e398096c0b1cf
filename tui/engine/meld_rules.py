"""Whether cards form a legal meld under a ruleset, and what every wild in it stands for.

Every rule a meld can break is checked here and nowhere else, so the engine, the bots, the
solver and the `rummy solve` command all agree on what a set or a run is.  A refusal is a
`MeldError` whose `rule` names the ruleset key at fault (e.g. `melds.set.max`), so front
ends can point the player at the rule rather than just saying no.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from .cards import ACE, HIGH_ACE, KING, RANK_NAMES, SUITS, Card
from .meld import Face, Meld, face_name
from .rules import Ruleset

MAX_RUN = 13  # a run never repeats a rank: 13 places (ace low or high, never both)


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
    m = rules.melds
    set_max = m.set.max if m.set.max is not None else UNLIMITED
    if m.set.distinct_suits:
        set_max = min(set_max, len(SUITS))
    run_max = MAX_RUN if m.run.max is None else min(m.run.max, MAX_RUN)
    set_min, run_min = m.set.min, m.run.min
    outnumber = m.wilds_may_outnumber_naturals
    if use == "lay_off" and not m.wild_ratio_on_lay_off:
        outnumber = True
    if use == "contract":
        contract = rules.round(round_no).contract
        set_min = min(contract.sizes("set", set_min) or (set_min,))
        run_min = min(contract.sizes("run", run_min) or (run_min,))
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
    )
    if params.bounded:  # a run fits between the bounds
        params = replace(params, run_max=min(run_max, params.max_pos - params.min_pos + 1))
    if len(_PARAMS) > 256:
        _PARAMS.clear()
    _PARAMS[key] = (rules, params)
    return params


def card_penalty(card: Card, rules: Ruleset, round_no: int) -> int:
    """Points a card scores when left out of melds: its value, or the fixed wild value for
    wilds when the ruleset says so (`scoring.wild_unmelded: fixed`)."""
    if rules.scoring.wild_unmelded == "fixed" and rules.is_wild(card.rank, round_no):
        return rules.scoring.wild_value
    return rules.value(card.rank)


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
                return _validate_set(cards, fixed, params)
            return _validate_run(cards, fixed, params, end)
        except MeldError as exc:
            errors.append(_blame(exc, cards, fixed, params, end) if k == "run" else exc)
    if kind is None:
        naturals = [c for c in cards if c.rank not in params.wild_ranks]
        ranks = {c.rank for c in naturals}
        suits = {c.suit for c in naturals}
        if len(ranks) > 1 and len(suits) > 1 and params.same_suit:
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
            _validate_run(cards, fixed, other, end)
        except MeldError:
            continue
        return MeldError(f"not a run: {why}", rule)
    return exc


def _kind_order(cards: list[Card], fixed: list[Face | None], params: MeldParams) -> tuple[Any, ...]:
    """Which reading to try first; the first one's error is the one reported."""
    naturals = [c for c in cards if c.rank not in params.wild_ranks]
    if len({c.rank for c in naturals}) > 1:
        return ("run", "set")
    if len({c.suit for c in naturals}) > 1:
        return ("set", "run")
    declared_ranks = {f[0] for f in fixed if f is not None}
    if len(declared_ranks) > 1:
        return ("run", "set")
    return ("set", "run")


def _check_counts(naturals: int, wilds: int, params: MeldParams, what: str) -> None:
    if naturals < params.min_natural:
        raise MeldError(
            f"a {what} needs at least {params.min_natural} natural card"
            f"{'s' if params.min_natural > 1 else ''}, this one has {naturals}",
            "melds.min_natural")
    if not params.outnumber and wilds > naturals and naturals:
        raise MeldError(f"wilds may not outnumber naturals ({wilds} wild, {naturals} natural)",
                        "melds.wilds_may_outnumber_naturals")


def _validate_set(cards: list[Card], fixed: list[Face | None], params: MeldParams) -> Meld:
    try:
        return _read_set(cards, fixed, params)
    except MeldError as exc:
        # wild-rank cards standing for themselves may break the wild ratio where the same
        # cards read as wilds only make an allowed meld of wild cards only
        if (exc.rule != "melds.wilds_may_outnumber_naturals" or params.min_natural
                or not params.wild_natural
                or any(c.rank not in params.wild_ranks for c in cards)):
            raise
        return _read_set(cards, fixed, replace(params, wild_natural=False))


def _read_set(cards: list[Card], fixed: list[Face | None], params: MeldParams) -> Meld:
    wild = params.wild_ranks
    true_nat = [i for i, c in enumerate(cards) if c.rank not in wild]
    ranks = {cards[i].rank for i in true_nat}
    if len(ranks) > 1:
        raise MeldError("a set is cards of one rank", "melds.set")
    for i in true_nat:
        f = fixed[i]
        if f is not None and (f[0] != cards[i].rank or f[1] not in ("", cards[i].suit)):
            raise MeldError(f"{cards[i]} is not wild and can only stand for itself", "declare")
    declared = {f[0] for i, f in enumerate(fixed) if i not in true_nat and f is not None}
    if ranks:
        rank = next(iter(ranks))
    elif declared:
        rank = min(declared)
    else:
        own = Counter(c.rank for c in cards if not c.is_joker)
        rank = max(own, key=lambda r: (own[r], r)) if own else KING
    if declared - {rank}:
        raise MeldError("every wild in a set must stand for the set's rank "
                        f"({RANK_NAMES[rank]})", "declare")
    if len(cards) < params.set_min:
        raise MeldError(f"a set needs at least {params.set_min} cards", "melds.set.min")
    if len(cards) > params.set_max and params.set_max < UNLIMITED:
        if params.distinct_suits and len(cards) > len(SUITS):
            raise MeldError("a set of distinct suits has at most 4 cards",
                            "melds.set.distinct_suits")
        raise MeldError(f"a set has at most {params.set_max} cards", "melds.set.max")
    faces: list[Face | None] = [None] * len(cards)
    used_suits: list[str] = []
    for i in true_nat:
        faces[i] = (rank, cards[i].suit)
        used_suits.append(cards[i].suit)
    if params.distinct_suits and len(set(used_suits)) < len(used_suits):
        raise MeldError("no two cards of a set may share a suit", "melds.set.distinct_suits")
    naturals = len(true_nat)
    # wild-rank cards of the set's rank stand for themselves unless declared otherwise
    for i, c in enumerate(cards):
        if faces[i] is not None or c.rank != rank or c.is_joker or not params.wild_natural:
            continue
        f = fixed[i]
        if f is not None and f[1] not in ("", c.suit):
            continue
        if params.distinct_suits and c.suit in used_suits:
            continue
        faces[i] = (rank, c.suit)
        used_suits.append(c.suit)
        naturals += 1
    # the remaining wilds: declared suits first, then the missing suits
    for i, declared_face in enumerate(fixed):
        if faces[i] is not None or declared_face is None:
            continue
        suit = declared_face[1]
        if suit and suit not in SUITS:
            raise MeldError(f"bad suit {suit!r} declared", "declare")
        if params.distinct_suits:
            if not suit or suit in used_suits:
                raise MeldError(f"a wild must stand for a suit missing from the set, "
                                f"not {face_name(declared_face)}", "melds.set.distinct_suits")
            used_suits.append(suit)
        faces[i] = (rank, suit)
    missing = [s for s in SUITS if s not in used_suits]
    for i in range(len(cards)):
        if faces[i] is not None:
            continue
        if params.distinct_suits:
            if not missing:
                raise MeldError("a set of distinct suits has at most 4 cards",
                                "melds.set.distinct_suits")
            faces[i] = (rank, missing.pop(0))
        else:
            faces[i] = (rank, "")
    _check_counts(naturals, len(cards) - naturals, params, "set")
    return Meld("set", tuple(cards), tuple(faces))  # type: ignore[arg-type]


def _validate_run(cards: list[Card], fixed: list[Face | None], params: MeldParams,
                  end: str) -> Meld:
    wild = params.wild_ranks
    n = len(cards)
    true_nat = [i for i, c in enumerate(cards) if c.rank not in wild]
    suits = {cards[i].suit for i in true_nat}
    mixed = not params.same_suit
    if mixed:
        suits = set()  # runs of mixed suits: wilds stand for a place, of no suit
    if len(suits) > 1:
        raise MeldError("a run is cards of one suit", "melds.run")
    faces_seen = Counter(cards[i].face for i in true_nat)
    dup = [f for f, k in faces_seen.items() if k > 1]
    if dup:
        raise MeldError(f"a run cannot hold two identical cards ({face_name(dup[0])})",
                        "melds.run")
    declared_suits = {f[1] for f in fixed if f is not None and f[1]}
    if mixed:
        suit, declared_suits = "", set()
    elif suits:
        suit = next(iter(suits))
    elif declared_suits:
        suit = min(declared_suits)
    else:
        own = Counter(c.suit for c in cards if not c.is_joker)
        suit = max(own, key=lambda s: (own[s], s)) if own else SUITS[-1]
    if declared_suits - {suit}:
        raise MeldError("every card of a run stands for the run's suit", "declare")
    if n < params.run_min:
        raise MeldError(f"a run needs at least {params.run_min} cards", "melds.run.min")
    if n > params.run_max:
        rule = "melds.run.max" if params.run_max < MAX_RUN else "melds.run"
        raise MeldError(f"a run has at most {params.run_max} cards", rule)
    # fixed places of true naturals (ace: 1 and/or 14) and of declared wilds
    choices: list[tuple[int, ...]] = []
    for i in true_nat:
        options = run_positions_of(cards[i].rank, params)
        f = fixed[i]
        if f is not None:
            pos = _norm_pos(f[0], params)
            if f[1] not in ("", suit or cards[i].suit) or pos not in options:
                raise MeldError(f"{cards[i]} is not wild and can only stand for itself",
                                "declare")
            options = (pos,)
        if not options:
            raise _no_place(cards[i], params)
        choices.append(options)
    # wild-rank cards of the run's suit may stand for themselves (then they are natural)
    selfish = [i for i, (c, f) in enumerate(zip(cards, fixed, strict=True))
               if params.wild_natural and i not in true_nat and not c.is_joker
               and (c.suit == suit or mixed) and run_positions_of(c.rank, params)
               and (f is None or (f[1] in ("", suit or c.suit)
                                  and _norm_pos(f[0], params) in run_positions_of(c.rank, params)))]
    forced = [i for i in selfish if fixed[i] is not None]
    optional = [i for i in selfish if fixed[i] is None]
    declared_wild = [i for i in range(n) if i not in true_nat and i not in selfish
                     and fixed[i] is not None]
    first_error: MeldError | None = None
    for size in range(len(optional), -1, -1):
        for chosen in combinations(optional, size):
            nat_idx = true_nat + forced + list(chosen)
            nat_choices = choices + [
                (_norm_pos(f[0], params),) if (f := fixed[i]) is not None
                else run_positions_of(cards[i].rank, params) for i in forced + list(chosen)]
            try:
                return _place_run(cards, fixed, params, end, suit, nat_idx, nat_choices,
                                  declared_wild)
            except MeldError as exc:
                if first_error is None:
                    first_error = exc
    assert first_error is not None
    raise first_error


def _no_place(card: Card, params: MeldParams) -> MeldError:
    """Why a natural card has no place in any run."""
    if params.bounded:
        low = face_name((params.min_pos, ""))
        high = face_name((params.max_pos, ""))
        return MeldError(f"{card} cannot be in a run here: runs use {low} to {high} only",
                         "melds.run.lowest" if card.rank < params.min_pos or (
                             card.rank == ACE and params.run_lowest > 1) else
                         "melds.run.highest")
    return MeldError("aces cannot be in runs here", "ace")


def _norm_pos(pos: int, params: MeldParams) -> int:
    return 1 if params.wrap and pos == HIGH_ACE else pos


def _place_run(cards: list[Card], fixed: list[Face | None], params: MeldParams, end: str,
               suit: str, nat_idx: list[int], nat_choices: list[tuple[int, ...]],
               declared_wild: list[int]) -> Meld:
    """Try every ace placement (low first) for one choice of naturals."""
    n = len(cards)
    naturals = len(nat_idx)
    _check_counts(naturals, n - naturals, params, "run")
    fixed_pos: dict[int, int] = {}
    for i in declared_wild:
        face = fixed[i]
        assert face is not None  # declared
        pos = _norm_pos(face[0], params)
        if not params.min_pos <= pos <= params.max_pos:
            raise MeldError(f"a wild cannot stand for {face_name(face)} here",
                            "melds.run.lowest" if params.bounded else "ace")
        fixed_pos[i] = pos
    free = [i for i in range(n) if i not in fixed_pos and i not in nat_idx]
    variants: list[tuple[int, ...]] = [()]
    for options in nat_choices:
        variants = [v + (p,) for v in variants for p in options]
    error: MeldError | None = None
    own_suit = {i: cards[i].suit for i in nat_idx} if not params.same_suit else {}
    for i in declared_wild:
        face = fixed[i]
        if not params.same_suit and face is not None:
            own_suit[i] = face[1]
    for variant in variants:
        places = dict(fixed_pos)
        places.update(zip(nat_idx, variant, strict=True))
        try:
            return _lay_out(cards, places, free, params, end, suit, own_suit)
        except MeldError as exc:
            error = error or exc
    assert error is not None
    raise error


def _lay_out(cards: list[Card], places: dict[int, int], free: list[int], params: MeldParams,
             end: str, suit: str, own_suit: dict[int, str] | None = None) -> Meld:
    """Given places for some cards, put the free wilds in gaps, then at the ends.
    `own_suit`: in runs of mixed suits, the suit each placed card shows."""
    taken = sorted(places.values())
    if len(set(taken)) < len(taken):
        raise MeldError("two cards cannot take the same place in a run", "melds.run")
    n = len(cards)
    if params.wrap:
        seq = _wrap_arc(taken, n, len(free), end)
    else:
        seq = _line_arc(taken, n, len(free), end, params)
    by_pos: dict[int, int] = {p: i for i, p in places.items()}
    order: list[int] = []
    stands: list[Face] = []
    free_iter = iter(free)
    for k, pos in enumerate(seq):
        i = by_pos.get(pos)
        if i is None:
            i = next(free_iter)
        order.append(i)
        shown = pos
        if params.wrap and pos == 1 and k == len(seq) - 1 and k > 0:
            shown = HIGH_ACE  # Q-K-A reads like a high ace when nothing follows it
        stands.append((shown, own_suit.get(i, suit) if own_suit else suit))
    return Meld("run", tuple(cards[i] for i in order), tuple(stands))


def _line_arc(taken: list[int], n: int, free: int, end: str, params: MeldParams) -> list[int]:
    lo_bound, hi_bound = params.min_pos, params.max_pos
    if not taken:
        lo = lo_bound if end != "high" or n > hi_bound - lo_bound else hi_bound - n + 1
        return list(range(lo, lo + n))
    lo, hi = taken[0], taken[-1]
    if lo < lo_bound or hi > hi_bound:
        raise MeldError("that place is outside the run's ranks",
                        "melds.run.lowest" if params.bounded else "ace")
    if lo == 1 and hi == HIGH_ACE:
        raise MeldError("an ace cannot be both low and high in one run", "ace")
    gaps = (hi - lo + 1) - len(taken)
    if gaps > free:
        raise _gap_error(gaps, free)
    extra = free - gaps
    if hi - lo + 1 + extra > params.run_max:
        raise MeldError(f"a run has at most {params.run_max} cards",
                        "melds.run.max" if params.run_max < MAX_RUN else "melds.run")
    up_room, down_room = hi_bound - hi, lo - lo_bound
    if end == "low":
        down = min(extra, down_room)
        up = extra - down
    else:
        up = min(extra, up_room)
        down = extra - up
    if up > up_room or down > down_room:
        raise MeldError("no room left at the ends of this run",
                        "melds.run.lowest" if params.bounded else "ace")
    if (lo - down) == 1 and (hi + up) == HIGH_ACE:
        raise MeldError("an ace cannot be both low and high in one run", "ace")
    return list(range(lo - down, hi + up + 1))


def _wrap_arc(taken: list[int], n: int, free: int, end: str) -> list[int]:
    if not taken:
        return [(p - 1) % 13 + 1 for p in range(1, n + 1)]
    # the arc covering every place: start just after the widest empty stretch
    best_start, widest = taken[0], -1
    for k, p in enumerate(taken):
        nxt = taken[(k + 1) % len(taken)] + (13 if k == len(taken) - 1 else 0)
        if nxt - p > widest:
            widest, best_start = nxt - p, taken[(k + 1) % len(taken)]
    span = 13 - widest + 1 if len(taken) > 1 else 1
    gaps = span - len(taken)
    if gaps > free:
        raise _gap_error(gaps, free)
    extra = free - gaps
    start = best_start - (extra if end == "low" else 0)
    return [(start + k - 1) % 13 + 1 for k in range(span + extra)]


def _gap_error(gaps: int, free: int) -> MeldError:
    return MeldError(f"a run needs consecutive cards: {gaps} gap{'s' if gaps > 1 else ''} "
                     f"but only {free} wild{'s' if free != 1 else ''} to fill "
                     f"{'them' if gaps > 1 else 'it'}", "melds.run")
