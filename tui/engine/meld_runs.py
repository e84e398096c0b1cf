"""Reading cards as a run: one suit (or mixed suits) in sequence, where the ace may go,
wrap-around, and which place each wild fills."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from .cards import ACE, HIGH_ACE, SUITS, Card
from .meld import Face, Meld, face_name
from .meld_params import (
    MAX_RUN,
    MeldError,
    MeldParams,
    check_counts,
    colour,
    one_colour,
    run_positions_of,
    settled,
)


def validate_run(cards: list[Card], fixed: list[Face | None], params: MeldParams,
                  end: str) -> Meld:
    if not params.runs:
        raise MeldError("no runs in this round: sets only", "melds.run.allowed")
    wild = params.wild_ranks
    n = len(cards)
    true_nat = [i for i, c in enumerate(cards) if c.rank not in wild]
    suits = {cards[i].suit for i in true_nat}
    mixed = not params.same_suit
    tint = None
    if mixed:
        if params.run_colour:  # `melds.run.one_colour`: naturals and declared wilds
            tint = one_colour([cards[i].suit for i in true_nat]
                              + [f[1] for f in fixed if f is not None], "run",
                              "melds.run.one_colour")
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
    else:
        suit = settled(suits, declared_suits, (c.suit for c in cards if not c.is_joker),
                       SUITS[-1])
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
               and (tint is None or colour(c.suit) == tint)
               and (f is None or (f[1] in ("", suit or c.suit)
                                  and _norm_pos(f[0], params) in run_positions_of(c.rank, params)))]
    forced = [i for i in selfish if fixed[i] is not None]
    optional = [i for i in selfish if fixed[i] is None]
    declared_wild = [i for i in range(n) if i not in true_nat and i not in selfish
                     and fixed[i] is not None]
    first_error: MeldError | None = None
    for size in range(len(optional), -1, -1):
        for chosen in combinations(optional, size):
            if params.run_colour and tint is None and len(
                    {colour(cards[i].suit) for i in forced + list(chosen)}) > 1:
                continue  # (with no natural: the wild-rank cards standing for themselves)
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
    if first_error is None:  # every choice mixed the colours
        one_colour([cards[i].suit for i in forced], "run", "melds.run.one_colour")
        raise MeldError("a run here is of one colour", "melds.run.one_colour")
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
    check_counts(naturals, n - naturals, params, "run")
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
