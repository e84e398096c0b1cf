"""One game of rummy, played by the rules of a `Ruleset`.

The game is the single authority over where every card is.  Players (people through a front
end, or bots) only ever see a `SeatView` and hand back `Action`s; `apply` checks each against
the ruleset, refuses an illegal one with a reason and leaves the state untouched, or carries
it out and records it.  Given the same ruleset, players, seed and actions, a game always
unfolds the same way, so a saved game is just those.

The flow of a turn: *draw* (stock, top discard, or deep in the pile where allowed), perhaps a
*buy* window when the player in turn passed over the discard, then *play* (lay down the
contract, lay off, swap jokers) and finally *discard*, or *go out*.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .actions import (
    Action,
    Buy,
    Discard,
    DrawStock,
    GoOut,
    IllegalAction,
    LayDown,
    LayOff,
    MeldSpec,
    PassBuy,
    SwapJoker,
    TakeDiscard,
)
from .cards import JOKER_RANK, Card, build_shoe, format_cards
from .meld import Meld
from .meld_rules import (
    MAX_RUN,
    MeldError,
    card_penalty,
    extend_meld,
    make_meld,
    meld_params,
    swap_joker,
)
from .rules import Round, Ruleset
from .solver.api import best_arrangement, contract_melds_ok, find_contract, going_out
from .view import Event, LogSoFar, Phase, PlayerInfo, RoundResult, SeatView


@dataclass
class RoundState:
    """Everything about the deal in progress; replaced at every new deal."""

    number: int
    stock: list[Card]  # top of the stock is the last card
    discard: list[Card]  # top of the pile is the last card
    hands: list[list[Card]]
    table: list[Meld] = field(default_factory=list)
    contract_turn: list[int | None] = field(default_factory=list)  # turn it went down
    buys: list[int] = field(default_factory=list)
    phase: Phase = "draw"
    in_turn: int = 0  # seat whose turn it is
    turn: int = 0  # seat that must act: the seat in turn, or one asked about a buy
    turn_count: int = 0  # turns started this deal
    taken: list[Card] = field(default_factory=list)  # taken from the discard pile this turn
    must_meld: Card | None = None  # a deep-drawn card that must be melded this turn
    freed_jokers: list[Card] = field(default_factory=list)  # must be played this turn
    went_out: int = -1
    final_pending: list[int] = field(default_factory=list)  # seats owed a final turn
    in_final_turns: bool = False
    buy_offer: Card | None = None
    buy_queue: list[int] = field(default_factory=list)  # seats still to be asked
    rebuilds: int = 0
    next_meld_id: int = 0


class Game:
    """A whole game: rounds in the ruleset's schedule, scores, winners."""

    # each kind of action's `_do_…` method (filled in below the class)
    _handlers: ClassVar[dict[str, Callable[[Game, Any], None]]] = {}

    def __init__(self, rules: Ruleset, names: Sequence[str], seed: int = 0) -> None:
        players = len(names)
        if not rules.players_min <= players <= rules.players_max:
            raise ValueError(
                f"{rules.name} is for {rules.players_min}–{rules.players_max} players, "
                f"not {players}"
            )
        self.rules = rules
        self.names = list(names)
        self.seed = seed
        self.rng = random.Random(seed)
        spec = rules.deck_for(players)
        self.shoe: list[Card] = build_shoe(spec.decks, spec.jokers)
        self.totals = [0] * players
        self.scores: list[tuple[int, ...]] = []  # per finished round, per seat
        self.results: list[RoundResult] = []
        self.log: list[Event] = []
        self.history: list[Action] = []
        self.winners: tuple[int, ...] = ()
        self._round_number = 0
        self._legal_cache: dict[int, tuple[Action, ...]] = {}
        self._discards: dict[tuple[int, int], Discard] = {}  # made once, offered often
        # whether a card face extends a meld, per meld object (melds are immutable), per deal
        self._lay_off_memo: dict[tuple[int, int, str], tuple[Meld, bool]] = {}
        self.dealer = self._choose_dealer()
        self.round: RoundState = self._deal(1)

    # ------------------------------------------------------------------ set-up

    @property
    def players(self) -> int:
        return len(self.names)

    def _say(self, seat: int, text: str, kind: str = "", cards: Sequence[Card] = ()) -> None:
        self.log.append(Event(seat, text, kind, self._round_number, tuple(cards)))

    def _choose_dealer(self) -> int:
        if self.rules.dealer == "random":
            dealer = self.rng.randrange(self.players)
            self._say(dealer, f"{self.names[dealer]} deals first (chosen at random).", "dealer")
            return dealer
        # Each player draws a card; the lowest deals; ties draw again.
        contenders = list(range(self.players))
        while True:
            pack = [c for c in self.shoe if c.rank != JOKER_RANK]
            self.rng.shuffle(pack)
            draws = {seat: pack[i] for i, seat in enumerate(contenders)}
            low = min(self._cut_rank(card) for card in draws.values())
            lowest = [s for s in contenders if self._cut_rank(draws[s]) == low]
            shown = ", ".join(f"{self.names[s]} {draws[s]}" for s in contenders)
            self._say(-1, f"Cutting for the deal: {shown}.", "dealer")
            if len(lowest) == 1:
                dealer = lowest[0]
                self._say(dealer, f"{self.names[dealer]} cut lowest and deals first.", "dealer")
                return dealer
            contenders = lowest

    def _cut_rank(self, card: Card) -> int:
        return 14 if card.rank == 1 and self.rules.ace == "high" else card.rank

    def _deal(self, number: int) -> RoundState:
        self._rules_round = self.rules.schedule_round(number)
        rnd = self.round_rules
        stock = list(self.shoe)
        self.rng.shuffle(stock)
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        first = (self.dealer + 1) % self.players
        for _ in range(rnd.cards):
            for i in range(self.players):
                hands[(first + i) % self.players].append(stock.pop())
        discard = [stock.pop()]
        state = RoundState(
            number=number,
            stock=stock,
            discard=discard,
            hands=hands,
            contract_turn=[None] * self.players,
            buys=[0] * self.players,
            in_turn=first,
            turn=first,
            turn_count=1,
        )
        self._round_number = number
        self._wild = meld_params(self.rules, self._rules_round).wild_ranks
        self._lay_off_memo.clear()
        self._discards.clear()
        if not rnd.contract.required and self.rules.going_out.melding_during_play:
            # With no contract to meet, everyone may meld and lay off from the start.
            state.contract_turn = [0] * self.players
        self.round = state
        self._say(
            self.dealer,
            f"Deal {number}: {self.names[self.dealer]} deals {rnd.cards} cards each; "
            f"{discard[-1]} turned up.",
            "deal",
            discard[-1:],
        )
        return state

    # ------------------------------------------------------------------ queries

    @property
    def round_rules(self) -> Round:
        return self.rules.rounds[self.rules_round - 1]

    @property
    def rules_round(self) -> int:
        """The round number in the ruleset's schedule (wilds, contract) for the deal."""
        return self._rules_round

    @property
    def phase(self) -> Phase:
        return self.round.phase

    @property
    def actor(self) -> int:
        """The seat that must act now (-1 between rounds and after the game)."""
        return self.round.turn if self.round.phase in ("draw", "buy", "play") else -1

    def contract_down(self, seat: int) -> bool:
        return self.round.contract_turn[seat] is not None

    def last_round(self) -> bool:
        if self.rules.end.point_limit is None:
            return self.round.number >= len(self.rules.rounds)
        return self.round.number >= self.rules.end.max_rounds

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (one representative per distinct choice)."""
        return list(self._legal(seat))

    def _legal(self, seat: int) -> tuple[Action, ...]:
        """`legal_actions`, worked out once per state and shared by every view of it."""
        st = self.round
        if seat != self.actor:
            return ()
        hit = self._legal_cache.get(seat)
        if hit is None:
            if st.phase == "buy":
                options: list[Action] = [Buy(seat), PassBuy(seat)]
            elif st.phase == "draw":
                options = self._draw_options(seat)
            else:
                options = self._play_options(seat)
                if not options:
                    # A dead end the rules did not foresee: let the player discard anything.
                    options = [Discard(seat, card) for card in _distinct(st.hands[seat])]
            hit = self._legal_cache[seat] = tuple(options)
        return hit

    def _draw_options(self, seat: int) -> list[Action]:
        st = self.round
        options: list[Action] = []
        if st.stock:
            options.append(DrawStock(seat))
        mode = self.rules.draw.discard
        if st.discard and mode != "none":
            options.append(TakeDiscard(seat, 0))
            if mode == "deep" and not st.in_final_turns:
                options.extend(TakeDiscard(seat, d) for d in self._deep_depths(seat))
        return options

    def _deep_depths(self, seat: int) -> list[int]:
        """How deep in the pile `seat` may take now (each depth's card must be meldable)."""
        st = self.round
        first = 1
        if not self.contract_down(seat) and not self.round_rules.all_at_once:
            # The cards on offer only grow with depth, so no depth above the shallowest
            # one whose cards make any lay-down at all can make one with its own card.
            shallowest = self._shallowest_contract_depth(seat)
            if shallowest is None:
                return []
            first = shallowest
        return [d for d in range(first, len(st.discard)) if self._deep_take_meldable(seat, d)]

    def _shallowest_contract_depth(self, seat: int) -> int | None:
        st = self.round
        hand = st.hands[seat]

        def holds_contract(depth: int) -> bool:
            return find_contract(hand + st.discard[-1 - depth:], self.rules, self.rules_round,
                                 first_found=True) is not None

        low, high = 1, len(st.discard) - 1
        if high < 1 or not holds_contract(high):
            return None
        while low < high:
            middle = (low + high) // 2
            if holds_contract(middle):
                high = middle
            else:
                low = middle + 1
        return low

    def _play_options(self, seat: int) -> list[Action]:
        st = self.round
        hand = st.hands[seat]
        options: list[Action] = []
        rn = self.rules_round
        if self.rules.going_out.melding_during_play and not st.in_final_turns:
            whole = self.round_rules.all_at_once
            if not self.contract_down(seat) and (not whole or self._could_meld_all(hand)):
                lay = find_contract(hand, self.rules, rn, whole_hand=whole)
                if lay is not None and self._contract_allowed(seat, lay.melds):
                    options.append(
                        LayDown(seat, tuple(MeldSpec(m.cards, _declared(m)) for m in lay.melds))
                    )
            # laying off the last card is going out without a discard
            if self._may_lay_off(seat) and not (len(hand) == 1
                                                and self._discard_rule() == "required"):
                faces = _distinct(hand)
                for meld in st.table:
                    if self.rules.lay_off.onto == "own" and meld.owner != seat:
                        continue
                    options.extend(LayOff(seat, meld.id, (card,)) for card in faces
                                   if self._extends(meld, card))
            if self._may_swap(seat):
                for meld in st.table:
                    if not any(wild.is_joker for wild, _ in meld.wild_cards()):
                        continue
                    options.extend(SwapJoker(seat, meld.id, card) for card in hand
                                   if self._swap_ok(seat, meld, card))
        if not self.rules.going_out.melding_during_play and not st.in_final_turns:
            out = going_out(hand, self.rules, rn)
            if out is not None:
                arrangement, discard = out
                options.append(
                    GoOut(seat, tuple(MeldSpec(m.cards, _declared(m)) for m in arrangement.melds),
                          discard)
                )
        if self._discard_blocked(seat) is None:
            discards = self._discards
            barred = self._rediscard_barred(seat)
            for card in _distinct(hand):
                if card.uid != barred:
                    action = discards.get((seat, card.uid))
                    if action is None:
                        action = discards[seat, card.uid] = Discard(seat, card)
                    options.append(action)
        return options

    def _discard_rule(self) -> str:
        return self.rules.going_out_discard(self.rules_round)

    def _discard_refusal(self, seat: int, card: Card) -> IllegalAction | None:
        """Why `card` may not be discarded now, or None."""
        blocked = self._discard_blocked(seat)
        if blocked is None and card.uid == self._rediscard_barred(seat):
            return IllegalAction(f"you may not discard {card}: you just took it from the "
                                 "discard pile", "draw.no_immediate_rediscard")
        return blocked

    def _discard_blocked(self, seat: int) -> IllegalAction | None:
        """Why no card at all may be discarded now, or None."""
        st = self.round
        if st.must_meld is not None:
            return IllegalAction(f"{st.must_meld} was taken from deep in the pile and must be "
                                 "melded this turn", "draw.deep_must_meld")
        if st.freed_jokers:
            return IllegalAction("the joker you took by a swap must be played this turn",
                                 "joker_swap: play the joker this turn")
        if len(st.hands[seat]) == 1 and (self._discard_rule() == "forbidden"
                                         or self.round_rules.all_at_once):
            return IllegalAction("you may not go out by discarding in this round",
                                 "going_out.discard: forbidden")
        return None

    def _rediscard_barred(self, seat: int) -> int | None:
        """The uid of the card `seat` may not discard now: the one it just took from the
        pile (unless it is the last card in hand), where the ruleset says so."""
        st = self.round
        if (self.rules.draw.no_immediate_rediscard and len(st.taken) == 1
                and len(st.hands[seat]) > 1):
            return st.taken[0].uid
        return None

    def _may_lay_off(self, seat: int) -> bool:
        st = self.round
        when = self.rules.lay_off.when
        down = st.contract_turn[seat]
        if when == "never" or down is None:
            return False
        if when == "after_contract_turn" and down == st.turn_count:
            return False
        return True

    def _may_swap(self, seat: int) -> bool:
        swap = self.rules.joker_swap
        down = self.round.contract_turn[seat]
        if not swap.enabled or down is None:
            return False
        return not (swap.contract_on_earlier_turn and down == self.round.turn_count)

    def _swap_ok(self, seat: int, meld: Meld, card: Card) -> bool:
        if self.rules.joker_swap.runs_only and meld.kind != "run":
            return False
        if not any(wild.is_joker and _same_card(face, card) for wild, face in meld.wild_cards()):
            return False
        try:
            new_meld, joker = swap_joker(meld, card, self.rules, self.rules_round)
        except MeldError:
            return False
        if not self.rules.joker_swap.play_same_turn:
            return True
        # The freed joker must be playable this turn, or the swap would strand the player.
        table = [new_meld if m.id == meld.id else m for m in self.round.table]
        return any(self._extends(m, joker) for m in table
                   if self.rules.lay_off.onto == "any" or m.owner == seat)

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
            if meld.kind == "set":
                limit = self.rules.melds.set.max
                if card.rank != meld.rank or (limit is not None and len(meld.cards) >= limit):
                    return False
                if self.rules.melds.set.distinct_suits and any(
                        face[1] == card.suit for face in meld.stands_for):
                    return False
            else:
                if card.suit != meld.suit:
                    return False
                ends = {meld.low - 1, meld.high + 1}
                if not self.rules.wrap and not ends & set(self.rules.run_positions(card.rank)):
                    return False
        try:
            extend_meld(meld, [card], self.rules, self.rules_round)
        except MeldError:
            return False
        return True

    def _contract_allowed(self, seat: int, melds: Sequence[Meld]) -> bool:
        return contract_melds_ok(melds, self.rules, self.rules_round) is None

    def _could_meld(self, card: Card, pool: Sequence[Card], table: bool = True,
                    sets: bool = True, runs: bool = True) -> bool:
        """A quick necessary test: is there any set or run `card` could belong to, from
        `pool` and the table?  (Saves a full contract search for hopeless deep draws.)"""
        wild = self._wild
        if card.rank in wild:
            return True
        wilds = sum(1 for c in pool if c.rank in wild and c.uid != card.uid)
        same_rank = {c.suit for c in pool if c.rank == card.rank}
        rank_count = len(same_rank) if self.rules.melds.set.distinct_suits else sum(
            1 for c in pool if c.rank == card.rank)
        if sets and rank_count + wilds >= self.rules.melds.set.min:
            return True
        if not runs:
            return table and any(self._extends(m, card) for m in self.round.table)
        if self.rules.wrap:
            return True
        suited = {p for c in pool if c.suit == card.suit and c.rank != JOKER_RANK
                  for p in self.rules.run_positions(c.rank)}
        need = self.rules.melds.run.min
        for pos in self.rules.run_positions(card.rank):
            for start in range(pos - need + 1, pos + 1):
                window = range(start, start + need)
                if sum(1 for p in window if p not in suited) <= wilds:
                    return True
        return table and any(self._extends(m, card) for m in self.round.table)

    def _deep_take_meldable(self, seat: int, depth: int) -> bool:
        """A deep draw is only offered when the card can be melded this very turn."""
        st = self.round
        card = st.discard[-1 - depth]
        if self.contract_down(seat):  # no new melds: only laying off can use the card
            return self._may_lay_off(seat) and any(
                self._extends(m, card) for m in st.table
                if self.rules.lay_off.onto == "any" or m.owner == seat)
        hand = st.hands[seat] + st.discard[-1 - depth:]
        if not self._could_meld(card, hand):
            return False
        whole = self.round_rules.all_at_once
        if whole and not self._could_meld_all(hand):
            return False
        lay = find_contract(hand, self.rules, self.rules_round, whole_hand=whole,
                            must_include=card, first_found=True)
        return lay is not None

    def _could_meld_all(self, hand: Sequence[Card]) -> bool:
        """Quick necessary tests for all-at-once rounds: the contract's melds can hold that
        many cards, of that many suits or ranks, and every card fits a meld of its kinds."""
        contract = self.round_rules.contract
        melds = self.rules.melds
        run_max = min(melds.run.max or MAX_RUN, MAX_RUN)
        if len(hand) > contract.sets * (melds.set.max or len(hand)) + contract.runs * run_max:
            return False
        naturals = [c for c in hand if c.rank not in self._wild]
        if not contract.sets and self.rules.contract.runs_same_suit == "forbidden" and len(
                {c.suit for c in naturals}) > contract.runs:
            return False
        if not contract.runs and not self.rules.contract.sets_same_rank and len(
                {c.rank for c in naturals}) > contract.sets:
            return False
        return all(self._could_meld(c, hand, table=False, sets=contract.sets > 0,
                                    runs=contract.runs > 0) for c in _distinct(naturals))

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> None:
        """Carry out `action`, or raise `IllegalAction` and change nothing."""
        st = self.round
        if st.phase == "game_over":
            raise IllegalAction("the game is over", "end")
        if st.phase == "round_over":
            raise IllegalAction("the round is over; the next deal has not started", "rounds")
        if action.seat != self.actor:
            who = self.names[self.actor] if self.actor >= 0 else "nobody"
            raise IllegalAction(f"it is not your turn: {who} is to play", "turn order")
        handler = self._handlers.get(action.kind)
        if handler is None:
            raise IllegalAction(f"unknown action {action.kind!r}", "actions")
        if st.phase == "buy" and action.kind not in ("buy", "pass_buy"):
            raise IllegalAction("answer the buy offer first: buy or pass", "buying")
        if st.phase == "draw" and action.kind not in ("draw_stock", "take_discard"):
            raise IllegalAction("draw first: from the stock or the discard pile", "turn: draw")
        if st.phase == "play" and action.kind in ("draw_stock", "take_discard"):
            raise IllegalAction("you have already drawn this turn", "turn: one draw")
        if st.phase != "buy" and action.kind in ("buy", "pass_buy"):
            raise IllegalAction("no discard is being offered for buying now", "buying")
        handler(self, action)
        self._legal_cache.clear()
        self.history.append(action)

    # -- draw

    def _do_draw_stock(self, action: DrawStock) -> None:
        st = self.round
        seat = action.seat
        if not st.stock:
            raise IllegalAction("the stock is empty", "stock")
        card = st.stock.pop()
        st.hands[seat].append(card)
        self._say(seat, f"{self.names[seat]} drew from the stock.", "draw")
        self._open_buying(seat)

    def _open_buying(self, seat: int) -> None:
        st = self.round
        buying = self.rules.buying
        if not buying.enabled or not st.discard or st.in_final_turns:
            st.phase = "play"
            return
        limit = buying.limit_per_deal
        queue = [
            (seat + i) % self.players
            for i in range(1, self.players)
            if limit is None or st.buys[(seat + i) % self.players] < limit
        ]
        if not queue:
            st.phase = "play"
            return
        st.buy_offer = st.discard[-1]
        st.buy_queue = queue
        st.in_turn = seat
        st.phase = "buy"
        st.turn = queue[0]

    def _do_take_discard(self, action: TakeDiscard) -> None:
        st = self.round
        seat = action.seat
        mode = self.rules.draw.discard
        if mode == "none":
            raise IllegalAction("this game never lets you take from the discard pile",
                                "draw.discard: none")
        if not st.discard:
            raise IllegalAction("the discard pile is empty", "draw")
        depth = action.depth
        if depth < 0 or depth >= len(st.discard):
            raise IllegalAction(f"the discard pile has {len(st.discard)} cards", "draw")
        if depth > 0:
            if mode != "deep":
                raise IllegalAction("you may only take the top card of the discard pile",
                                    "draw.discard: top")
            if st.in_final_turns:
                raise IllegalAction("a final turn takes only the top discard", "final turns")
            if not self._deep_take_meldable(seat, depth):
                card = st.discard[-1 - depth]
                raise IllegalAction(
                    f"you may take {card} from deep in the pile only if you meld it this "
                    "turn, and you cannot", "draw.deep_must_meld")
        taken = st.discard[len(st.discard) - 1 - depth:]
        del st.discard[len(st.discard) - 1 - depth:]
        st.hands[seat].extend(taken)
        st.taken = list(taken)
        if depth > 0 and self.rules.draw.deep_must_meld:
            st.must_meld = taken[0]
        st.phase = "play"
        if depth == 0:
            self._say(seat, f"{self.names[seat]} took {taken[0]} from the discard pile.", "take",
                      taken)
        else:
            self._say(seat, f"{self.names[seat]} took {taken[0]} from deep in the discard pile, "
                      f"with {format_cards(taken[1:])} above it.", "take", taken)

    # -- buying

    def _do_buy(self, action: Buy) -> None:
        st = self.round
        seat = action.seat
        card = st.discard.pop()
        penalty: list[Card] = []
        for _ in range(self.rules.buying.penalty_cards):
            if not st.stock and not self._rebuild_stock():
                break
            penalty.append(st.stock.pop())
        st.hands[seat].append(card)
        st.hands[seat].extend(penalty)
        st.buys[seat] += 1
        self._say(seat, f"{self.names[seat]} bought {card} (+{len(penalty)} penalty "
                  f"card{'s' if len(penalty) != 1 else ''}).", "buy", (card,))
        self._close_buying()

    def _do_pass_buy(self, action: PassBuy) -> None:
        st = self.round
        st.buy_queue.pop(0)
        if st.buy_queue:
            st.turn = st.buy_queue[0]
        else:
            self._close_buying()

    def _close_buying(self) -> None:
        st = self.round
        st.buy_offer = None
        st.buy_queue = []
        st.phase = "play"
        st.turn = st.in_turn

    # -- melding

    def _build_melds(self, seat: int, specs: Sequence[MeldSpec]) -> list[Meld]:
        hand = self.round.hands[seat]
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
                melds.append(make_meld(spec.cards, self.rules, self.rules_round,
                                       dict(spec.declare) or None))
            except MeldError as exc:
                raise IllegalAction(str(exc), exc.rule) from exc
        return melds

    def _put_on_table(self, seat: int, melds: Sequence[Meld]) -> list[Meld]:
        st = self.round
        placed = []
        for meld in melds:
            placed_meld = meld.with_identity(seat, st.next_meld_id)
            st.next_meld_id += 1
            st.table.append(placed_meld)
            placed.append(placed_meld)
            self._remove_from_hand(seat, meld.cards)
        return placed

    def _remove_from_hand(self, seat: int, cards: Sequence[Card]) -> None:
        gone = {c.uid for c in cards}
        st = self.round
        st.hands[seat] = [c for c in st.hands[seat] if c.uid not in gone]
        if st.must_meld is not None and st.must_meld.uid in gone:
            st.must_meld = None
        st.freed_jokers = [j for j in st.freed_jokers if j.uid not in gone]

    def _do_lay_down(self, action: LayDown) -> None:
        st = self.round
        seat = action.seat
        rnd = self.round_rules
        if not self.rules.going_out.melding_during_play:
            raise IllegalAction("nothing is laid on the table during play in this game; "
                                "meld your whole hand when you go out",
                                "going_out.melding_during_play")
        if st.in_final_turns:
            raise IllegalAction("a final turn is draw and discard only", "final turns")
        if rnd.contract.required and self.contract_down(seat):
            raise IllegalAction("your contract is down: no new melds, only laying off",
                                "contract: one lay-down")
        if not action.melds:
            raise IllegalAction("lay down at least one meld", "melds")
        melds = self._build_melds(seat, action.melds)
        if rnd.contract.required:
            reason = contract_melds_ok(melds, self.rules, self.rules_round)
            if reason:
                raise IllegalAction(reason, f"contract: {rnd.contract.describe()}")
        laid = sum(len(m.cards) for m in melds)
        remaining = len(st.hands[seat]) - laid
        if rnd.all_at_once and remaining:
            raise IllegalAction("in this deal the contract must be laid down with the whole "
                                "hand at once, leaving no card", "round: all at once")
        self._check_leaves_discard(remaining)
        placed = self._put_on_table(seat, melds)
        if st.contract_turn[seat] is None:
            st.contract_turn[seat] = st.turn_count
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
        st = self.round
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
            new = extend_meld(meld, action.cards, self.rules, self.rules_round, action.end)
        except MeldError as exc:
            raise IllegalAction(str(exc), exc.rule) from exc
        self._check_leaves_discard(len(st.hands[seat]) - len(action.cards))
        st.table[st.table.index(meld)] = new
        self._remove_from_hand(seat, action.cards)
        owner = "their own" if meld.owner == seat else f"{self.names[meld.owner]}'s"
        self._say(seat, f"{self.names[seat]} laid off {format_cards(action.cards)} on "
                  f"{owner} {meld.kind} {meld.describe()}.", "lay_off", action.cards)
        self._after_play(seat)

    def _do_swap_joker(self, action: SwapJoker) -> None:
        st = self.round
        seat = action.seat
        swap = self.rules.joker_swap
        if not swap.enabled:
            raise IllegalAction("jokers cannot be swapped in this game", "joker_swap")
        if not self.contract_down(seat):
            raise IllegalAction("you may swap a joker only after your contract is down",
                                "joker_swap: after contract")
        if not self._may_swap(seat):
            raise IllegalAction("you may swap a joker only on a turn after the one your "
                                "contract went down", "joker_swap: earlier turn")
        meld = self._meld(action.meld_id)
        if swap.runs_only and meld.kind != "run":
            raise IllegalAction("jokers in sets are dead: only a joker in a run can be swapped",
                                "joker_swap: runs only")
        if action.card is None:
            raise IllegalAction("choose the natural card to swap in", "joker_swap")
        self._check_in_hand(seat, [action.card])
        if not self._swap_ok(seat, meld, action.card):
            try:
                swap_joker(meld, action.card, self.rules, self.rules_round)
            except MeldError as exc:
                raise IllegalAction(str(exc), exc.rule) from exc
            raise IllegalAction("the freed joker could not be played this turn",
                                "joker_swap: play the joker this turn")
        new, joker = swap_joker(meld, action.card, self.rules, self.rules_round)
        st.table[st.table.index(meld)] = new
        self._remove_from_hand(seat, [action.card])
        st.hands[seat].append(joker)
        if swap.play_same_turn:
            st.freed_jokers.append(joker)
        self._say(seat, f"{self.names[seat]} put {action.card} in {meld.describe()} and took "
                  "the joker.", "swap", (action.card, joker))

    def _meld(self, meld_id: int) -> Meld:
        for meld in self.round.table:
            if meld.id == meld_id:
                return meld
        raise IllegalAction(f"there is no meld #{meld_id} on the table", "lay_off")

    def _check_in_hand(self, seat: int, cards: Sequence[Card]) -> None:
        uids = {c.uid for c in self.round.hands[seat]}
        seen: set[int] = set()
        for card in cards:
            if card.uid not in uids or card.uid in seen:
                raise IllegalAction(f"{card} is not in your hand", "cards")
            seen.add(card.uid)

    def _after_play(self, seat: int) -> None:
        """Playing the last card ends the deal at once."""
        if not self.round.hands[seat]:
            self._goes_out(seat)

    # -- discarding and going out

    def _do_discard(self, action: Discard) -> None:
        st = self.round
        seat = action.seat
        card = action.card
        if card is None:
            raise IllegalAction("choose a card to discard", "discard")
        self._check_in_hand(seat, [card])
        refusal = self._discard_refusal(seat, card)
        if refusal is not None and self._play_options(seat):
            raise refusal
        self._remove_from_hand(seat, [card])
        st.discard.append(card)
        self._say(seat, f"{self.names[seat]} discarded {card}.", "discard", (card,))
        if not st.hands[seat]:
            self._goes_out(seat)
        else:
            self._end_turn()

    def _do_go_out(self, action: GoOut) -> None:
        st = self.round
        seat = action.seat
        if self.rules.going_out.melding_during_play:
            raise IllegalAction("go out by playing your last card: meld, lay off or discard",
                                "going_out")
        if st.in_final_turns:
            raise IllegalAction("someone has gone out: this is your final turn, draw and "
                                "discard", "final turns")
        melds = self._build_melds(seat, action.melds)
        rule = self._discard_rule()
        melded = sum(len(m.cards) for m in melds)
        hand = st.hands[seat]
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
            raise IllegalAction(f"to go out every card must be melded (all but the discard); "
                                f"{left} card{'s are' if left != 1 else ' is'} left over",
                                "going out")
        placed = self._put_on_table(seat, melds)
        shown = "; ".join(m.describe() for m in placed)
        self._say(seat, f"{self.names[seat]} went out: {shown}.", "go_out",
                  [c for m in placed for c in m.cards])
        if action.discard is not None:
            self._remove_from_hand(seat, [action.discard])
            st.discard.append(action.discard)
            self._say(seat, f"{self.names[seat]} discarded {action.discard}.", "discard",
                      (action.discard,))
        self._goes_out(seat)

    def _goes_out(self, seat: int) -> None:
        st = self.round
        st.went_out = seat
        if not st.in_final_turns:
            if self.rules.going_out.final_turns and self.players > 1:
                self._say(seat, f"{self.names[seat]} is out! Everyone else has one more turn.",
                          "out")
                st.in_final_turns = True
                st.final_pending = [(seat + i) % self.players for i in range(1, self.players)]
                self._start_turn(st.final_pending[0])
                return
            self._say(seat, f"{self.names[seat]} is out!", "out")
        self._end_round()

    def _end_turn(self) -> None:
        st = self.round
        if st.in_final_turns:
            st.final_pending.pop(0)
            if not st.final_pending:
                self._end_round()
                return
            self._start_turn(st.final_pending[0])
            return
        self._start_turn((st.turn + 1) % self.players)

    def _start_turn(self, seat: int) -> None:
        st = self.round
        st.turn = seat
        st.in_turn = seat
        st.turn_count += 1
        st.taken = []
        st.must_meld = None
        st.freed_jokers = []
        st.phase = "draw"
        if not st.stock and not self._rebuild_stock():
            self._say(-1, "The stock is exhausted: the round ends as it stands.", "stock")
            self._end_round()

    def _rebuild_stock(self) -> bool:
        st = self.round
        stock_rules = self.rules.stock
        if stock_rules.when_empty != "reshuffle" or st.rebuilds >= stock_rules.max_rebuilds:
            return False
        if len(st.discard) < 2:
            return False
        top = st.discard.pop()
        st.stock = st.discard
        self.rng.shuffle(st.stock)
        st.discard = [top]
        st.rebuilds += 1
        self._say(-1, "The discards were shuffled into a new stock.", "stock")
        return True

    # ------------------------------------------------------------------ scoring

    def _end_round(self) -> None:
        st = self.round
        rn = self.rules_round
        points: list[int] = []
        melds: list[tuple[tuple[Card, ...], ...]] = []
        deadwood: list[tuple[Card, ...]] = []
        for seat in range(self.players):
            hand = st.hands[seat]
            if seat == st.went_out:
                table_melds = tuple(m.cards for m in st.table if m.owner == seat)
                melds.append(table_melds if not self.rules.going_out.melding_during_play else ())
                deadwood.append(())
                points.append(self.rules.going_out.bonus)
                continue
            if self.rules.scoring.score_best_arrangement:
                best = best_arrangement(hand, self.rules, rn)
                melds.append(tuple(m.cards for m in best.melds))
                deadwood.append(tuple(best.deadwood))
                points.append(best.penalty)
            else:
                melds.append(())
                deadwood.append(tuple(hand))
                points.append(sum(card_penalty(c, self.rules, rn) for c in hand))
        for seat, p in enumerate(points):
            self.totals[seat] += p
        self.scores.append(tuple(points))
        self.results.append(RoundResult(st.number, tuple(points), st.went_out, tuple(melds),
                                        tuple(deadwood)))
        summary = ", ".join(f"{self.names[s]} {p}" for s, p in enumerate(points))
        self._say(-1, f"Deal {st.number} scored: {summary}.", "score")
        st.phase = "round_over"
        limit = self.rules.end.point_limit
        if self.last_round() or (limit is not None and max(self.totals) >= limit):
            self._end_game()

    def _end_game(self) -> None:
        pick = min if self.rules.end.winner == "lowest" else max
        best = pick(self.totals)
        self.winners = tuple(s for s, t in enumerate(self.totals) if t == best)
        self.round.phase = "game_over"
        names = " and ".join(self.names[s] for s in self.winners)
        self._say(-1, f"Game over: {names} win{'s' if len(self.winners) == 1 else ''} "
                  f"with {best}.", "game_over")

    def next_round(self) -> None:
        """Deal the next round once the previous one has been scored."""
        if self.round.phase != "round_over":
            raise IllegalAction("the round is still being played", "rounds")
        self.dealer = (self.dealer + 1) % self.players
        self._deal(self.round.number + 1)
        self._legal_cache.clear()

    # ------------------------------------------------------------------ views and checks

    def view(self, seat: int) -> SeatView:
        """What `seat` may see (-1: a spectator, who sees no hand)."""
        st = self.round
        rn = self.rules_round
        contract = self.round_rules.contract.required
        names, totals, hands, dealer = self.names, self.totals, st.hands, self.dealer
        players = tuple([
            PlayerInfo(s, names[s], len(hands[s]), totals[s],
                       contract and self.contract_down(s), st.went_out == s,
                       st.buys[s], s == dealer)
            for s in range(len(names))
        ])
        if self.rules.draw.discard == "deep":
            visible = tuple(st.discard)
        else:
            visible = (st.discard[-1],) if st.discard else ()
        own = 0 <= seat < self.players
        return SeatView.of(
            seat=seat,
            rules=self.rules,
            deal=st.number,
            schedule_round=rn,
            round=self.rules.rounds[rn - 1],
            phase=st.phase,
            turn=st.turn,
            dealer=dealer,
            players=players,
            hand=tuple(hands[seat]) if own else (),
            stock_count=len(st.stock),
            discard=visible,
            discard_count=len(st.discard),
            table=tuple(st.table),
            scores=tuple(self.scores),
            results=tuple(self.results),
            log=LogSoFar(self.log),
            legal=self._legal(seat) if own else (),
            final_turns=st.in_final_turns,
            taken_from_discard=tuple(st.taken) if own and seat == st.turn else (),
            buy_offer=st.buy_offer,
            winners=self.winners,
        )

    def card_places(self) -> dict[int, str]:
        """Where every physical card is, by uid; raises if a card is in two places."""
        st = self.round
        places: dict[int, str] = {}

        def put(cards: Sequence[Card], where: str) -> None:
            for card in cards:
                if card.uid in places:
                    raise AssertionError(f"{card} (#{card.uid}) is in {places[card.uid]} "
                                         f"and in {where}")
                places[card.uid] = where

        put(st.stock, "stock")
        put(st.discard, "discard pile")
        for seat, hand in enumerate(st.hands):
            put(hand, f"hand {seat}")
        for meld in st.table:
            put(meld.cards, f"meld {meld.id}")
        return places

    def check_conservation(self) -> None:
        """Every physical card is in exactly one place, and none is missing or invented."""
        places = self.card_places()
        expected = {c.uid for c in self.shoe}
        if set(places) != expected:
            missing = expected - set(places)
            extra = set(places) - expected
            raise AssertionError(f"cards missing {sorted(missing)}, extra {sorted(extra)}")


Game._handlers = {name[len("_do_"):]: method for name, method in vars(Game).items()
                  if name.startswith("_do_")}


def _declared(meld: Meld) -> tuple[tuple[int, tuple[int, str]], ...]:
    return tuple((card.uid, face) for card, face in meld.wild_cards())


def _same_card(face: tuple[int, str], card: Card) -> bool:
    """Whether a wild's declared face (run positions 1…14) is this natural card."""
    rank = 1 if face[0] == 14 else face[0]
    return rank == card.rank and face[1] in ("", card.suit)


def _distinct(hand: Sequence[Card]) -> list[Card]:
    """One physical card per face (two identical 7H are the same choice)."""
    first: dict[tuple[int, str], Card] = {}
    for card in hand:
        first.setdefault((card.rank, card.suit), card)
    return list(first.values())
