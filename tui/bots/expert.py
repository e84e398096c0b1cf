"""`expert`: a judgement without search, checked by playing the options out in imagined deals.

For each decision with a real choice (which card to discard; the top discard or the
stock), `expert` first asks its judgement what it would do: that is the *policy move*.
The judgement is `judgement.Judgement` in declare games (`hard` with the race to go out
in mind) and `contract_expert.ContractExpert` in contract games.  In declare games it
reads the next player's hand from the opponent model (hands developed by play for the
draws that player has had, weighed by the public log), not from blind deals: its charge
for feeding that player a card, and the chance that the card lets it go out, which the
race believes at `OUT_SCALE` (the developed hands go out about twice as often as the real
ones do; `tests/bench/feed_diagnostics.py`).  Then,
while its budget lasts, it imagines a deal that fits what it has seen (`opponents`: the
unseen cards dealt to the other hands in proportion to how well they fit each opponent's
play, the rest in the stock) and plays every option out in that same deal (`playout`),
to the end of the deal or a horizon, scoring each by its points less the others' mean.

* **Common random numbers**: every option meets the same imagined deals, stock order
  included, so what is compared is the difference an option makes, not the luck of the
  deal; the differences' standard error is what the decision rule reads.
* **A confidence margin**: the policy move is left only for an option whose mean
  difference beats it by more than `Z` standard errors and at least `MIN_GAIN` points,
  after at least `MIN_DEALS` deals: noise from a few playouts never overrides `hard`.
* **Anytime, under a hard cap**: the budget (CPU seconds of the thread, or a step count
  for tests; `budget`) is checked before every imagined deal and between the turns of
  every playout, so no search runs past its budget by more than one playout turn (one
  hand solved).  The judgement run first keeps to the same budget (`fits`: its pace
  learning and its race stop when the budget says so, see `judgement`).  What the clock
  also counts is the interpreter's own housekeeping: a full (generation 2) garbage
  collection that lands inside a decision costs what walking every tracked object
  costs.  In 4-player Three Thirteen every decision probed over 0.45 s (up to 0.54 s)
  held one of 0.2-0.36 s, the evaluators' caches being most of the heap; those now keep
  numbers and faces, which the collector does not walk (`evaluate`), and a full
  collection costs tens of milliseconds.
* **Early stop**: an option is dropped once it is shown worse than the policy move
  (`DROP_Z` standard errors), and also once, after `MIN_DEALS` deals, it is no better
  on average (`FUTILE_GAIN`): such an option would need many more deals to win at the
  margin and seldom does, so most searches end after `MIN_DEALS` deals, when nothing
  is left to measure against the policy move.

The imagined deals the search plays come from the opponent model's first weights only
(each hand weighed by the cards its seat took, passed over and threw), not from the
population re-weighed by each opponent's last turn that the feeding charge reads: on
hard-against-hard positions (`tests/bench/expert_diagnostics.py`, seeds 101-103, long
hands) the option values over those deals ranked the options as the true hands do
slightly better (rank correlation 0.43 against 0.38-0.42) and the margin rule over them
gained more (+0.28 ± 0.12 against -0.01 ± 0.20 points a decision at Z=1, seed 103), the
re-weighed population being a few dozen distinct hands that all lean the same way.  The
developed population the feeder now reads (hands played forward, weights flattened)
did no better here either (40-game runs, within noise of the blind-dealt deals;
docs/performance.md).

Declare games (Three Thirteen) search only discards that keep at least
`DECLARE_MIN_HAND` cards: in diagnostics on hard-against-hard positions (playouts on the
true hands as the yardstick), searching the draw, or the discards of short hands, chose
worse than `hard` did; on the discards of long hands it gained in most measurements.
With more than `DECLARE_MAX_OPPONENTS` opponents the search is not run: in 4-player
Three Thirteen it lost to `hard` (-3.1 ± 3.2 points a game over 20 mirrored deals, seed
101, and -5.7 ± 3.1 over 12, seed 1; `tests/bench/strength.py`), its playouts scoring
three hands played by medium's quick rule where the real ones play better.

Contract games are judged without a search (`contract_expert`: it knows when a deal is a
race for points rather than for going out), so a contract game costs about what it costs
`hard`.  Free-melding games use the search with a short horizon (`CONTRACT_HORIZON` turns a
seat) and a cheap playout; the plays that cannot cost anything (going out, laying down,
laying off) are made at once, as every level makes them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from tui.engine.actions import Action, TakeDiscard
from tui.engine.cards import Card
from tui.engine.view import SeatView

from .budget import Budget
from .contract_expert import ContractExpert
from .evaluate import Evaluator
from .hard import EXACT_STEPS, FEED_SAMPLES
from .judgement import Judgement
from .lookahead import Feeder
from .medium import discard_action
from .memory import Knowledge, read_knowledge
from .opponents import OpponentModel, World
from .playout import Deal
from .tactics import Decision, evaluator_for, options, play_mode, top_take

DEFAULT_BUDGET = 0.3  # CPU seconds per decision
Z = 1.0  # standard errors an option must win by
MIN_GAIN = 0.5  # ... and points
MIN_DEALS = 6  # imagined deals before the policy move may be left
DROP_Z = 1.5  # an option this many s.e. worse than the policy move is dropped
FUTILE_GAIN = 0.0  # ... and so is one whose mean gain is no more than this after MIN_DEALS
CANDIDATES = 4  # discards measured besides the policy move
NEAR = 15  # ... among those leaving at most this many points more than the best one
DECLARE_HORIZON = 14  # turns a seat, declare games (nearly always the deal's end)
CONTRACT_HORIZON = 1  # turns a seat, contract games
DECLARE_MIN_HAND = 8  # declare games: only discards that keep at least this many cards
DECLARE_MAX_OPPONENTS = 1  # ... at a table of at most this many opponents
RACE_RESERVE = 0.15  # CPU seconds the reading of the hands leaves for valuing the discards
OUT_SCALE = 0.5  # the developed hands overstate how often a card lets a player out (by ~2x)


class Imagines(Protocol):
    """A source of deals that fit what the seat has seen."""

    def imagine(self, rng: random.Random) -> World: ...


@dataclass
class Option:
    """One move being measured, with its score differences against the policy move."""

    action: Action
    label: str
    play: Callable[[Deal], None]
    diffs: list[float] = field(default_factory=list)
    alive: bool = True

    @property
    def mean(self) -> float:
        return sum(self.diffs) / len(self.diffs) if self.diffs else 0.0

    @property
    def stderr(self) -> float:
        n = len(self.diffs)
        if n < 2:
            return math.inf
        m = self.mean
        return math.sqrt(sum((d - m) ** 2 for d in self.diffs) / (n - 1) / n)


@dataclass
class SearchReport:
    """What a search found, for hints and tests."""

    deals: int = 0  # imagined deals every option was played out in
    options: list[Option] = field(default_factory=list)  # the policy move first
    chosen: Option | None = None


class ExpertBot(ContractExpert, Judgement):
    level = "expert"
    out_scale = OUT_SCALE

    def __init__(self, seed: int = 0, budget: float | None = DEFAULT_BUDGET,
                 steps: int | None = None) -> None:
        super().__init__(seed)
        self.budget = budget  # CPU seconds per decision, a cap
        self.steps = steps  # and/or playouts per decision (tests, hints: see `budget`)
        self._whole = Budget(budget, steps)
        self.last: SearchReport = SearchReport()
        self.last_knowledge: Knowledge | None = None
        self.last_worlds: list[World] = []
        self.keep_worlds = False  # tests: keep the imagined deals of the last decision
        self._model: OpponentModel | None = None  # this decision's, shared by feeder and search

    def _model_for(self, view: SeatView, know: Knowledge, ev: Evaluator) -> OpponentModel:
        if self._model is None:
            self._model = OpponentModel(view, know, ev.params.wild_ranks,
                                        ev.params.run_min - 1,
                                        ev if play_mode(view) == "declare" else None,
                                        lambda cost: self.fits(cost + RACE_RESERVE))
        return self._model

    def _feeder(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Feeder:
        """`hard`'s feeding charge, over the next player's hands as the opponent model
        imagines them (declare games) instead of blind ones."""
        if play_mode(view) != "declare":
            return super()._feeder(view, ev, know)
        model = self._model_for(view, know, ev)
        return Feeder(view, ev, know, self._seed, FEED_SAMPLES,
                      lambda rng, seat: model.imagine(rng).hands[seat])

    def fits(self, cost: float) -> bool:
        """The judgement's work (learning a deal's pace, valuing discards by the race)
        counts against the decision's budget like the search's: see `judgement`."""
        return self._whole.fits(cost)

    def _start_clock(self) -> Budget:
        # the whole budget, for the judgement (which asks `fits`) and then the search;
        # hard's own exact re-evaluations stay a fixed count
        self._whole = Budget(self.budget, self.steps).start()
        return Budget(None, EXACT_STEPS).start()

    def decide(self, view: SeatView) -> Decision:
        self.last = SearchReport()
        self._model = None
        policy = super().decide(view)
        if len(view.legal) == 1 or view.phase not in ("draw", "play"):
            return policy
        act = policy.action
        if act.kind not in ("draw_stock", "take_discard", "discard"):
            return policy  # going out, laying down, laying off: no doubt about those
        if isinstance(act, TakeDiscard) and act.depth > 0:
            return policy
        if play_mode(view) == "contract":
            return policy  # judged, not searched (see contract_expert)
        if play_mode(view) == "declare" and not self._declare_searched(view, act):
            return policy
        ev = evaluator_for(view)
        opts = self._options(view, ev, act)
        if len(opts) < 2:
            return policy
        return self._search(view, ev, opts, policy)

    def _declare_searched(self, view: SeatView, act: Action) -> bool:
        """Declare games search only the discards of long hands, and only with at most
        `DECLARE_MAX_OPPONENTS` opponents: measured, searching the others did worse than
        hard (see above).  A yardstick may search more."""
        return (act.kind == "discard" and len(view.hand) - 1 >= DECLARE_MIN_HAND
                and len(view.players) - 1 <= DECLARE_MAX_OPPONENTS)

    # ------------------------------------------------------------------ options

    def _options(self, view: SeatView, ev: Evaluator, act: Action) -> list[Option]:
        """The policy move first, then the alternatives worth measuring."""
        if view.phase == "draw":
            top = top_take(view)
            stock = next(iter(options(view, "draw_stock")), None)
            if top is None or stock is None:
                return []
            pair = [Option(top, f"take {view.top_discard}", _drawing(view.seat, True)),
                    Option(stock, "draw from the stock", _drawing(view.seat, False))]
            return pair if act.kind == "take_discard" else pair[::-1]
        allowed = list(view.discardable)
        card = getattr(act, "card", None)
        hand = list(view.hand)
        if play_mode(view) == "declare" or not ev.contract.required:
            ranked = [c for _, c in ev.discards_near(hand, allowed, NEAR)]
        else:
            ranked = sorted(allowed, key=lambda c: -ev.value(c))
        seen = {card.face} if card is not None else set()
        picks: list[Card] = []
        for c in ranked:
            if c.face not in seen and len(picks) < CANDIDATES:
                seen.add(c.face)
                picks.append(c)
        out = [Option(act, f"discard {card}", _discarding(view.seat, card))]
        for c in picks:
            out.append(Option(discard_action(view, c), f"discard {c}",
                              _discarding(view.seat, c)))
        return out

    # ------------------------------------------------------------------ search

    def _search_deals(self, view: SeatView, know: Knowledge, ev: Evaluator) -> Imagines:
        """Where the search's deals come from: the opponent model's first weights only
        (see the module's docstring: measured).  A yardstick may imagine otherwise."""
        return OpponentModel(view, know, ev.params.wild_ranks, ev.params.run_min - 1)

    def _search(self, view: SeatView, ev: Evaluator, opts: list[Option],
                policy: Decision) -> Decision:
        know = read_knowledge(view)
        self.last_knowledge = know
        self.last_worlds = []
        declare = play_mode(view) == "declare"
        model = self._search_deals(view, know, ev)
        rng = random.Random(self._seed)
        players = len(view.players)
        horizon = players * (DECLARE_HORIZON if declare else CONTRACT_HORIZON)
        down = [p.contract_down for p in view.players]
        out_seat = next((p.seat for p in view.players if p.went_out), -1)
        report = SearchReport(options=opts)
        clock = self._whole
        world_cost = 0.0  # CPU seconds the last imagined deal took, all options played

        def in_time() -> bool:  # the clock, checked between the turns of a playout
            return clock.fits(0.0)

        while clock.fits(world_cost) and clock.more():
            started = clock.spent()
            world = model.imagine(rng)
            if self.keep_worlds:
                self.last_worlds.append(world)
            scores: list[float | None] = []
            for opt in opts:
                if not opt.alive:  # dropped (the policy move never is)
                    scores.append(None)
                    continue
                if not clock.more():
                    break
                deal = Deal.start(ev, world, know.pile, view.seat, down, view.table)
                if out_seat >= 0:
                    deal.out = out_seat
                    deal.final_left = _final_turns_left(view.seat, out_seat, players)
                opt.play(deal)
                if not deal.run(horizon, in_time):
                    break
                pts = deal.points()
                others = [p for s, p in enumerate(pts) if s != view.seat]
                scores.append(pts[view.seat] - (sum(others) / len(others) if others else 0))
            world_cost = clock.spent() - started
            if len(scores) < len(opts):
                break  # out of budget part-way: a deal not every option met is not used
            report.deals += 1
            base = scores[0]
            assert base is not None
            for opt, score in zip(opts[1:], scores[1:], strict=True):
                if score is not None:
                    opt.diffs.append(score - base)
            if not self._prune(opts, report.deals):
                break
        self.last = report
        best = verdict(opts, report.deals)
        if best is not None:
            report.chosen = best
            gain = -best.mean
            return Decision(best.action, f"in {report.deals} imagined deals it scores "
                            f"{gain:.1f} points better than {opts[0].label[0].lower()}"
                            f"{opts[0].label[1:]} (± {best.stderr:.1f})")
        report.chosen = opts[0]
        return _confirmed(policy, report.deals)

    @staticmethod
    def _prune(opts: list[Option], deals: int) -> bool:
        """Drop options shown worse than the policy move; False once none is left, or
        one is already shown better by a wide margin."""
        if deals < MIN_DEALS:
            return True
        alive = False
        for opt in opts[1:]:
            if not opt.alive:
                continue
            if opt.mean - DROP_Z * opt.stderr >= 0 or opt.mean >= -FUTILE_GAIN:
                opt.alive = False  # worse, or not even trending better: it will not win
                continue
            if opt.mean < -max(MIN_GAIN, 2 * Z * opt.stderr) and deals >= 4 * MIN_DEALS:
                return False
            alive = True
        return alive


def verdict(opts: list[Option], deals: int) -> Option | None:
    """The option to play instead of the policy move (`opts[0]`), or None: of the options
    that beat the policy move by more than `Z` standard errors and `MIN_GAIN` points after
    at least `MIN_DEALS` deals, the one with the best mean difference (a noisy option
    with a better mean does not hide a sure one)."""
    if deals < MIN_DEALS:
        return None
    sure = [o for o in opts[1:] if len(o.diffs) >= MIN_DEALS
            and o.mean < -max(MIN_GAIN, Z * o.stderr)]
    return min(sure, key=lambda o: o.mean, default=None)


def _confirmed(policy: Decision, deals: int) -> Decision:
    if not deals:
        return policy
    reason = policy.reason

    def why() -> str:
        text = reason() if callable(reason) else reason
        return f"{text}; nothing did better in {deals} imagined deals" if text else \
            f"nothing did better in {deals} imagined deals"

    return Decision(policy.action, why)


def _final_turns_left(me: int, out: int, players: int) -> int:
    """Final turns still to be played, this seat's included."""
    n, seat = 0, me
    while seat != out:
        n += 1
        seat = (seat + 1) % players
    return n


def _drawing(seat: int, take: bool) -> Callable[[Deal], None]:
    def play(deal: Deal) -> None:
        if deal.draw(seat, take):
            deal.finish_turn(seat)
    return play


def _discarding(seat: int, card: Card | None) -> Callable[[Deal], None]:
    def play(deal: Deal) -> None:
        deal.finish_turn(seat, card)
    return play
