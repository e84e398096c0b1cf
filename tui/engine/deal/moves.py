"""One deal of rummy: every rule chapter put together, the legal moves listed, and each
action checked and carried out.  `apply` refuses an illegal action with a reason and leaves
the deal untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..actions import (
    Action,
    Buy,
    Discard,
    GoOut,
    IllegalAction,
    LayDown,
    LayOff,
    PassBuy,
    SwapJoker,
    meld_specs,
)
from ..cards import Card
from ..meld import Meld
from ..meld_rules import extend_meld
from ..solver import going_out
from .going_out import GoingOut
from .trust import trusted
from .turns import distinct_faces


class Deal(GoingOut):
    """A deal in progress: its state, its rules and its legal moves."""

    # each kind of action's `_do_…` method (filled in below the class)
    _handlers: ClassVar[dict[str, Callable[[Deal, Any], None]]] = {}

    def legal(self, seat: int) -> tuple[Action, ...]:
        """Every action `seat` may take now (one representative per distinct choice),
        worked out once per state and shared by every view of it.

        A front end lists them in a worker thread while its own thread may apply the next
        action: the listing goes into the cache it started from, which `apply` replaces
        (never clears), so a listing of an older state is never taken for the new one."""
        if seat != self.actor and not self.asked_to_buy(seat):
            return ()
        cache = self._legal_cache
        hit = cache.get(seat)
        if hit is None:
            if self.phase == "buy":
                options: list[Action] = [Buy(seat), PassBuy(seat)]
            elif self.phase == "draw":
                options = self._draw_options(seat)
            else:
                options = self._play_options(seat)
            hit = cache[seat] = tuple(options)
        return hit

    def has_a_move(self, seat: int) -> bool:
        """Whether `seat` may do anything at all now.

        Asked after every action (a seat with no move would stall the game), so it settles
        for the first plain draw or discard it finds instead of listing every move, which
        may search for a go-out, on whatever thread played the action."""
        if seat != self.actor and not self.asked_to_buy(seat):
            return False
        listed = self._legal_cache.get(seat)
        if listed is not None:
            return bool(listed)
        if self.phase == "buy":
            return True
        if self.phase == "draw":
            if self.stock:
                return True
            return bool(self.discard) and self.rules.draw.discard != "none" \
                and self._pile_refusal(seat) is None
        if self._discard_blocked(seat) is None:
            barred = self._rediscard_barred(seat)
            if any(card.uid != barred for card in self.hands[seat]):
                return True
        return bool(self.legal(seat))

    def _play_options(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        options: list[Action] = []
        rn = self.round_of(seat)
        if self.rules.going_out.melding_during_play and not self.in_final_turns:
            if not self.contract_down(seat):
                lay = self._lay_down_for(seat, hand, self.must_meld)
                if lay is not None:
                    options.append(LayDown(seat, meld_specs(lay)))
            elif self.must_meld is not None and not self.contract_of(seat).required:
                # no contract: the card taken from deep in the pile goes down in a new meld
                meld = self._free_meld_for(seat, hand, self.must_meld)
                if meld is not None:
                    options.append(LayDown(seat, meld_specs([meld])))
            # laying off the last card is going out without a discard
            if self._may_lay_off(seat) and not (len(hand) == 1
                                                and self._discard_rule() == "required"):
                owed = self._owed()
                # one card per face, an owed card first (its twin would not pay the debt)
                faces = distinct_faces([*owed, *hand])
                # only an owed card or a last card kept may make a lay-off strand the turn
                risky = bool(owed) or len(hand) == 2
                for meld in self.table:
                    if self.rules.lay_off.onto == "own" and meld.owner != seat:
                        continue
                    options.extend(LayOff(seat, meld.id, (card,)) for card in faces
                                   if self._extends(meld, card)
                                   and not (risky and self._lay_off_strands(seat, meld, card)))
            if self._may_swap(seat):
                for meld in self.table:
                    if not any(wild.is_joker for wild, _ in meld.wild_cards()):
                        continue
                    options.extend(SwapJoker(seat, meld.id, card) for card in hand
                                   if self._swap_ok(seat, meld, card))
        if not self.rules.going_out.melding_during_play and not self.in_final_turns:
            out = going_out(hand, self.rules, rn)
            if out is not None:
                arrangement, discard = out
                options.append(GoOut(seat, meld_specs(arrangement.melds), discard))
        if self._discard_blocked(seat) is None:
            discards = self._discards
            barred = self._rediscard_barred(seat)
            for card in distinct_faces(hand):
                if card.uid != barred:
                    action = discards.get((seat, card.uid))
                    if action is None:
                        action = discards[seat, card.uid] = Discard(seat, card)
                    options.append(action)
        return options

    def _lay_off_strands(self, seat: int, meld: Meld, card: Card) -> bool:
        new = extend_meld(meld, [card], self.rules, self.round_of(meld.owner))
        return self._strands_after_lay_off(seat, meld, new, [card]) is not None

    def apply(self, action: Action) -> None:
        """Carry out `action`, or raise `IllegalAction` and change nothing.

        Nothing in the action is trusted: every field is type-checked and every card is
        looked up by uid in the player's hand, its claimed face compared, before any rule
        is checked; the handlers then work with the deal's own cards."""
        action = trusted(action, self)
        if self.phase == "game_over":
            raise IllegalAction("the game is over", "end")
        if self.phase == "round_over":
            raise IllegalAction("the round is over; the next deal has not started", "rounds")
        if action.seat != self.actor and not (action.kind in ("buy", "pass_buy")
                                              and self.asked_to_buy(action.seat)):
            who = self.names[self.actor] if self.actor >= 0 else "nobody"
            raise IllegalAction(f"it is not your turn: {who} is to play", "turn order")
        handler = self._handlers.get(action.kind)
        if handler is None:
            raise IllegalAction(f"unknown action {action.kind!r}", "actions")
        if self.phase == "buy" and action.kind not in ("buy", "pass_buy"):
            raise IllegalAction("answer the buy offer first: buy or pass", "buying")
        if self.phase == "draw" and action.kind not in ("draw_stock", "take_discard"):
            raise IllegalAction("draw first: from the stock or the discard pile", "turn: draw")
        if self.phase == "play" and action.kind in ("draw_stock", "take_discard"):
            raise IllegalAction("you have already drawn this turn", "turn: one draw")
        if self.phase != "buy" and action.kind in ("buy", "pass_buy"):
            raise IllegalAction("no discard is being offered for buying now", "buying")
        handler(self, action)
        self._legal_cache = {}


Deal._handlers = {name[len("_do_"):]: method for klass in reversed(Deal.__mro__)
                  for name, method in vars(klass).items() if name.startswith("_do_")}
