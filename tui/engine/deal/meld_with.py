"""Whether a card can go into a new meld made from a pool of cards: the test of a deep draw
in a round with no contract (Rummy 500), where the card taken from deep in the pile must
be melded that turn and any melds may be laid down.

Every meld holding the card holds a smallest one (a set of `melds.set.min`, a run of
`melds.run.min` around it); the candidates are those, and one card longer (a meld whose
wilds may not outnumber its naturals may need a second natural), each judged by the meld
rules themselves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from ..cards import Card
from ..meld import Meld
from ..meld_rules import MeldError, make_meld, meld_params
from ..rules import Ruleset


def melds_with(card: Card, pool: Sequence[Card], rules: Ruleset, round_no: int
               ) -> Iterator[Meld]:
    """Sets and runs of cards from `pool` (which holds `card`) that include `card`, the
    smallest first (not every one: enough that none is missed when there is one)."""
    p = meld_params(rules, round_no)
    wild = p.wild_ranks
    rest = [c for c in pool if c.uid != card.uid]
    if card.rank not in wild:
        yield from _melds_around(card, rest, rules, round_no)
        return
    # a wild-rank card may stand for itself; else it goes into another card's meld (or,
    # where allowed, a meld of wilds)
    yield from _melds_around(card, rest, rules, round_no)
    for anchor in _one_per_face(rest):
        yield from _melds_around(anchor, [c for c in pool if c.uid != anchor.uid], rules,
                                 round_no, need=card)
    if p.min_natural == 0:
        yield from _wilds_only(card, [c for c in rest if c.rank in wild], rules, round_no,
                               p.set_min)


def _one_per_face(cards: Sequence[Card]) -> list[Card]:
    seen: dict[tuple[int, str], Card] = {}
    for c in cards:
        seen.setdefault(c.face, c)
    return list(seen.values())


def _melds_around(anchor: Card, rest: Sequence[Card], rules: Ruleset, round_no: int,
                  need: Card | None = None) -> Iterator[Meld]:
    """Sets and runs of `anchor` and cards of `rest` (with `need` among them, if given)."""
    p = meld_params(rules, round_no)
    wild = p.wild_ranks
    wilds = [c for c in rest if c.rank in wild and c is not need]
    extra = [need] if need is not None else []
    same_rank = [c for c in rest if c.rank == anchor.rank and c.rank not in wild
                 and c is not need]
    if p.distinct_suits:
        same_rank = [c for c in _one_per_face(same_rank) if c.suit != anchor.suit]
    positions = set(rules.run_positions(anchor.rank))
    reach = p.run_min + 1
    near = [
        c for c in rest if c.rank not in wild and c is not need
        and (c.suit == anchor.suit or not p.same_suit)
        and c.face != anchor.face
        and any(abs(q - pos) <= reach or p.wrap for q in rules.run_positions(c.rank)
                for pos in positions)]
    for kind, partners, smallest in (("set", same_rank + wilds, p.set_min),
                                     ("run", near + wilds, p.run_min)):
        for size in (smallest, smallest + 1):
            pick = size - 1 - len(extra)
            if pick < 0 or pick > len(partners):
                continue
            for chosen in combinations(partners, pick):
                try:
                    yield make_meld([anchor, *extra, *chosen], rules, round_no, kind=kind)
                except MeldError:
                    continue


def _wilds_only(card: Card, wilds: Sequence[Card], rules: Ruleset, round_no: int,
                size: int) -> Iterator[Meld]:
    """A meld of wild cards only (`melds.min_natural: 0`)."""
    if len(wilds) + 1 >= size:
        try:
            yield make_meld([card, *wilds[: size - 1]], rules, round_no, kind="set")
        except MeldError:
            pass
