"""Playing an imagined deal forward, fast, for `expert`'s search.

A playout is a deal in miniature: hands, stock and pile as plain lists, every player
moving by a quick rule, until someone goes out (and the others have had their final
turns), the stock runs dry, or the horizon is reached; it returns what every seat would
score.  The quick rule is `medium`'s, read off each hand's exact best arrangement (cached
in the `Evaluator`, so a playout costs about one solve per turn):

* draw the top discard when it lowers the hand's penalty after the best discard, else a
  stock card;
* go out when every card but the discard melds (declare games); lay the contract down as
  soon as the counting says it is made, and then lay off what fits (contract games);
* discard the heaviest card left out of the best arrangement (or of the contract).

In contract games, where counting a contract is dear (a 3-run contract costs
milliseconds a hand), only the searching seat (`me`) plays by that rule; the others play
`easy`'s: take the top discard when it goes with a card in hand, throw the heaviest card
that goes with nothing, and lay off what fits once their contract is down.  Their points
at the horizon are the cards they hold.

Playouts only measure options against each other; the real game, with its every rule,
is still the engine's, and every action the bot sends comes from `view.legal`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tui.engine.cards import Card
from tui.engine.meld import Meld

from .evaluate import Evaluator
from .medium import connections
from .opponents import World

STEP_POINTS = 10  # contract games, at the horizon: a card missing from a contract


@dataclass
class Deal:
    """The state of an imagined deal in progress."""

    ev: Evaluator
    hands: list[list[Card]]
    stock: list[Card]
    pile: list[Card]
    turn: int
    me: int = -1  # the searching seat: the only one whose contract is counted
    down: list[bool] = field(default_factory=list)
    table: list[Meld] = field(default_factory=list)
    out: int = -1  # seat that went out
    final_left: int = 0  # final turns still owed
    rebuilds: int = 0

    @classmethod
    def start(cls, ev: Evaluator, world: World, pile: Sequence[Card], turn: int,
              down: Sequence[bool], table: Sequence[Meld]) -> Deal:
        return cls(ev, [list(h) for h in world.hands], list(world.stock), list(pile), turn,
                   turn, list(down), list(table))

    # ---------------------------------------------------------------- rules in brief

    @property
    def declare(self) -> bool:
        return not self.ev.rules.going_out.melding_during_play

    @property
    def over(self) -> bool:
        return self.out >= 0 and self.final_left <= 0

    def _draw_card(self) -> Card | None:
        if not self.stock:
            stock_rules = self.ev.rules.stock
            limit = stock_rules.max_rebuilds  # None: no limit
            if stock_rules.when_empty != "reshuffle" or len(self.pile) < 2 or \
                    (limit is not None and self.rebuilds >= limit):
                return None
            self.stock = self.pile[:-1]
            self.pile = self.pile[-1:]
            random.Random(len(self.stock) * 7 + self.rebuilds).shuffle(self.stock)
            self.rebuilds += 1
        return self.stock.pop()

    # ---------------------------------------------------------------- one turn

    def draw(self, seat: int, take: bool) -> bool:
        """The draw of a turn (the top discard if `take`); False if none can be had."""
        hand = self.hands[seat]
        if take and self.pile:
            hand.append(self.pile.pop())
            return True
        card = self._draw_card()
        if card is None:
            return False
        hand.append(card)
        return True

    def wants_top(self, seat: int) -> bool:
        if not self.pile or self.ev.rules.draw.discard == "none":
            return False
        ev = self.ev
        hand = self.hands[seat]
        top = self.pile[-1]
        if self.declare or (self.down[seat] and not ev.contract.required):
            return ev.after_best_discard(hand + [top]) < ev.penalty(hand)
        if self.down[seat]:
            return not ev.stuck([top], self.table)
        if seat != self.me:
            return connections(top, hand, ev) > 0
        return ev.contract_need(hand + [top]).missing < ev.contract_need(hand).missing

    def finish_turn(self, seat: int, discard: Card | None = None) -> None:
        """After the draw: go out / meld as the quick rule says, then discard (`discard`
        if given, e.g. the option being measured) and pass the turn."""
        hand = self.hands[seat]
        if self.declare:
            if self.out < 0 and discard is None and self._goes_out(seat):
                return self._next()
        else:
            self._meld(seat)
            hand = self.hands[seat]
            if not hand:
                self._went_out(seat)
                return self._next()
        at = next((i for i, c in enumerate(hand) if c.uid == discard.uid
                   and c.face == discard.face), None) if discard is not None else None
        if at is None:  # no card named, or it went into a meld
            quick = self._quick_discard(seat)
            at = next(i for i, c in enumerate(hand) if c.face == quick.face)
        self.pile.append(hand.pop(at))
        if not self.declare and not hand:
            self._went_out(seat)
        elif self.out >= 0:
            self.final_left -= 1
        self._next()

    def _goes_out(self, seat: int) -> bool:
        ev = self.ev
        hand = self.hands[seat]
        rule = ev.rules.going_out_discard(ev.round_no)
        pen, dead = ev.arrange(hand)
        if rule != "forbidden" and len(hand) > 1 and ev.after_best_discard(hand) == 0:
            card = max(dead, key=ev.value) if dead else None
            if card is None:
                card = min(hand, key=ev.value)
            hand.remove(card)
            self.pile.append(card)
        elif rule != "required" and pen == 0:
            hand.clear()
        else:
            return False
        self._went_out(seat)
        return True

    def _went_out(self, seat: int) -> None:
        self.out = seat
        players = len(self.hands)
        self.final_left = players - 1 if self.ev.rules.going_out.final_turns else 0
        self.hands[seat] = []

    def _next(self) -> None:
        players = len(self.hands)
        self.turn = (self.turn + 1) % players
        if self.turn == self.out:
            self.turn = (self.turn + 1) % players

    def _quick_discard(self, seat: int) -> Card:
        ev = self.ev
        hand = self.hands[seat]
        dead: Sequence[Card]
        if self.declare or not ev.contract.required:
            _, dead = ev.arrange(hand)
        elif self.down[seat]:
            dead = ev.stuck(hand, self.table)
        elif seat != self.me:
            dead = [c for c in hand if connections(c, hand, ev) == 0] or hand
        else:
            dead = ev.useless(hand)
        pool = [c for c in dead if not ev.is_wild(c)] or dead
        if pool:
            return max(pool, key=ev.value)
        return min(ev.discards(hand), key=lambda item: item[0])[1]

    def _meld(self, seat: int) -> None:
        """Contract games: the contract down when counting says it is made (its cards
        leave the hand), then lay-offs of whatever fits the table."""
        ev = self.ev
        hand = self.hands[seat]
        if not self.down[seat] and seat != self.me:
            return
        if not self.down[seat]:
            need = ev.contract_need(hand)
            if need.missing:
                return
            used = list(need.used)
            # wilds fill what the natural cards of the contract leave short
            short = ev.contract.sets * ev.params.set_min + \
                ev.contract.runs * ev.params.run_min + \
                ev.contract.colours * ev.params.colour_min - len(used)
            keep: list[Card] = []
            for card in hand:
                if card.face in used:
                    used.remove(card.face)
                elif ev.is_wild(card) and short > 0:
                    short -= 1
                else:
                    keep.append(card)
            if ev.rules.round(ev.round_no).all_at_once and keep:
                return
            self.down[seat] = True
            self.hands[seat] = hand = keep
            return  # melds laid this turn are not modelled as table melds
        if ev.rules.lay_off.when == "never" or not self.table:
            return
        stuck = ev.stuck(hand, self.table)
        if len(stuck) < len(hand):
            keep_ids = {id(c) for c in stuck}
            self.hands[seat] = [c for c in hand if id(c) in keep_ids]

    # ---------------------------------------------------------------- the whole thing

    def run(self, horizon: int, in_time: Callable[[], bool] = lambda: True) -> bool:
        """Play on, every seat by the quick rule, for at most `horizon` turns; False if
        `in_time()` said stop before the end (the playout is then not finished)."""
        for _ in range(horizon):
            if self.over:
                return True
            if not in_time():
                return False
            seat = self.turn
            if not self.draw(seat, self.wants_top(seat)):
                return True
            self.finish_turn(seat)
        return True

    def points(self) -> list[float]:
        """What every seat scores if the deal ended now; unfinished contract hands also
        count the cards their contract lacks."""
        ev = self.ev
        out = []
        for seat, hand in enumerate(self.hands):
            if seat == self.out:
                out.append(float(ev.rules.going_out.bonus))
            elif self.declare or not ev.contract.required:
                if ev.rules.scoring.score_best_arrangement:
                    out.append(float(ev.penalty(hand)))
                else:
                    out.append(float(sum(ev.value(c) for c in hand)))
            else:
                pts = float(sum(ev.value(c) for c in hand))
                if seat == self.me and not self.down[seat] and not self.over:
                    pts += STEP_POINTS * ev.contract_need(hand).missing
                out.append(pts)
        return out
