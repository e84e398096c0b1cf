"""The deal's clock: where every card of one deal is, whose turn it is, and how turns pass,
the stock is rebuilt and the deal ends when someone goes out or the stock runs dry.

The rulebook's chapters (drawing, melding, going out) build on this state; `Deal` in
`moves` puts them together with the list of legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..actions import Action, IllegalAction
from ..cards import HIGH_ACE, Card
from ..meld import Meld
from ..meld_rules import meld_params
from ..rules import Contract, Round, Ruleset
from ..view import Event, Phase

UNCAPPED_STOCKS = 10


class DealState:
    """Everything about one deal in progress; a new deal is a new object."""

    def __init__(self, rules: Ruleset, names: Sequence[str], rng: random.Random,
                 log: list[Event], number: int, hands: list[list[Card]], stock: list[Card],
                 discard: list[Card], first: int, on_over: Callable[[], None],
                 seat_rounds: Sequence[int] = ()) -> None:
        self.rules = rules
        self.names = names
        self.players = len(names)
        self.rng = rng  # the game's: a rebuilt stock is shuffled from the same stream
        self.log = log
        self.number = number
        self.rules_round = rules.schedule_round(number)
        self.round_rules: Round = rules.rounds[self.rules_round - 1]
        # the round each seat plays by: the deal's, or under `progression: per_player` the
        # phase the seat is on (its contract and meld rules; every phase deals alike)
        self.seat_rounds: tuple[int, ...] = tuple(seat_rounds) or (
            (self.rules_round,) * self.players)
        self._on_over = on_over
        self.stock = stock  # top of the stock is the last card
        self.discard = discard  # top of the pile is the last card
        self.hands = hands
        self.table: list[Meld] = []
        self.contract_turn: list[int | None] = [None] * self.players  # turn it went down
        if rules.going_out.melding_during_play:
            # With no contract to meet, a seat may meld and lay off from the start.
            self.contract_turn = [None if self.contract_of(s).required else 0
                                  for s in range(self.players)]
        self.buys = [0] * self.players
        self.first_meld_turn: list[int | None] = [None] * self.players  # first card played
        self.in_one_turn = False  # the player who went out melded the whole hand that turn
        self.phase: Phase = "draw"
        self.in_turn = first  # seat whose turn it is
        self.turn = first  # seat that must act: the seat in turn, or one asked about a buy
        self.turn_count = 1  # turns started this deal
        self.taken: list[Card] = []  # taken from the discard pile this turn
        self.must_meld: Card | None = None  # a deep-drawn card that must be melded this turn
        self.freed_jokers: list[Card] = []  # must be played this turn
        self.went_out = -1
        self.final_pending: list[int] = []  # seats owed a final turn
        self.in_final_turns = False
        self.buy_offer: Card | None = None
        self.buy_queue: list[int] = []  # seats still to be asked
        self.discarded_by = -1  # who discarded the top card of the pile (-1: turned up)
        self.rebuilds = 0
        self.turn_limit = turn_limit(rules, len(stock) + len(discard) + sum(map(len, hands)))
        self.next_meld_id = 0
        self._wild = meld_params(rules, self.rules_round).wild_ranks
        self._legal_cache: dict[int, tuple[Action, ...]] = {}
        self._discards: dict[tuple[int, int], Action] = {}  # made once, offered often
        # whether a card face extends a meld, per meld object (melds are immutable)
        self._lay_off_memo: dict[tuple[int, int, str], tuple[Meld, bool]] = {}

    @property
    def actor(self) -> int:
        """The seat that must act now (-1 between rounds and after the game)."""
        return self.turn if self.phase in ("draw", "buy", "play") else -1

    def _say(self, seat: int, text: str, kind: str = "", cards: Sequence[Card] = ()) -> None:
        self.log.append(Event(seat, text, kind, self.number, tuple(cards)))

    def round_of(self, seat: int) -> int:
        """The round of the schedule `seat` plays this deal by: the deal's own, or under
        `progression: per_player` the phase the seat is on (-1, nobody: the deal's)."""
        return self.seat_rounds[seat] if 0 <= seat < self.players else self.rules_round

    def contract_of(self, seat: int) -> Contract:
        """The contract `seat` must lay down this deal."""
        return self.rules.rounds[self.round_of(seat) - 1].contract

    def contract_down(self, seat: int) -> bool:
        return self.contract_turn[seat] is not None

    def _discard_rule(self) -> str:
        return self.rules.going_out_discard(self.rules_round)

    def _played(self, seat: int) -> None:
        """`seat` put cards on the table this turn (for going out "in one turn")."""
        if self.first_meld_turn[seat] is None:
            self.first_meld_turn[seat] = self.turn_count

    def _remove_from_hand(self, seat: int, cards: Sequence[Card]) -> None:
        gone = {c.uid for c in cards}
        self.hands[seat] = [c for c in self.hands[seat] if c.uid not in gone]
        if self.must_meld is not None and self.must_meld.uid in gone:
            self.must_meld = None
        self.freed_jokers = [j for j in self.freed_jokers if j.uid not in gone]

    def _check_in_hand(self, seat: int, cards: Sequence[Card]) -> None:
        uids = {c.uid for c in self.hands[seat]}
        seen: set[int] = set()
        for card in cards:
            if card.uid not in uids or card.uid in seen:
                raise IllegalAction(f"{card} is not in your hand", "cards")
            seen.add(card.uid)

    def _meld(self, meld_id: int) -> Meld:
        for meld in self.table:
            if meld.id == meld_id:
                return meld
        raise IllegalAction(f"there is no meld #{meld_id} on the table", "lay_off")

    def _after_play(self, seat: int) -> None:
        """Playing the last card ends the deal at once."""
        if not self.hands[seat]:
            self._goes_out(seat)

    def _goes_out(self, seat: int) -> None:
        self.went_out = seat
        first = self.first_meld_turn[seat]
        self.in_one_turn = first is None or first == self.turn_count
        if not self.in_final_turns:
            if self.rules.going_out.final_turns and self.players > 1:
                self._say(seat, f"{self.names[seat]} is out! Everyone else has one more turn.",
                          "out")
                self.in_final_turns = True
                self.final_pending = [(seat + i) % self.players for i in range(1, self.players)]
                self._start_turn(self.final_pending[0])
                return
            self._say(seat, f"{self.names[seat]} is out!", "out")
        self._end_round()

    def _end_turn(self) -> None:
        if self.in_final_turns:
            self.final_pending.pop(0)
            if not self.final_pending:
                self._end_round()
                return
            self._start_turn(self.final_pending[0])
            return
        self._start_turn((self.turn + 1) % self.players)

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.in_turn = seat
        self.turn_count += 1
        self.taken = []
        self.must_meld = None
        self.freed_jokers = []
        self.phase = "draw"
        if self.turn_count > self.turn_limit:
            self.end_as_it_stands(f"{self.turn_limit} turns have been played")
            return
        if not self.stock and not self._rebuild_stock() and not self._lone_discard_left():
            self._say(-1, "The stock is exhausted: the round ends as it stands.", "stock")
            self._end_round()

    def _lone_discard_left(self) -> bool:
        """With the stock out and a single card in the pile there is nothing to rebuild
        from, but the player in turn can still draw that card.  Such a turn counts as a
        rebuild, so that passing one card round the table still ends the deal."""
        stock_rules = self.rules.stock
        limit = stock_rules.max_rebuilds
        if (stock_rules.when_empty != "reshuffle" or (limit is not None and self.rebuilds >= limit)
                or len(self.discard) != 1 or self.rules.draw.discard == "none"):
            return False
        refusal = self._pile_refusal(self.turn)
        if refusal is not None:  # e.g. `draw.stock_only_after_contract` with a contract down
            self._say(-1, f"The stock is out and {self.names[self.turn]} may not take the one "
                      f"card in the discard pile (`{refusal.rule}`).", "stock")
            return False
        self.rebuilds += 1
        self._say(-1, f"The stock is out: {self.names[self.turn]} draws the one card in the "
                  "discard pile.", "stock")
        return True

    def _rebuild_stock(self) -> bool:
        stock_rules = self.rules.stock
        limit = stock_rules.max_rebuilds
        if stock_rules.when_empty != "reshuffle" or (limit is not None and self.rebuilds >= limit):
            return False
        if len(self.discard) < 2:
            return False
        top = self.discard.pop()
        if stock_rules.rebuild == "turn_over":
            # the pile turned face down as it lies: its first card is now the stock's top
            self.stock = self.discard[::-1]
            said = "The discards were turned over, unshuffled, into a new stock."
        else:
            self.stock = self.discard
            self.rng.shuffle(self.stock)
            said = "The discards were shuffled into a new stock."
        self.discard = [top]
        self.rebuilds += 1
        self._say(-1, said, "stock")
        return True

    def _end_round(self) -> None:
        self._on_over()

    def end_as_it_stands(self, why: str) -> None:
        """End the deal now, scored as the cards lie, saying `why` in the log: the game's
        answer to a deal that cannot or would not end by play (a player in turn with no
        legal move, a deal or a game past its moves)."""
        self._say(-1, f"{why}: the round ends as it stands.", "stock")
        self._end_round()

    def _play_options(self, seat: int) -> list[Action]:
        """What `seat` may do after drawing (the moves are listed in `moves`)."""
        raise NotImplementedError

    def _pile_refusal(self, seat: int) -> IllegalAction | None:
        """Why `seat` may not take from the discard pile this turn (see `drawing`)."""
        raise NotImplementedError


def turn_limit(rules: Ruleset, cards: int) -> int:
    """The turns after which a deal ends as it stands: as many as its stocks could supply
    draws for (the first and every rebuild allowed, each at most the deal's `cards`).  The
    stock's own end does not come if the players only take discards, and without this cap
    such a deal (bots that pass cards round the pile) would never end.  With no cap on the
    rebuilds (`stock.max_rebuilds: null`) the deal still ends after `UNCAPPED_STOCKS`
    stocks' worth of turns: a table that has drawn through the stock that often is not
    going out (bots that cannot meld, or that cycle through a stock turned over unshuffled,
    never would)."""
    stocks = rules.stock.stocks
    return (UNCAPPED_STOCKS if stocks is None else stocks) * cards


def same_card(face: tuple[int, str], card: Card) -> bool:
    """Whether a wild's declared face (run positions 1…14) is this natural card."""
    rank = 1 if face[0] == HIGH_ACE else face[0]
    return rank == card.rank and face[1] in ("", card.suit)


def distinct_faces(hand: Sequence[Card]) -> list[Card]:
    """One physical card per face (two identical 7H are the same choice)."""
    first: dict[tuple[int, str], Card] = {}
    for card in hand:
        first.setdefault((card.rank, card.suit), card)
    return list(first.values())
