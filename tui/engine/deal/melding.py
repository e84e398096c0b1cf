"""Melding: laying down the contract (or any melds), laying off on the table, and swapping
a natural card for a joker in a meld.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import IllegalAction, LayDown, LayOff, MeldSpec, SwapJoker
from ..cards import JOKER_RANK, Card, format_cards
from ..meld import Meld
from ..meld_params import colour
from ..meld_rules import MAX_RUN, MeldError, card_penalty, extend_meld, make_meld, swap_joker
from ..rules import Contract, MeldRules
from ..solver import contract_melds_ok, find_contract
from .turns import DealState, distinct_faces, same_card


class Melding(DealState):
    """The rules of putting cards on the table."""

    def _may_lay_off(self, seat: int) -> bool:
        when = self.rules.lay_off.when
        down = self.contract_turn[seat]
        if when == "always":
            return True
        if when == "never" or down is None:
            return False
        if when == "after_contract_turn" and down == self.turn_count:
            return False
        return True

    def _may_swap(self, seat: int) -> bool:
        return self._swap_refusal(seat) is None

    def _swap_refusal(self, seat: int) -> IllegalAction | None:
        """Why `seat` may not swap a joker now (`joker_swap.*`), or None."""
        swap = self.rules.joker_swap
        if not swap.enabled:
            return IllegalAction("jokers cannot be swapped in this game", "joker_swap")
        down = self.contract_turn[seat]
        contract = self.contract_of(seat).required
        if swap.when == "after_contract" and down is None:
            return IllegalAction("you may swap a joker only after your contract is down",
                                 "joker_swap: after contract")
        if swap.when == "before_contract" and contract and down is not None:
            return IllegalAction("you may swap a joker only before your contract is down",
                                 "joker_swap.when: before_contract")
        if (swap.when == "after_contract" and swap.contract_on_earlier_turn
                and down == self.turn_count):
            return IllegalAction("you may swap a joker only on a turn after the one your "
                                 "contract went down", "joker_swap: earlier turn")
        return None

    def _swap_ok(self, seat: int, meld: Meld, card: Card) -> bool:
        if self.rules.joker_swap.runs_only and meld.kind != "run":
            return False
        if not any(wild.is_joker and same_card(face, card) for wild, face in meld.wild_cards()):
            return False
        try:
            new_meld, joker = swap_joker(meld, card, self.rules, self.round_of(meld.owner))
        except MeldError:
            return False
        table = [new_meld if m.id == meld.id else m for m in self.table]
        hand = [c for c in self.hands[seat] if c.uid != card.uid] + [joker]
        same_turn = self.rules.joker_swap.play_same_turn
        if not self.contract_down(seat):  # the freed joker goes into the contract's lay-down
            return not same_turn or find_contract(hand, self.rules, self.round_of(seat),
                                                  must_include=joker,
                                                  first_found=True) is not None
        # the freed joker, where it must be played this turn, is owed from now on; the
        # swap must leave it (and any card owed already) a place to go
        owed = [*self._owed(), *([joker] if same_turn else [])]
        return self._strands(seat, hand, table, False, owed) is None

    def _owed(self) -> list[Card]:
        """Cards that must be played before the turn ends: a card drawn from deep in the
        pile, jokers freed by a swap."""
        owed = list(self.freed_jokers)
        if self.must_meld is not None:
            owed.append(self.must_meld)
        return owed

    def _strands(self, seat: int, hand: Sequence[Card], table: Sequence[Meld],
                 down_now: bool, owed: Sequence[Card] | None = None) -> IllegalAction | None:
        """Why a play leaving `seat` with `hand` and the table as `table` would leave a turn
        that cannot end by the rules, or None.  Such a play is refused: a card owed this turn
        must still fit a meld it may be laid off on, and a last card that may not be
        discarded must fit one too.  (`down_now`: the play lays the contract down; `owed`:
        the cards owed, if not those owed now.)"""
        if not hand:
            return None
        when = self.rules.lay_off.when
        down = self.contract_turn[seat]
        may_lay_off = when == "always" or when != "never" and (
            down is not None or down_now) and not (
            when == "after_contract_turn" and (down_now or down == self.turn_count))
        rule = self._discard_rule()

        def playable(card: Card) -> bool:
            return may_lay_off and any(self._extends(m, card) for m in table
                                       if self.rules.lay_off.onto == "any" or m.owner == seat)

        uids = {c.uid for c in hand}
        due = [c for c in (self._owed() if owed is None else owed) if c.uid in uids]
        for card in due:
            if not playable(card):
                return IllegalAction(f"{card} must be played this turn, and after that play it "
                                     "could not be", "draw.deep_must_meld"
                                     if card is self.must_meld else
                                     "joker_swap: play the joker this turn")
        if len(due) > 1 and not self._all_placeable(seat, due, table):
            return IllegalAction(f"{format_cards(due)} must all be played this turn, and "
                                 "after that play there would be room for only some of them",
                                 "joker_swap: play the joker this turn")
        # once the owed cards are played, the turn must still be able to end
        paid = {c.uid for c in due}
        rest = [c for c in hand if c.uid not in paid]
        if not rest and rule == "required":
            return IllegalAction("you must keep a card to discard when you go out",
                                 "going_out.discard: required")
        draw = self.rules.draw
        thrown_back = (len(rest) == 1 and draw.no_immediate_rediscard
                       and not draw.rediscard_to_go_out and len(self.taken) == 1
                       and rest[0].uid == self.taken[0].uid)
        kept = self.round_rules.all_at_once and rule != "required"
        if len(rest) == 1 and (rule == "forbidden" or kept or thrown_back) and not playable(
                rest[0]):
            return IllegalAction("that would leave you one card you may neither discard nor "
                                 "lay off", "draw.rediscard_to_go_out" if thrown_back
                                 else "going_out.discard: forbidden")
        return None

    def _all_placeable(self, seat: int, cards: Sequence[Card], table: Sequence[Meld]) -> bool:
        """Whether `cards` can all be laid off on `table`, one after another.  Each fits
        somewhere alone, but every lay-off changes its meld (a set fills up, a run grows):
        a joker freed from a full set and a card taken from deep in the pile may both fit
        only the one set that has room for one more card."""
        if not cards:
            return True
        card, rest = cards[0], cards[1:]
        for i, meld in enumerate(table):
            if self.rules.lay_off.onto != "any" and meld.owner != seat:
                continue
            for end in ("", "low") if meld.kind == "run" else ("",):
                try:
                    grown = extend_meld(meld, [card], self.rules, self.round_of(meld.owner), end)
                except MeldError:
                    continue
                if self._all_placeable(seat, rest, [*table[:i], grown, *table[i + 1:]]):
                    return True
        return False

    def _strands_after_lay_down(self, seat: int, melds: Sequence[Meld],
                                hand: Sequence[Card] | None = None,
                                owed: Sequence[Card] | None = None) -> IllegalAction | None:
        used = {c.uid for m in melds for c in m.cards}
        left = [c for c in (self.hands[seat] if hand is None else hand) if c.uid not in used]
        table = [*self.table, *(m.with_identity(seat, -1) for m in melds)]
        return self._strands(seat, left, table, self.contract_turn[seat] is None, owed)

    def _lay_down_for(self, seat: int, hand: Sequence[Card],
                      owed: Card | None) -> Sequence[Meld] | None:
        """The lay-down of the contract offered to `seat` holding `hand`: the best one that
        melds the card `owed` (taken from deep in the pile) if there is one, else the best
        one after which that card can be laid off the same turn; None if neither."""
        whole = self.round_rules.all_at_once
        if whole and self._discard_rule() == "required":
            return self._whole_hand_but_one(seat, hand, owed)
        if whole and not self._could_meld_all(hand, seat):
            return None
        lay = find_contract(hand, self.rules, self.round_of(seat), whole_hand=whole,
                            must_include=owed)
        if lay is None and owed is not None and self._may_lay_off_after_lay_down() and any(
                self._extends(m, owed) for m in self.table if self.rules.lay_off.onto == "any"):
            lay = find_contract(hand, self.rules, self.round_of(seat), whole_hand=whole)
        if lay is None or not self._contract_allowed(seat, lay.melds) or (
                self._strands_after_lay_down(seat, lay.melds, hand,
                                             None if owed is None else [owed]) is not None):
            return None
        return lay.melds

    def _whole_hand_but_one(self, seat: int, hand: Sequence[Card],
                            owed: Card | None) -> Sequence[Meld] | None:
        """An all-at-once round going out with a discard: the best lay-down of every card
        but one, the one kept to discard (never the card owed)."""
        best = None
        for keep in distinct_faces(hand):
            if owed is not None and keep.uid == owed.uid:
                continue
            rest = [c for c in hand if c.uid != keep.uid]
            if not self._could_meld_all(rest, seat):
                continue
            lay = find_contract(rest, self.rules, self.round_of(seat), whole_hand=True,
                                must_include=owed)
            if lay is None or not self._contract_allowed(seat, lay.melds) or (
                    self._strands_after_lay_down(seat, lay.melds, hand) is not None):
                continue
            value = card_penalty(keep, self.rules, self.rules_round)
            if best is None or value > best[0]:  # throw the costliest card
                best = (value, lay.melds)
        return None if best is None else best[1]

    def _may_lay_off_after_lay_down(self) -> bool:
        return self.rules.lay_off.when in ("after_contract", "always")

    def _strands_after_lay_off(self, seat: int, meld: Meld, new: Meld,
                               cards: Sequence[Card]) -> IllegalAction | None:
        used = {c.uid for c in cards}
        hand = [c for c in self.hands[seat] if c.uid not in used]
        table = [new if m is meld else m for m in self.table]
        return self._strands(seat, hand, table, False)

    def _extends(self, meld: Meld, card: Card) -> bool:
        """Whether `card` can be laid off on `meld` (remembered per meld and face: the
        legal moves ask it of every card in hand against every meld, every turn)."""
        key = (id(meld), card.rank, card.suit)
        hit = self._lay_off_memo.get(key)
        if hit is not None and hit[0] is meld:
            return hit[1]
        fits = self._extends_now(meld, card)
        self._lay_off_memo[key] = (meld, fits)
        return fits

    def _extends_now(self, meld: Meld, card: Card) -> bool:
        """Whether `card` can be laid off on `meld` (cheap suit/rank test first)."""
        if card.rank not in self._wild:
            melds = self._melds(meld.owner)
            if meld.kind == "colour":
                limit = melds.colour.max
                if colour(card.suit) != meld.colour or (
                        limit is not None and len(meld.cards) >= limit):
                    return False
            elif meld.kind == "set":
                limit = melds.set.max
                if card.rank != meld.rank or (limit is not None and len(meld.cards) >= limit):
                    return False
                if melds.set.distinct_suits and any(
                        face[1] == card.suit for face in meld.stands_for):
                    return False
            else:
                if card.suit != meld.suit and melds.run.same_suit:
                    return False
                ends = {meld.low - 1, meld.high + 1}
                if not self.rules.wrap and not ends & set(self.rules.run_positions(card.rank)):
                    return False
        try:
            extend_meld(meld, [card], self.rules, self.round_of(meld.owner))
        except MeldError:
            return False
        return True

    def _melds(self, seat: int = -1) -> MeldRules:
        """The meld rules `seat` melds by (a round may set its own; a meld on the table
        is judged by its owner's)."""
        return self.rules.melds_for(self.round_of(seat))

    def _contract_allowed(self, seat: int, melds: Sequence[Meld]) -> bool:
        return contract_melds_ok(melds, self.rules, self.round_of(seat)) is None

    def _could_meld(self, card: Card, pool: Sequence[Card], table: bool = True,
                    sets: bool = True, runs: bool = True, seat: int = -1,
                    colours: bool = False) -> bool:
        """A quick necessary test: is there any set or run `card` could belong to (or a
        group of one colour, with `colours`), from `pool` and the table?  (Saves a full
        contract search for hopeless deep draws.)"""
        wild = self._wild
        if card.rank in wild:
            return True
        melds = self._melds(seat)
        wilds = sum(1 for c in pool if c.rank in wild and c.uid != card.uid)
        if melds.max_wilds is not None:
            wilds = min(wilds, melds.max_wilds)
        same_rank = {c.suit for c in pool if c.rank == card.rank}
        rank_count = len(same_rank) if melds.set.distinct_suits else sum(
            1 for c in pool if c.rank == card.rank)
        sets, runs = sets and melds.set.allowed, runs and melds.run.allowed
        if sets and rank_count + wilds >= melds.set.min:
            return True
        if colours and sum(1 for c in pool if c.rank not in wild and colour(c.suit) == colour(
                card.suit)) + wilds >= melds.colour.min:
            return True
        if not runs:
            return table and any(self._extends(m, card) for m in self.table)
        if self.rules.wrap:
            return True
        mixed = not melds.run.same_suit
        suited = {p for c in pool if (c.suit == card.suit or mixed) and c.rank != JOKER_RANK
                  for p in self.rules.run_positions(c.rank)}
        need = melds.run.min
        for pos in self.rules.run_positions(card.rank):
            for start in range(pos - need + 1, pos + 1):
                window = range(start, start + need)
                if sum(1 for p in window if p not in suited) <= wilds:
                    return True
        return table and any(self._extends(m, card) for m in self.table)

    def _could_meld_all(self, hand: Sequence[Card], seat: int = -1) -> bool:
        """Quick necessary tests for all-at-once rounds: the contract's melds can hold that
        many cards, of that many suits or ranks, and every card fits a meld of its kinds
        (for a contract of several patterns, of one of them)."""
        return any(self._could_meld_all_as(hand, contract, seat)
                   for contract in self.contract_of(seat).options())

    def _could_meld_all_as(self, hand: Sequence[Card], contract: Contract,
                           seat: int = -1) -> bool:
        melds = self._melds(seat)
        run_max = min(melds.run.max or MAX_RUN, MAX_RUN)
        if len(hand) > contract.sets * (melds.set.max or len(hand)) + contract.runs * run_max \
                + contract.colours * (melds.colour.max or len(hand)):
            return False
        naturals = [c for c in hand if c.rank not in self._wild]
        if not contract.colours:  # (a group of one colour holds any rank, any suit)
            if not contract.sets and self.rules.contract.runs_same_suit == "forbidden" and len(
                    {c.suit for c in naturals}) > contract.runs:
                return False
            if not contract.runs and not self.rules.contract.sets_same_rank and len(
                    {c.rank for c in naturals}) > contract.sets:
                return False
        return all(self._could_meld(c, hand, table=False, sets=contract.sets > 0,
                                    runs=contract.runs > 0, seat=seat,
                                    colours=contract.colours > 0)
                   for c in distinct_faces(naturals))

    def _build_melds(self, seat: int, specs: Sequence[MeldSpec],
                     use: str = "meld") -> list[Meld]:
        """The melds `specs` name, judged as melds of the contract with `use` "contract"
        (its melds may be smaller than others: sizes given per contract meld)."""
        hand = self.hands[seat]
        uids = {c.uid for c in hand}
        used: set[int] = set()
        melds = []
        for spec in specs:
            for card in spec.cards:
                if card.uid not in uids:
                    raise IllegalAction(f"{card} is not in your hand", "melds")
                if card.uid in used:
                    raise IllegalAction(f"{card} is used twice", "melds")
                used.add(card.uid)
            try:
                melds.append(make_meld(spec.cards, self.rules, self.round_of(seat),
                                       dict(spec.declare) or None, kind=spec.kind or None,
                                       use=use))
            except MeldError as exc:
                raise IllegalAction(str(exc), exc.rule) from exc
        return melds

    def _put_on_table(self, seat: int, melds: Sequence[Meld]) -> list[Meld]:
        placed = []
        for meld in melds:
            placed_meld = meld.with_identity(seat, self.next_meld_id)
            self.next_meld_id += 1
            self.table.append(placed_meld)
            placed.append(placed_meld)
            self._remove_from_hand(seat, meld.cards)
        self._played(seat)
        return placed

    def _do_lay_down(self, action: LayDown) -> None:
        seat = action.seat
        rnd = self.rules.round(self.round_of(seat))
        if not self.rules.going_out.melding_during_play:
            raise IllegalAction("nothing is laid on the table during play in this game; "
                                "meld your whole hand when you go out",
                                "going_out.melding_during_play")
        if self.in_final_turns:
            raise IllegalAction("a final turn is draw and discard only", "final turns")
        if rnd.contract.required and self.contract_down(seat):
            raise IllegalAction("your contract is down: no new melds, only laying off",
                                "contract: one lay-down")
        if not action.melds:
            raise IllegalAction("lay down at least one meld", "melds")
        melds = self._build_melds(seat, action.melds,
                                  "contract" if rnd.contract.required else "meld")
        if rnd.contract.required:
            reason = contract_melds_ok(melds, self.rules, self.round_of(seat))
            if reason:
                raise IllegalAction(reason, f"contract: {rnd.contract.describe()}")
        laid = sum(len(m.cards) for m in melds)
        remaining = len(self.hands[seat]) - laid
        keep = 1 if self._discard_rule() == "required" else 0
        if rnd.all_at_once and remaining != keep:
            raise IllegalAction("in this deal the contract must be laid down with the whole "
                                "hand at once, leaving " + (
                                    "one card to discard" if keep else "no card"),
                                "round: all at once")
        self._check_leaves_discard(remaining)
        stranded = self._strands_after_lay_down(seat, melds)
        if stranded is not None:
            raise stranded
        placed = self._put_on_table(seat, melds)
        if self.contract_turn[seat] is None:
            self.contract_turn[seat] = self.turn_count
        shown = "; ".join(m.describe() for m in placed)
        what = "laid down the contract" if rnd.contract.required else "melded"
        self._say(seat, f"{self.names[seat]} {what}: {shown}.", "meld",
                  [c for m in placed for c in m.cards])
        self._after_play(seat)

    def _check_leaves_discard(self, remaining: int) -> None:
        if remaining == 0 and self._discard_rule() == "required":
            raise IllegalAction("you must keep a card to discard when you go out",
                                "going_out.discard: required")

    def _do_lay_off(self, action: LayOff) -> None:
        seat = action.seat
        if not self._may_lay_off(seat):
            if self.rules.lay_off.when == "never":
                raise IllegalAction("laying off is not allowed in this game", "lay_off: never")
            if not self.contract_down(seat):
                raise IllegalAction("you may lay off only after your contract is down",
                                    "lay_off: after contract")
            raise IllegalAction("you may lay off only on a turn after the one your contract "
                                "went down", "lay_off: later turns")
        meld = self._meld(action.meld_id)
        if self.rules.lay_off.onto == "own" and meld.owner != seat:
            raise IllegalAction("you may lay off only on your own melds", "lay_off: own melds")
        if not action.cards:
            raise IllegalAction("choose cards to lay off", "lay_off")
        self._check_in_hand(seat, action.cards)
        try:
            new = extend_meld(meld, action.cards, self.rules, self.round_of(meld.owner),
                              action.end)
        except MeldError as exc:
            raise IllegalAction(str(exc), exc.rule) from exc
        self._check_leaves_discard(len(self.hands[seat]) - len(action.cards))
        stranded = self._strands_after_lay_off(seat, meld, new, action.cards)
        if stranded is not None:
            raise stranded
        self.table[self.table.index(meld)] = new
        self._remove_from_hand(seat, action.cards)
        self._played(seat)
        owner = "their own" if meld.owner == seat else f"{self.names[meld.owner]}'s"
        self._say(seat, f"{self.names[seat]} laid off {format_cards(action.cards)} on "
                  f"{owner} {meld.kind} {meld.describe()}.", "lay_off", action.cards)
        self._after_play(seat)

    def _do_swap_joker(self, action: SwapJoker) -> None:
        seat = action.seat
        swap = self.rules.joker_swap
        refusal = self._swap_refusal(seat)
        if refusal is not None:
            raise refusal
        meld = self._meld(action.meld_id)
        if swap.runs_only and meld.kind != "run":
            raise IllegalAction("jokers in sets are dead: only a joker in a run can be swapped",
                                "joker_swap: runs only")
        if action.card is None:
            raise IllegalAction("choose the natural card to swap in", "joker_swap")
        self._check_in_hand(seat, [action.card])
        if not self._swap_ok(seat, meld, action.card):
            try:
                swap_joker(meld, action.card, self.rules, self.round_of(meld.owner))
            except MeldError as exc:
                raise IllegalAction(str(exc), exc.rule) from exc
            raise IllegalAction("the freed joker could not be played this turn",
                                "joker_swap: play the joker this turn")
        new, joker = swap_joker(meld, action.card, self.rules, self.round_of(meld.owner))
        self.table[self.table.index(meld)] = new
        self._remove_from_hand(seat, [action.card])
        self.hands[seat].append(joker)
        self._played(seat)
        if swap.play_same_turn:
            self.freed_jokers.append(joker)
        self._say(seat, f"{self.names[seat]} put {action.card} in {meld.describe()} and took "
                  "the joker.", "swap", (action.card, joker))
