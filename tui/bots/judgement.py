"""Three Thirteen judgement: the race to go out, not only the penalty after one more draw.

`hard` values a hand after its discard by the penalty it is expected to leave after one
more draw, as if the deal were to end then.  In a declare game (nothing is melded until a
player goes out; the others then get one last turn) the deal ends when *somebody* goes
out, and going out first is worth more than a low penalty: the one who goes out scores
nothing and the others score what they hold.  `Judgement` values a hand by the race over
its next two draws, enumerated exactly over the unseen cards (`ExactRace`; no sampling,
so candidates are compared without noise):

* with the chance that an opponent goes out before this seat's next draw, that draw is its
  last and the hand scores what it keeps after it (`hard`'s one-draw value);
* otherwise each unseen card is drawn in turn: one that lets the hand go out is worth the
  points the others are expected to hold then (`credit`); any other is kept or thrown back
  by a quick rule (keep it if it lowers the penalty, throwing the heaviest card left out
  of the best arrangement) and the hand after it is valued one draw further on, again
  crediting a draw that goes out if the deal is still on.

How soon the deal is likely to end comes from `PaceCurve`: solitaire play-outs of random
hands of the deal's size learn, once a process, each turn's chance of going out (so a
ruleset's awkward sizes pace themselves: five cards must make one 5-card meld and rarely
go out early; three cards often do), sped up by `PACE` (players also take discards), for
the turns each opponent has already had, and raised for every card it took from the pile
(it took it because it helps).  As in `hard`, a discard is also charged what it would give
the next player over hands guessed for them (the cards they took say what they collect).
A judgement that trusts its guesses (`out_scale`, set by `expert`) also reads there how
likely the card lets the next player go out at once, and counts that as the deal ending
before this seat draws again: feeding the card a player goes out with is the costliest
discard there is (a bot told the true hand that only refused to throw such cards beat
`hard` by +5.9 ± 1.1 points a game over six sets of 20 deals;
`tests/bench/feed_diagnostics.py oracle`).

What did not help, measured against `hard` (2-player Three Thirteen, mirrored deals, all
within noise or worse): valuing hands by sampled solitaire roll-outs six to ten turns deep
(their noise swamps the differences between discards: the deeper or the slower the race,
the worse), judging the draw by those roll-outs, hard's value plus the going-out credit
alone, and weighting the unseen cards by how likely the opponent model puts them in a hand
rather than the stock.  The gain measured for this version is small (a few points a game
at most, not yet clear of noise); `expert` builds its search on it.  Contract games, and
the final turns once someone is out (nothing left to race for), are played exactly as
`hard` plays them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tui.engine.cards import Card
from tui.engine.view import SeatView

from . import budget
from .evaluate import Evaluator, HandKey, hand_key, without_card
from .hard import HardBot, weighed_discards
from .lookahead import unseen_faces
from .medium import connections, discard_action, keeps_text
from .memory import Knowledge, read_knowledge, shoe_for, turns_taken
from .outs import Outs
from .tactics import Decision, play_mode

FEED_WEIGHT = 0.6  # a point given to the next player, against a point kept (as `hard`)
CREDIT = 1.0  # a point the others hold when this seat goes out, against a point kept
PACE = 1.7  # a player who also takes discards goes out about this much sooner than solitaire
TOOK_PACE = 1.3  # an opponent's chance to go out, times this for every card it took
PACE_HANDS = 200  # random hands played out to learn the pace of a deal
PACE_TURNS = 40
MAX_HAZARD = 0.95
HARD_RESERVE = 0.05  # CPU seconds left for hard's discard while the pace is being learnt
FIRST_UID = 1 << 21  # uids of the cards a play-out draws (far from the shoe's)


@dataclass
class _Node:
    """A hand in a play-out, with its best arrangement read for what a draw would do."""

    key: HandKey
    cards: list[Card]
    penalty: int
    outs: Outs


class Solitaire:
    """A hand played forward alone over draws from the unseen cards: keep a drawn card
    when it helps (then throw the heaviest card left out of the best arrangement), else
    throw it back.  Steps are remembered by hand and card, so a card thrown back, or a
    hand reached again, costs nothing more."""

    def __init__(self, ev: Evaluator) -> None:
        self.ev = ev
        self._nodes: dict[HandKey, _Node] = {}
        self._steps: dict[tuple[HandKey, tuple[int, str]], tuple[_Node | None, int]] = {}
        self._uid = FIRST_UID

    def node(self, cards: Sequence[Card]) -> _Node:
        key = hand_key(cards)
        hit = self._nodes.get(key)
        if hit is None:
            outs = Outs(self.ev, cards)
            hit = self._nodes[key] = _Node(key, list(cards), outs.penalty, outs)
        return hit

    def step(self, node: _Node, card: Card) -> tuple[_Node | None, int]:
        """Draw `card`: (the hand after the discard, or None if it goes out; the penalty
        left if this draw is the last of the deal)."""
        memo = (node.key, card.face)
        hit = self._steps.get(memo)
        if hit is not None:
            return hit
        ev = self.ev
        outs = node.outs
        if outs.gain(card) <= 0 and not outs.uncertain(card):
            hit = (node, node.penalty)
        else:
            if any(c.uid == card.uid for c in node.cards):
                # the solver tells cards apart by uid: a drawn copy gets one of its own
                self._uid += 1
                card = Card(card.rank, card.suit, self._uid)
            drawn = node.cards + [card]
            layout = ev.layout(drawn)
            pen, dead = layout.penalty, layout.deadwood
            if len(dead) <= 1 and pen - (ev.value(dead[0]) if dead else 0) <= 0:
                hit = (None, 0)
            elif not dead:
                after, throw = ev.discards(drawn)[0]
                hit = (self.node(without_card(drawn, throw)), after)
            else:
                pool = [c for c in dead if not ev.is_wild(c)] or list(dead)
                throw = max(pool, key=ev.value)
                ev.layout_without(drawn, throw)  # the same melds: known without a solve
                nxt = self.node(without_card(drawn, throw))
                hit = (nxt, min(nxt.penalty, pen - max(ev.value(c) for c in dead)))
        self._steps[memo] = hit
        return hit


@dataclass(frozen=True)
class PaceCurve:
    """How soon a random hand of the deal's size goes out, played alone: the chance it
    goes out at its k-th turn given it has not before (`hazard[k-1]`), and the mean
    penalty of the hands still in at that turn (`penalty[k-1]`)."""

    hazard: tuple[float, ...]
    penalty: tuple[float, ...]

    def at(self, turn: int) -> tuple[float, float]:
        i = min(max(turn, 1), len(self.hazard)) - 1
        return self.hazard[i], self.penalty[i]


class PaceLearning:
    """A `PaceCurve` being learnt: seeded solitaire play-outs of random hands of the deal's
    size, `PACE_HANDS` in all, played a few at a time where a budget says so.  The hands
    come from one seeded generator in one order however the work is split, so the curve
    learnt is the same on every machine and at any load."""

    def __init__(self, view: SeatView, ev: Evaluator) -> None:
        self.size = view.round.cards_for(len(view.players))
        self.shoe = list(shoe_for(view))
        self.rng = random.Random(7919 * view.schedule_round + len(view.players))
        self.play = Solitaire(ev)
        self.hands = 0
        self.out_at = [0] * (PACE_TURNS + 1)
        self.alive = [0] * (PACE_TURNS + 1)
        self.pen_sum = [0.0] * (PACE_TURNS + 1)
        self.cost = 0.0  # CPU seconds the last hand took to play out

    def play_out(self) -> None:
        """One more random hand played alone to the end (or `PACE_TURNS` draws)."""
        started = budget.clock()
        cards = self.shoe[:]
        self.rng.shuffle(cards)
        node: _Node | None = self.play.node(cards[:self.size])
        draws = cards[self.size:]
        for k in range(1, min(PACE_TURNS, len(draws)) + 1):
            if node is None:
                break
            self.alive[k] += 1
            node, _ = self.play.step(node, draws[k - 1])
            if node is None:
                self.out_at[k] += 1
            else:
                self.pen_sum[k] += node.penalty
        self.hands += 1
        self.cost = budget.clock() - started

    def curve(self) -> PaceCurve:
        hazard: list[float] = []
        penalty: list[float] = []
        for k in range(1, PACE_TURNS + 1):
            alive, stay = self.alive[k], self.alive[k] - self.out_at[k]
            hazard.append(self.out_at[k] / alive if alive else (hazard[-1] if hazard else 0.0))
            penalty.append(self.pen_sum[k] / stay if stay else (penalty[-1] if penalty else 0.0))
        return PaceCurve(tuple(hazard), tuple(penalty))


_CURVES: dict[tuple[int, int, int], PaceCurve | PaceLearning] = {}


def learn_pace(view: SeatView, ev: Evaluator,
               fits: Callable[[float], bool] = lambda cost: True) -> PaceCurve | None:
    """The `PaceCurve` of the view's ruleset, round and table size, learnt once a process;
    None while it is still being learnt: hands are played out only while `fits(the cost of
    one)` says the decision's budget allows, and the learning goes on where it stopped at
    the next decision."""
    key = (id(view.rules), view.schedule_round, len(view.players))
    known = _CURVES.get(key)
    if isinstance(known, PaceCurve):
        return known
    if known is None:
        if len(_CURVES) > 256:
            _CURVES.clear()
        known = _CURVES[key] = PaceLearning(view, ev)
    while known.hands < PACE_HANDS:
        if not fits(known.cost):
            return None
        known.play_out()
    curve = _CURVES[key] = known.curve()
    return curve


def pace_curve(view: SeatView, ev: Evaluator) -> PaceCurve:
    """The `PaceCurve` of the view's ruleset, round and table size, learnt (to the end, at
    once if need be) from seeded play-outs (the same on every machine)."""
    curve = learn_pace(view, ev)
    assert curve is not None
    return curve


@dataclass(frozen=True)
class Odds:
    """`ends[k]`: the chance that an opponent goes out after this seat's k-th turn from now
    and before its next (k = 0: before its next draw), given nobody has yet;
    `credit[k]`: what going out at its (k+1)-th turn from now is worth (the points the
    others are expected to hold then, times the credit weight)."""

    ends: tuple[float, ...]
    credit: tuple[float, ...]


def race_odds(view: SeatView, ev: Evaluator, taken: dict[int, list[Card]],
              horizon: int = 2, credit_weight: float = CREDIT, pace: float = PACE,
              took_pace: float = TOOK_PACE) -> Odds:
    """Every opponent's chance of going out at each of its coming turns, from the pace
    curve, the turns it has had and the cards it took from the pile."""
    curve = pace_curve(view, ev)
    turns = turns_taken(view)
    others = [s for s in range(len(view.players)) if s != view.seat]
    ends = []
    credit = []
    for k in range(horizon):
        stay = 1.0
        owed = 0.0
        for seat in others:
            hazard, pen = curve.at(turns[seat] + k + 1)
            stay *= 1.0 - min(MAX_HAZARD, hazard * pace * took_pace ** len(taken.get(seat, ())))
            owed += pen
        ends.append(1.0 - stay)
        credit.append(credit_weight * owed / max(1, len(others)))
    return Odds(tuple(ends), tuple(credit))


class ExactRace:
    """The race over this seat's next two draws, enumerated over the unseen cards (see the
    module docstring), for one decision."""

    def __init__(self, ev: Evaluator, unseen: Counter[Any], odds: Odds) -> None:
        self.play = Solitaire(ev)
        self.faces, self.total = unseen_faces(unseen)
        self.odds = odds
        self._later: dict[HandKey, float] = {}

    def _one_draw(self, node: _Node) -> tuple[float, float]:
        """(the penalty expected after one more draw and the best discard, the chance
        that draw goes out)."""
        outs = node.outs
        now = node.penalty
        if now == 0:
            return 0.0, 1.0
        gained = 0.0
        hits = 0
        for card, n in self.faces:
            gain = outs.gain(card)
            gained += n * gain
            if gain >= now:
                hits += n
        return now - gained / self.total, hits / self.total

    def _later_value(self, node: _Node) -> float:
        """The hand one draw on: its one-draw value, less the credit for going out at that
        draw if the deal lasts till then."""
        hit = self._later.get(node.key)
        if hit is None:
            expect, out = self._one_draw(node)
            ends, credit = self.odds.ends, self.odds.credit
            lasts = 1.0 - ends[1] if len(ends) > 1 else 0.0
            later = credit[1] if len(credit) > 1 else 0.0
            hit = self._later[node.key] = expect - lasts * later * out
        return hit

    def value(self, cards: Sequence[Card], end: float | None = None) -> float:
        """Expected points of holding `cards` after this turn's discard (lower is
        better); `end`: the chance the deal ends before this seat's next draw, if not the
        odds'."""
        play = self.play
        node = play.node(cards)
        end = self.odds.ends[0] if end is None else end
        out_credit = self.odds.credit[0]
        last = 0.0
        going_on = 0.0
        for card, n in self.faces:
            nxt, final = play.step(node, card)
            last += n * final
            going_on += n * (-out_credit if nxt is None else self._later_value(nxt))
        return (end * last + (1.0 - end) * going_on) / self.total


class Judgement(HardBot):
    """`hard` with the race to go out in mind, in declare games (see the module
    docstring)."""

    level = "judgement"
    feed_weight = FEED_WEIGHT
    credit_weight = CREDIT
    pace = PACE
    took_pace = TOOK_PACE
    out_scale = 0.0  # how far the feeder's reading of "this card lets them go out" is believed

    def fits(self, cost: float) -> bool:
        """Whether work expected to take `cost` CPU seconds fits in this decision: always,
        for a judgement with no budget (`expert` has one)."""
        return True

    def _race_odds(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Odds:
        """How soon the deal may end, as this judgement believes it (the pace curve's
        guess; `tests/bench/feed_diagnostics.py hazard` measures one told the truth)."""
        return race_odds(view, ev, know.taken, 2, self.credit_weight, self.pace,
                         self.took_pace)

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        if play_mode(view) != "declare" or view.final_turns or not view.discardable:
            return super().discard(view, ev)
        hand = list(view.hand)
        ranked = weighed_discards(view, ev)
        if len(ranked) < 2 or learn_pace(
                view, ev, lambda cost: self.fits(cost + HARD_RESERVE)) is None:
            return super().discard(view, ev)  # (the pace is learnt over the next decisions)
        know = read_knowledge(view)
        odds = self._race_odds(view, ev, know)
        race = ExactRace(ev, know.unseen, odds)
        feeder = self._feeder(view, ev, know)
        scored: list[tuple[Any, ...]] = []
        cost = 0.0
        for _pen, card in ranked:  # the least penalty first: anytime, the best so far
            if scored and not self.fits(cost):
                break
            started = budget.clock()
            fed = min(1.0, self.out_scale * feeder.out_chance(card)) if self.out_scale else 0.0
            value = race.value(without_card(hand, card),
                               1.0 - (1.0 - odds.ends[0]) * (1.0 - fed) if fed else None)
            cost = budget.clock() - started
            scored.append((value + self.feed_weight * feeder.gain(card),
                           connections(card, hand, ev), -ev.value(card), card.sort_key(),
                           value, card))
        scored.sort(key=lambda item: item[:4])
        value, card = scored[0][4], scored[0][5]
        rest = without_card(hand, card)
        return Decision(discard_action(view, card),
                        lambda: keeps_text(ev, rest, value, "expected points by the end"))
