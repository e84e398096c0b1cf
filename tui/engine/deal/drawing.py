"""Drawing: from the stock, the top of the discard pile or deep in it, and the buy window
that opens when the player in turn passes the discard over.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Buy, DrawStock, IllegalAction, PassBuy, TakeDiscard
from ..cards import Card, format_cards
from ..meld import Meld
from ..solver import find_contract
from .meld_with import melds_with
from .melding import Melding


class Drawing(Melding):
    """The rules of the draw (a deep draw is judged by what could be melded with it)."""

    def _draw_options(self, seat: int) -> list[Action]:
        options: list[Action] = []
        if self.stock:
            options.append(DrawStock(seat))
        mode = self.rules.draw.discard
        if self.discard and mode != "none" and self._pile_refusal(seat) is None:
            options.append(TakeDiscard(seat, 0))
            if mode == "deep" and not self.in_final_turns:
                options.extend(TakeDiscard(seat, d) for d in self._deep_depths(seat))
        return options

    def _pile_refusal(self, seat: int) -> IllegalAction | None:
        """Why `seat` must draw from the stock this turn (house rules), or None."""
        if self.in_final_turns and self.rules.going_out.final_turns_from_stock:
            return IllegalAction("a final turn draws from the stock only",
                                 "going_out.final_turns_from_stock")
        if self.rules.draw.stock_only_after_contract and self.contract_of(seat).required \
                and self.contract_down(seat):
            return IllegalAction("your contract is down: draw from the stock only",
                                 "draw.stock_only_after_contract")
        return None

    def _deep_depths(self, seat: int) -> list[int]:
        """How deep in the pile `seat` may take now (each depth's card must be meldable)."""
        first = 1
        if not self.contract_down(seat) and not self.round_rules.all_at_once:
            # The cards on offer only grow with depth, so no depth above the shallowest
            # one whose cards make any lay-down at all can make one with its own card.
            shallowest = self._shallowest_contract_depth(seat)
            if shallowest is None:
                return []
            first = shallowest
        return [d for d in range(first, len(self.discard)) if self._deep_take_meldable(seat, d)]

    def _shallowest_contract_depth(self, seat: int) -> int | None:
        hand = self.hands[seat]

        def holds_contract(depth: int) -> bool:
            return find_contract(hand + self.discard[-1 - depth:], self.rules,
                                 self.round_of(seat), first_found=True) is not None

        low, high = 1, len(self.discard) - 1
        if high < 1 or not holds_contract(high):
            return None
        while low < high:
            middle = (low + high) // 2
            if holds_contract(middle):
                high = middle
            else:
                low = middle + 1
        return low

    def _deep_take_meldable(self, seat: int, depth: int) -> bool:
        """A deep draw is only offered when the card can be melded this very turn."""
        card = self.discard[-1 - depth]
        if self.contract_down(seat):  # no new melds: only laying off can use the card
            return (self._may_lay_off(seat) and any(
                self._extends(m, card) for m in self.table
                if self.rules.lay_off.onto == "any" or m.owner == seat)) or (
                # with no contract to meet, new melds go down at any time (Rummy 500)
                not self.contract_of(seat).required
                and self._free_meld_for(seat, self.hands[seat] + self.discard[-1 - depth:],
                                        card) is not None)
        hand = self.hands[seat] + self.discard[-1 - depth:]
        if not self._could_meld(card, hand, seat=seat,
                                colours=any(c.colours for c in self.contract_of(seat).options())):
            return False
        whole = self.round_rules.all_at_once
        if whole and self._discard_rule() == "required":
            return self._lay_down_for(seat, hand, card) is not None
        if whole and not self._could_meld_all(hand, seat):
            return False
        lay = find_contract(hand, self.rules, self.round_of(seat), whole_hand=whole,
                            must_include=card, first_found=True)
        if lay is not None:
            return True
        # or lay the contract down without it, and lay it off on the table the same turn
        return self._lay_down_for(seat, hand, card) is not None

    def _free_meld_for(self, seat: int, hand: Sequence[Card], card: Card) -> Meld | None:
        """In a round with no contract, a new meld of `hand` holding `card` (taken from
        deep in the pile, so owed this turn) that leaves the turn able to end; None if
        there is none."""
        if not self._could_meld(card, hand, table=False, seat=seat):
            return None
        for meld in melds_with(card, hand, self.rules, self.round_of(seat)):
            left = len(hand) - len(meld.cards)
            if left == 0 and self._discard_rule() == "required":
                continue
            if self._strands_after_lay_down(seat, [meld], hand, [card]) is None:
                return meld
        return None

    def _do_draw_stock(self, action: DrawStock) -> None:
        seat = action.seat
        if not self.stock:
            raise IllegalAction("the stock is empty", "stock")
        card = self.stock.pop()
        self.hands[seat].append(card)
        self._say(seat, f"{self.names[seat]} drew from the stock.", "draw")
        self._open_buying(seat)

    def _open_buying(self, seat: int) -> None:
        buying = self.rules.buying
        if not buying.enabled or not self.discard or self.in_final_turns:
            self.phase = "play"
            return
        # never offered back to whoever just discarded it
        queue = [(seat + i) % self.players for i in range(1, self.players)]
        queue = [s for s in queue if s != self.discarded_by and self._may_buy(s)]
        if not queue:
            self.phase = "play"
            return
        self.buy_offer = self.discard[-1]
        self.buy_queue = queue
        self.in_turn = seat
        self.phase = "buy"
        self.turn = queue[0]

    def _do_take_discard(self, action: TakeDiscard) -> None:
        seat = action.seat
        mode = self.rules.draw.discard
        if mode == "none":
            raise IllegalAction("this game never lets you take from the discard pile",
                                "draw.discard: none")
        if not self.discard:
            raise IllegalAction("the discard pile is empty", "draw")
        refusal = self._pile_refusal(seat)
        if refusal is not None:
            raise refusal
        depth = action.depth
        if depth < 0 or depth >= len(self.discard):
            raise IllegalAction(f"the discard pile has {len(self.discard)} cards", "draw")
        if depth > 0:
            if mode != "deep":
                raise IllegalAction("you may only take the top card of the discard pile",
                                    "draw.discard: top")
            if self.in_final_turns:
                raise IllegalAction("a final turn takes only the top discard", "final turns")
            if not self._deep_take_meldable(seat, depth):
                card = self.discard[-1 - depth]
                raise IllegalAction(
                    f"you may take {card} from deep in the pile only if you meld it this "
                    "turn, and you cannot", "draw.deep_must_meld")
        taken = self.discard[len(self.discard) - 1 - depth:]
        del self.discard[len(self.discard) - 1 - depth:]
        self.discarded_by = -1
        self.hands[seat].extend(taken)
        self.taken = list(taken)
        if depth > 0 and self.rules.draw.deep_must_meld:
            self.must_meld = taken[0]
        self.phase = "play"
        if depth == 0:
            self._say(seat, f"{self.names[seat]} took {taken[0]} from the discard pile.", "take",
                      taken)
        else:
            self._say(seat, f"{self.names[seat]} took {taken[0]} from deep in the discard pile, "
                      f"with {format_cards(taken[1:])} above it.", "take", taken)

    def _may_buy(self, seat: int) -> bool:
        """Whether `seat` may still buy this deal (`buying.limit_per_deal`, `after_contract`)."""
        buying = self.rules.buying
        if buying.limit_per_deal is not None and self.buys[seat] >= buying.limit_per_deal:
            return False
        return buying.after_contract or not (self.contract_of(seat).required
                                             and self.contract_down(seat))

    def asked_to_buy(self, seat: int) -> bool:
        """Whether `seat` may answer the buy offer now: the nearest seat still asked, or,
        with `buying.priority: first_to_ask`, any of them (the first to claim it wins)."""
        if self.phase != "buy" or seat not in self.buy_queue:
            return False
        return self.rules.buying.priority == "first_to_ask" or seat == self.buy_queue[0]

    def _do_buy(self, action: Buy) -> None:
        seat = action.seat
        card = self.discard.pop()
        self.discarded_by = -1
        penalty: list[Card] = []
        for _ in range(self.rules.buying.penalty_cards):
            if not self.stock and not self._rebuild_stock():
                break
            penalty.append(self.stock.pop())
        self.hands[seat].append(card)
        self.hands[seat].extend(penalty)
        self.buys[seat] += 1
        self._say(seat, f"{self.names[seat]} bought {card} (+{len(penalty)} penalty "
                  f"card{'s' if len(penalty) != 1 else ''}).", "buy", (card,))
        self._close_buying()

    def _do_pass_buy(self, action: PassBuy) -> None:
        self.buy_queue.remove(action.seat)
        if self.buy_queue:
            self.turn = self.buy_queue[0]
        else:
            self._close_buying()

    def _close_buying(self) -> None:
        self.buy_offer = None
        self.buy_queue = []
        self.phase = "play"
        self.turn = self.in_turn
