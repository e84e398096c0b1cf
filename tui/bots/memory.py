"""What a seat knows about the cards it cannot see, rebuilt from its own view.

Everything here comes from the `SeatView`: the seat's hand, the table, the visible discard
pile and the public log of the deal (whose events list the public cards they moved).  From
that a bot knows which cards are *unseen* (in the stock or in other hands), which cards
another player is known to hold (taken or bought from the discard pile and not played
since), what each player threw away or passed over, and what the discard pile holds even
when only its top card is shown.  Nothing is read from the game itself, so a bot using this
can never cheat.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from tui.engine.cards import Card, build_shoe
from tui.engine.view import SeatView

Face = tuple[int, str]

_SHOES: dict[tuple[int, int], tuple[Card, ...]] = {}


def turns_taken(view: SeatView) -> dict[int, int]:
    """Draws each seat has made this deal (from the stock or the pile)."""
    counts = {s: 0 for s in range(len(view.players))}
    for event in view.deal_events():
        if event.kind in ("draw", "take"):
            counts[event.seat] = counts.get(event.seat, 0) + 1
    return counts


def shoe_for(view: SeatView) -> tuple[Card, ...]:
    """Every physical card in play for the view's ruleset and player count."""
    spec = view.rules.deck_for(len(view.players))
    key = (spec.decks, spec.jokers)
    if key not in _SHOES:
        _SHOES[key] = tuple(build_shoe(spec.decks, spec.jokers))
    return _SHOES[key]


@dataclass
class Knowledge:
    """What one seat knows about the deal in progress."""

    seat: int
    unseen: Counter[Face]  # faces in the stock or in other players' hidden cards
    held: dict[int, Counter[Face]]  # per other seat: faces known to be in that hand
    hidden: dict[int, int]  # per other seat: how many of its cards are unknown
    pile: list[Card]  # the discard pile, bottom to top, as followed through the log
    discarded: dict[int, list[Card]] = field(default_factory=dict)  # per seat, this deal
    taken: dict[int, list[Card]] = field(default_factory=dict)  # per seat, from the pile
    passed: dict[int, list[Card]] = field(default_factory=dict)  # top discards drawn over
    last_passed: dict[int, Card] = field(default_factory=dict)  # passed at the seat's last
    # draw (absent if that draw took from the pile, or found it empty)

    @property
    def unseen_total(self) -> int:
        return sum(self.unseen.values())

    def unseen_cards(self) -> list[Card]:
        """One representative `Card` per unseen copy (uids are meaningless here)."""
        return [Card(rank, suit) for (rank, suit), n in sorted(self.unseen.items())
                for _ in range(n)]

    def live(self, face: Face) -> int:
        """Copies of `face` that might still come to this seat (unseen ones)."""
        return self.unseen.get(face, 0)


def read_knowledge(view: SeatView) -> Knowledge:
    """Rebuild what `view.seat` knows about the cards of the deal in progress."""
    players = len(view.players)
    me = view.seat
    held: dict[int, Counter[Face]] = {s: Counter() for s in range(players) if s != me}
    discarded: dict[int, list[Card]] = {s: [] for s in range(players)}
    taken: dict[int, list[Card]] = {s: [] for s in range(players)}
    passed: dict[int, list[Card]] = {s: [] for s in range(players)}
    last_passed: dict[int, Card] = {}
    pile: list[Card] = []
    for event in view.deal_events():
        kind, seat, cards = event.kind, event.seat, event.cards
        if kind == "deal":
            pile = list(cards)
        elif kind == "discard":
            pile.extend(cards)
            discarded.setdefault(seat, []).extend(cards)
            _forget(held, seat, cards)
        elif kind in ("take", "buy"):
            for card in cards:
                _remove_face(pile, card)
            taken.setdefault(seat, []).extend(cards)
            if kind == "take":
                last_passed.pop(seat, None)
            if seat in held:
                held[seat].update(c.face for c in cards)
        elif kind == "draw":
            last_passed.pop(seat, None)
            if pile:
                passed.setdefault(seat, []).append(pile[-1])
                last_passed[seat] = pile[-1]
        elif kind in ("meld", "lay_off", "go_out"):
            _forget(held, seat, cards)
        elif kind == "swap" and cards:
            _forget(held, seat, cards[:1])
            if seat in held:
                held[seat].update(c.face for c in cards[1:])
        elif kind == "stock" and "shuffled" in event.text:
            pile = pile[-1:]
    if view.rules.draw.discard == "deep" or len(view.discard) > 1 or not pile:
        pile = list(view.discard)  # the whole pile is shown: trust it over the replay
    elif view.discard and pile[-1] != view.discard[-1]:
        pile = pile[:-1] + [view.discard[-1]]

    unseen: Counter[Face] = Counter(c.face for c in shoe_for(view))
    _subtract(unseen, view.hand)
    for meld in view.table:
        _subtract(unseen, meld.cards)
    _subtract(unseen, pile)
    hidden: dict[int, int] = {}
    for seat, faces in held.items():
        # a known card that is no longer unseen (e.g. melded without our noticing) is dropped
        for face in list(faces):
            keep = min(faces[face], unseen.get(face, 0))
            if keep <= 0:
                del faces[face]
            else:
                faces[face] = keep
        count = view.players[seat].hand_count
        while sum(faces.values()) > count:  # never know more cards than the hand holds
            faces[next(iter(faces))] -= 1
            faces += Counter()
        for face, n in faces.items():
            unseen[face] -= n
        hidden[seat] = count - sum(faces.values())
    unseen += Counter()  # drop zero and negative counts
    return Knowledge(me, unseen, held, hidden, pile, discarded, taken, passed, last_passed)


def _remove_face(cards: list[Card], card: Card) -> None:
    for i in range(len(cards) - 1, -1, -1):
        if cards[i] == card:
            del cards[i]
            return


def _forget(held: dict[int, Counter[Face]], seat: int, cards: tuple[Card, ...]) -> None:
    faces = held.get(seat)
    if faces is None:
        return
    for card in cards:
        if faces.get(card.face, 0) > 0:
            faces[card.face] -= 1
            if not faces[card.face]:
                del faces[card.face]


def _subtract(counter: Counter[Face], cards: tuple[Card, ...] | list[Card]) -> None:
    for card in cards:
        counter[card.face] -= 1


def sample_hand(know: Knowledge, seat: int, rng: random.Random, reach: int = 2) -> list[Card]:
    """One guess at `seat`'s hand that fits what is known: the cards it is known to hold,
    and, for each of those it took from the discard pile, one unseen card that goes with it
    (a player takes a discard because it helps), the rest drawn at random from the unseen
    cards."""
    known = [Card(rank, suit) for (rank, suit), n in sorted(know.held.get(seat, {}).items())
             for _ in range(n)]
    hidden = know.hidden.get(seat, 0)
    pool = know.unseen_cards()
    hand = list(known)
    for card in known:
        if hidden <= 0:
            break
        partners = [i for i, c in enumerate(pool) if _goes_with(c, card, reach)]
        if partners:
            hand.append(pool.pop(rng.choice(partners)))
            hidden -= 1
    if hidden > len(pool):
        hidden = len(pool)
    hand += rng.sample(pool, hidden)
    return hand


def _goes_with(card: Card, other: Card, reach: int) -> bool:
    if card.is_joker or other.is_joker:
        return True
    if card.rank == other.rank:
        return True
    return card.suit == other.suit and 0 < abs(card.rank - other.rank) <= reach
