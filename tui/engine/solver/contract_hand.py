"""The hand as the contract search reads it: its distinct faces with their counts, values
and wildness, the round's meld rules, and the card a lay-down must meld.

Kept apart from the search so the pieces that read it (choosing cores in
`contract_cores`, building melds in `contract_build`) need not know the search's state;
the search (`contract_search`) is a `ContractHand` with a search on top.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..meld_rules import MeldParams, card_penalty, meld_params
from ..rules import Ruleset

Core = tuple[Any, ...]  # (kind, faces (face ids), places, t, need, cap, value, key, least, most)


class ContractHand:
    def __init__(self, hand: list[Card], rules: Ruleset, round_no: int,
                 must_include: Card | None = None):
        self.rules = rules
        self.round_no = round_no
        self.p: MeldParams = meld_params(rules, round_no)
        self.same_rank = rules.contract.sets_same_rank
        self.suit_mode = rules.contract.runs_same_suit if self.p.same_suit else "allowed"
        self.gap = rules.contract.same_suit_gap
        p = self.p
        self.nat_min = max(1, p.min_natural)
        # faces: distinct (rank, suit) with counts; which are wild; which can be natural
        self.faces: list[tuple[int, str]] = []
        self.count: list[int] = []
        self.cards_of: list[list[Card]] = []
        index: dict[tuple[int, str], int] = {}
        for card in hand:
            f = index.get(card.face)
            if f is None:
                f = index[card.face] = len(self.faces)
                self.faces.append(card.face)
                self.count.append(0)
                self.cards_of.append([])
            self.count[f] += 1
            self.cards_of[f].append(card)
        self.value = [card_penalty(Card(r, s), rules, round_no) for r, s in self.faces]
        self.wild = [r in p.wild_ranks for r, s in self.faces]
        self.dead = [r == 0 and not w for (r, s), w in zip(self.faces, self.wild, strict=True)]
        self.total_wilds = sum(c for c, w in zip(self.count, self.wild, strict=True) if w)
        self.total_value = sum(c * v for c, v in zip(self.count, self.value, strict=True))
        self.allwild_ok = p.min_natural == 0  # (the wild ratio limits melds with naturals)
        # a wild-rank card may act as a natural in a core
        core_face = [not w or p.wild_natural for w in self.wild]
        # faces a core may hold: no dead jokers, wild-rank cards only as naturals
        self.core_faces = [f for f, ok in enumerate(core_face) if ok and not self.dead[f]]
        self.must: int | None = None
        self.must_card = must_include
        self.must_natural = False  # the card to meld must be in a core (it is no wild)
        if must_include is not None:
            self.must = index[must_include.face]
            self.must_natural = not self.wild[self.must]
            # cores take their physical cards from the end of the list: this one first
            copies = self.cards_of[self.must]
            copies.sort(key=lambda c: c.uid == must_include.uid)
