"""One game of rummy, played by the rules of a `Ruleset`: the schedule of deals, dealing,
the running totals and the end of the game.

The game is the single authority over where every card is.  Players (people through a front
end, or bots) only ever see a `SeatView` and hand back `Action`s; `apply` hands each to the
deal in progress (`deal.Deal`, where the rules of a turn live), which refuses an illegal one
with a reason and leaves the state untouched, or carries it out.  Given the same ruleset,
players, seed and actions, a game always unfolds the same way, so a saved game is just those.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import Action, IllegalAction
from .cards import HIGH_ACE, JOKER_RANK, Card, build_shoe
from .deal import Deal
from .rules import Round, Ruleset
from .scoring import score_deal, winners
from .view import Event, LogSoFar, Phase, PlayerInfo, RoundResult, SeatView

# Moves (actions) one game may take before its deal in progress ends as it stands and the
# game with it: a bot game of the bundled rules stays far below (a few thousand).  Every
# accepted ruleset plays; this bound is what makes every game of it end, whatever bots or
# rules of the stock keep a deal going.
MAX_GAME_MOVES = 200_000


class Game:
    """A whole game: rounds in the ruleset's schedule, scores, winners."""

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
        self.out_of_moves = False  # MAX_GAME_MOVES reached: the deal in progress is the last
        # `progression: per_player`: how many phases (rounds) each seat has made so far
        self.phases_made = [0] * players
        self._deal_number = 0
        self.dealer = self._choose_dealer()
        self.round: Deal = self._deal(1)

    # ------------------------------------------------------------------ set-up

    @property
    def players(self) -> int:
        return len(self.names)

    def _say(self, seat: int, text: str, kind: str = "", cards: Sequence[Card] = ()) -> None:
        self.log.append(Event(seat, text, kind, self._deal_number, tuple(cards)))

    def _deal(self, number: int) -> Deal:
        """Shuffle the shoe and deal deal `number` round the table from the dealer's left."""
        rnd = self.rules.round(self.rules.schedule_round(number))
        stock = list(self.shoe)
        self.rng.shuffle(stock)
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        first = (self.dealer + 1) % self.players
        for _ in range(rnd.cards_for(self.players)):
            for i in range(self.players):
                hands[(first + i) % self.players].append(stock.pop())
        discard = [stock.pop()]
        return self._start_deal(number, hands, stock, discard, first)

    def phase_of(self, seat: int) -> int:
        """The phase `seat` is on (`progression: per_player`): the round of the schedule
        whose contract it must lay down next, from 1."""
        return min(self.phases_made[seat] + 1, len(self.rules.rounds))

    def _start_deal(self, number: int, hands: list[list[Card]], stock: list[Card],
                    discard: list[Card], first: int) -> Deal:
        seat_rounds = tuple(self.phase_of(s) for s in range(self.players)) \
            if self.rules.per_player else ()
        deal = Deal(self.rules, self.names, self.rng, self.log, number, hands, stock, discard,
                    first, self._deal_over, seat_rounds)
        self._deal_number = number
        self.round = deal
        self._say(
            self.dealer,
            f"Deal {number}: {self.names[self.dealer]} deals "
            f"{deal.round_rules.cards_for(self.players)} cards each; {discard[-1]} turned up."
            if discard else
            f"Deal {number}: {self.names[self.dealer]} deals.",
            "deal",
            discard[-1:],
        )
        self._end_if_stuck()
        return deal

    def stack_deal(self, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
                   discard: Sequence[Card] = (), turn: int | None = None,
                   number: int | None = None) -> Deal:
        """Replace the deal in progress by one with these cards where they are given (for
        tests, puzzles and lessons): `stock` and `discard` bottom to top, `turn` the seat to
        play first (the dealer's left by default), `number` the deal it is (default: the
        one in progress; a later one skips those between, unscored, as a lesson starting at
        a deal with a run in its contract does).  Every card of the shoe must be placed
        exactly once, or `ValueError` says which are missing or doubled."""
        if self.round.phase == "game_over":
            raise ValueError("the game is over")
        number = self.round.number if number is None else number
        if not self.round.number <= number <= max(len(self.rules.rounds), self.round.number):
            raise ValueError(f"deal {number} is not one this game can play next "
                             f"(it is at deal {self.round.number} of {len(self.rules.rounds)})")
        if len(hands) != self.players:
            raise ValueError(f"{len(hands)} hands for {self.players} players")
        placed = [c.uid for cards in (*hands, stock, discard) for c in cards]
        expected = sorted(c.uid for c in self.shoe)
        if sorted(placed) != expected:
            missing = set(expected) - set(placed)
            doubled = {u for u in placed if placed.count(u) > 1}
            raise ValueError(f"a stacked deal must place every card of the shoe once: "
                             f"missing {sorted(missing)}, doubled {sorted(doubled)}, "
                             f"unknown {sorted(set(placed) - set(expected))}")
        first = (self.dealer + 1) % self.players if turn is None else turn
        if not 0 <= first < self.players:
            raise ValueError(f"there is no seat {first}")
        # The deal replaced never happened: its lines leave the log (in place: the deal
        # in play writes to the same list).
        replaced = self._deal_number
        self.log[:] = [event for event in self.log if event.deal != replaced]
        return self._start_deal(number, [list(h) for h in hands], list(stock),
                                list(discard), first)

    # ------------------------------------------------------------------ queries

    @property
    def round_rules(self) -> Round:
        return self.round.round_rules

    @property
    def rules_round(self) -> int:
        """The round number in the ruleset's schedule (wilds, contract) for the deal."""
        return self.round.rules_round

    @property
    def phase(self) -> Phase:
        return self.round.phase

    @property
    def actor(self) -> int:
        """The seat that must act now (-1 between rounds and after the game)."""
        return self.round.actor

    def contract_down(self, seat: int) -> bool:
        return self.round.contract_down(seat)

    def last_round(self) -> bool:
        if self.rules.end.point_limit is None and not self.rules.per_player:
            return self.round.number >= len(self.rules.rounds)
        return self.round.number >= self.rules.end.max_rounds

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (one representative per distinct choice)."""
        return list(self.round.legal(seat))

    # ------------------------------------------------------------------ play

    def apply(self, action: Action) -> None:
        """Carry out `action`, or raise `IllegalAction` and change nothing."""
        self.round.apply(action)
        self.history.append(action)
        if self.round.actor < 0:
            return
        if len(self.history) >= MAX_GAME_MOVES:
            self.out_of_moves = True
            self.round.end_as_it_stands(f"{MAX_GAME_MOVES:,} moves have been played in this "
                                        "game, the most one game may take")
        else:
            self._end_if_stuck()

    def _end_if_stuck(self) -> None:
        """Where the player who must act has no legal move (rules that meet in a corner no
        check foresaw), the deal ends as it stands rather than waiting for ever."""
        seat = self.round.actor
        if seat >= 0 and not self.round.has_a_move(seat):
            self.round.end_as_it_stands(f"{self.names[seat]} has no legal move")

    def _deal_over(self) -> None:
        """Score the deal just ended, and end the game after its last deal."""
        st = self.round
        result = score_deal(st)
        for seat, p in enumerate(result.points):
            self.totals[seat] += p
        self.scores.append(result.points)
        self.results.append(result)
        summary = ", ".join(f"{self.names[s]} {p}" for s, p in enumerate(result.points))
        self._say(-1, f"Deal {st.number} scored: {summary}.", "score")
        st.phase = "round_over"
        last_made = self._phases_made(result) if self.rules.per_player else False
        limit = self.rules.end.point_limit
        if self.last_round() or self.out_of_moves or last_made or (
                limit is not None and max(self.totals) >= limit):
            self._end_game()

    def _phases_made(self, result: RoundResult) -> bool:
        """`progression: per_player`: every seat that laid its phase down this deal moves
        on to the next; whether one has now made the last phase (the game's end)."""
        last = len(self.rules.rounds)
        for seat, made_it in enumerate(result.made):
            if not made_it:
                continue
            self.phases_made[seat] += 1
            made = self.phases_made[seat]
            self._say(seat, f"{self.names[seat]} made phase {made}"
                      + (", the last." if made == last else f"; on to phase {made + 1}."),
                      "phase")
        return last in self.phases_made

    def _end_game(self) -> None:
        phases = self.phases_made if self.rules.per_player else ()
        self.winners = winners(self.totals, self.rules, self.results, phases)
        best = self.totals[self.winners[0]]
        self.round.phase = "game_over"
        names = " and ".join(self.names[s] for s in self.winners)
        made = f" having made {phases[self.winners[0]]} phases," if phases else ""
        self._say(-1, f"Game over: {names} win{'s' if len(self.winners) == 1 else ''}"
                  f"{made} with {best}.", "game_over")

    def next_round(self) -> None:
        """Deal the next round once the previous one has been scored."""
        if self.round.phase != "round_over":
            raise IllegalAction("the round is still being played", "rounds")
        self.dealer = (self.dealer + 1) % self.players
        self._deal(self.round.number + 1)

    # ------------------------------------------------------------------ views and checks

    def view(self, seat: int) -> SeatView:
        """What `seat` may see (-1: a spectator, who sees no hand)."""
        st = self.round
        rn = st.round_of(seat)  # the seat's own phase under `progression: per_player`
        names, totals, hands, dealer = self.names, self.totals, st.hands, self.dealer
        per_player = self.rules.per_player
        players = tuple([
            PlayerInfo(s, names[s], len(hands[s]), totals[s],
                       st.contract_of(s).required and self.contract_down(s), st.went_out == s,
                       st.buys[s], s == dealer, self.phase_of(s) if per_player else 0)
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
            legal=st.legal(seat) if own else (),
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

    def _choose_dealer(self) -> int:
        if self.rules.dealer == "random":
            dealer = self.rng.randrange(self.players)
            self._say(dealer, f"{self.names[dealer]} deals first (chosen at random).", "dealer")
            return dealer
        # Each player draws a card; the lowest (or highest) deals; ties draw again.
        contenders = list(range(self.players))
        pick, word = (min, "lowest") if self.rules.dealer == "lowest_card" else (max, "highest")
        while True:
            pack = [c for c in self.shoe if c.rank != JOKER_RANK]
            self.rng.shuffle(pack)
            draws = {seat: pack[i] for i, seat in enumerate(contenders)}
            best = pick(self._cut_rank(card) for card in draws.values())
            tied = [s for s in contenders if self._cut_rank(draws[s]) == best]
            shown = ", ".join(f"{self.names[s]} {draws[s]}" for s in contenders)
            self._say(-1, f"Cutting for the deal: {shown}.", "dealer")
            if len(tied) == 1:
                dealer = tied[0]
                self._say(dealer, f"{self.names[dealer]} cut {word} and deals first.", "dealer")
                return dealer
            contenders = tied

    def _cut_rank(self, card: Card) -> int:
        """A card's rank when cutting for the deal (`dealer_ace`: the ace low or high)."""
        how = self.rules.dealer_ace
        high = self.rules.ace == "high" if how == "ranks" else how == "high"
        return HIGH_ACE if card.rank == 1 and high else card.rank
