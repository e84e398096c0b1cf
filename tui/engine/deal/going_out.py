"""Discarding and going out: which card may be thrown, and a whole hand melded at once in
games that meld only when going out.
"""

from __future__ import annotations

from ..actions import Discard, GoOut, IllegalAction
from ..cards import Card, format_cards
from ..meld_rules import card_penalty
from .drawing import Drawing


class GoingOut(Drawing):
    """The rules of the discard that ends a turn, and of going out."""

    def _discard_refusal(self, seat: int, card: Card) -> IllegalAction | None:
        """Why `card` may not be discarded now, or None."""
        blocked = self._discard_blocked(seat)
        if blocked is None and card.uid == self._rediscard_barred(seat):
            return IllegalAction(f"you may not discard {card}: you just took it from the "
                                 "discard pile", "draw.no_immediate_rediscard")
        return blocked

    def _discard_blocked(self, seat: int) -> IllegalAction | None:
        """Why no card at all may be discarded now, or None."""
        if self.must_meld is not None:
            return IllegalAction(f"{self.must_meld} was taken from deep in the pile and must be "
                                 "melded this turn", "draw.deep_must_meld")
        if self.freed_jokers:
            return IllegalAction("the joker you took by a swap must be played this turn",
                                 "joker_swap: play the joker this turn")
        rule = self._discard_rule()
        if len(self.hands[seat]) == 1 and (rule == "forbidden" or (
                self.round_rules.all_at_once and rule != "required")):
            return IllegalAction("you may not go out by discarding in this round",
                                 "going_out.discard: forbidden")
        return None

    def _rediscard_barred(self, seat: int) -> int | None:
        """The uid of the card `seat` may not discard now: the one it just took from the
        pile, where the ruleset says so (as the last card in hand too, unless
        `draw.rediscard_to_go_out`)."""
        draw = self.rules.draw
        if (draw.no_immediate_rediscard and len(self.taken) == 1
                and (len(self.hands[seat]) > 1 or not draw.rediscard_to_go_out)):
            return self.taken[0].uid
        return None

    def _do_discard(self, action: Discard) -> None:
        seat = action.seat
        card = action.card
        if card is None:
            raise IllegalAction("choose a card to discard", "discard")
        self._check_in_hand(seat, [card])
        refusal = self._discard_refusal(seat, card)
        if refusal is not None:
            raise refusal
        self._remove_from_hand(seat, [card])
        self.discard.append(card)
        self.discarded_by = seat
        self._say(seat, f"{self.names[seat]} discarded {card}.", "discard", (card,))
        if not self.hands[seat]:
            self._goes_out(seat)
        else:
            self._end_turn()

    def _do_go_out(self, action: GoOut) -> None:
        seat = action.seat
        if self.rules.going_out.melding_during_play:
            raise IllegalAction("go out by playing your last card: meld, lay off or discard",
                                "going_out")
        if self.in_final_turns:
            raise IllegalAction("someone has gone out: this is your final turn, draw and "
                                "discard", "final turns")
        melds = self._build_melds(seat, action.melds)
        rule = self._discard_rule()
        melded = sum(len(m.cards) for m in melds)
        hand = self.hands[seat]
        left = len(hand) - melded - (1 if action.discard is not None else 0)
        if action.discard is not None:
            self._check_in_hand(seat, [action.discard])
            if any(action.discard.uid == c.uid for m in melds for c in m.cards):
                raise IllegalAction(f"{action.discard} cannot be both melded and discarded",
                                    "going out")
            if rule == "forbidden":
                raise IllegalAction("in this round you go out with no discard",
                                    "going_out.discard: forbidden")
        elif rule == "required":
            raise IllegalAction("going out ends with a discard: choose the card to discard",
                                "going_out.discard: required")
        if left:
            melded_uids = {c.uid for m in melds for c in m.cards}
            if action.discard is not None:
                melded_uids.add(action.discard.uid)
            kept = [c for c in hand if c.uid not in melded_uids]
            points = sum(card_penalty(c, self.rules, self.rules_round) for c in kept)
            limit = self.rules.going_out.deadwood_limit
            if not limit:
                raise IllegalAction(f"to go out every card must be melded (all but the "
                                    f"discard); {left} card{'s are' if left != 1 else ' is'} "
                                    "left over", "going out")
            if points > limit:
                raise IllegalAction(f"you may go out keeping at most {limit} points outside "
                                    f"melds; {format_cards(kept)} make {points}",
                                    "going_out.deadwood_limit")
        placed = self._put_on_table(seat, melds)
        shown = "; ".join(m.describe() for m in placed)
        self._say(seat, f"{self.names[seat]} went out: {shown}.", "go_out",
                  [c for m in placed for c in m.cards])
        if action.discard is not None:
            self._remove_from_hand(seat, [action.discard])
            self.discard.append(action.discard)
            self.discarded_by = seat
            self._say(seat, f"{self.names[seat]} discarded {action.discard}.", "discard",
                      (action.discard,))
        self._goes_out(seat)
