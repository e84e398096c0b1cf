"""`hard`: plays the imperfect-information game, with a fixed amount of work per decision.

What it knows comes from `memory.read_knowledge`: the cards it has seen (its hand, the
table, every discard, every card another player took from the pile), hence the multiset of
*unseen* cards that the stock and the other hands are made of.  It decides by looking ahead
over that uncertainty (`lookahead`):

* **The value of a hand** is the penalty it is expected to leave after one more draw: the
  average, over every unseen card weighted by its unseen copies, of the least penalty after
  drawing that card and throwing the worst one away (`Lookahead.expect`).  What a card does
  to the hand is read off its best arrangement (`outs.Outs`); up to `EXACT_STEPS` times a
  decision, the cards that reading may underrate (wilds, cards that
  could pull a wild out of a meld) are solved exactly for the most promising discards.
* **Discarding**: the discards the exact solver rates within `MARGIN` points of the best are
  compared by that expected value, plus what the card would give the next player.  That is
  a determinized estimate: the next player's hand is sampled again and again from the unseen
  cards, holding the cards it is known to have taken and, for each, a card that goes with it
  (a player takes a discard because it helps); the charge is how much more the card would
  give that hand than a blind draw from the stock.
* **Drawing**: the top discard is taken when the best hand it leaves is worth more, one
  draw later, than a stock card is on average (both compared two draws ahead); on a final
  turn (someone is out) exactly one draw ahead, since no other draw will come.
* **Contract games** (`contract_play`) judge a hand by its contract count, the live copies of
  the cards that would advance it, the risk that an opponent goes out soon, and what the
  next player is collecting.

Its work is a count, not a time: the same view (and seed) gives the same decision on any
machine, at any load (every random choice comes from the bot's own generator).  It has no
time budget to set; `tests/bench/bench_bots.py` measures what a decision costs.
Decisions with one legal move return at once.
"""

from __future__ import annotations

from typing import Any

from tui.engine.actions import TakeDiscard
from tui.engine.cards import Card
from tui.engine.view import SeatView

from .budget import Budget
from .contract_play import (
    discard_after_contract,
    discard_before_contract,
    draw_after_contract,
    draw_before_contract,
)
from .evaluate import Evaluator, without_card
from .lookahead import Feeder, Lookahead
from .medium import MediumBot, connections, discard_action, keeps_text
from .memory import Knowledge, read_knowledge
from .tactics import (
    Decision,
    discards_after_taking,
    may_lay_off_now,
    options,
    play_mode,
    stock_or_first,
    top_take,
)

EXACT_STEPS = 6  # exact re-evaluations a decision may make (a count, not a time)
FEED_WEIGHT = 0.6  # a point given to the next player, against a point kept by us
FEED_SAMPLES = 16  # hands sampled for the next player
MARGIN = 12  # discards whose penalty is this much worse than the best are not considered
CANDIDATES = 5


def weighed_discards(view: SeatView, ev: Evaluator) -> list[tuple[int, Card]]:
    """The discards worth weighing: at most `CANDIDATES` of those leaving no more than
    `MARGIN` points over the best one, with the exact penalty each leaves, best first."""
    return ev.discards_near(list(view.hand), list(view.discardable), MARGIN)[:CANDIDATES]


class HardBot(MediumBot):
    level = "hard"

    def __init__(self, seed: int = 0, steps: int = EXACT_STEPS) -> None:
        super().__init__(seed)
        self.steps: int | None = steps  # exact re-evaluations per decision
        self._clock = Budget(None, steps)
        self._seed = 0

    def decide(self, view: SeatView) -> Decision:
        self._clock = self._start_clock()
        self._seed = self.rng.randrange(1 << 30)
        return super().decide(view)

    def _start_clock(self) -> Budget:
        return Budget(None, self.steps).start()

    def _time_left(self) -> bool:
        return self._clock.more()

    def _lookahead(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Lookahead:
        """The one-draw look-ahead this seat plans with, over every unseen card, stock and
        other hands alike (`tests/bench/feed_diagnostics.py dead-cards` measures others:
        one that knows which of them are in the stock plays worse)."""
        return Lookahead(ev, know.unseen)

    # ------------------------------------------------------------------ draw

    def draw(self, view: SeatView, ev: Evaluator) -> Decision:
        mode = play_mode(view)
        if mode == "contract":
            takes = [a for a in options(view, "take_discard") if isinstance(a, TakeDiscard)]
            if not any(a.depth > 0 for a in takes):
                top = top_take(view)
                if may_lay_off_now(view):
                    return draw_after_contract(view, ev, top, stock_or_first(view))
                return draw_before_contract(view, ev, top, stock_or_first(view))
        if mode != "declare":
            return super().draw(view, ev)
        stock = stock_or_first(view)
        top = top_take(view)
        card = view.top_discard
        if top is None or card is None:
            return Decision(stock, "nothing to take")
        if stock.kind != "draw_stock":
            return Decision(top, "the stock is empty")
        hand = list(view.hand)
        with_card = hand + [card]
        if ev.after_best_discard(with_card) == 0:
            return Decision(top, f"{card} lets me go out")
        know = read_knowledge(view)
        look = self._lookahead(view, ev, know)
        stock_now = look.expect(hand, exact=self._time_left())  # a stock card, then the
        # best discard
        if view.final_turns:
            after = ev.after_best_discard(with_card)
            if after < stock_now:
                return Decision(top, f"{card} leaves {after}, a stock card "
                                f"{stock_now:.1f} on average")
            return Decision(stock, f"a stock card leaves {stock_now:.1f} on average, "
                            f"{card} {after}")
        # a take is worth the discard it leads to, chosen as the discard rule will choose
        # it: feeding the next player included, so a card is never taken to be thrown back
        priced = self._priced_discards(ev, with_card,
                                       discards_after_taking(view, with_card, card), look,
                                       self._feeder(view, ev, know))
        now = ev.penalty(hand)
        stock_value = 2 * stock_now - now  # a stock card now, and the gain of one more
        if priced and priced[0][2].face == card.face:
            return Decision(stock, f"{card} would be thrown straight back")
        if priced and priced[0][0] < stock_value:
            return Decision(top, f"{card} is worth more than a stock card "
                            f"(expected penalty {priced[0][0]:.1f} against {stock_value:.1f})")
        return Decision(stock, f"{card} is worth less than a stock card "
                        f"(expected penalty {stock_value:.1f})")

    # ------------------------------------------------------------------ discard

    def _feeder(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Feeder:
        """What a discard would give the next player, over hands guessed for them."""
        return Feeder(view, ev, know, self._seed, FEED_SAMPLES)

    def _priced_discards(self, ev: Evaluator, hand: list[Card], allowed: list[Card],
                         look: Lookahead, feeder: Feeder) -> list[list[Any]]:
        """[expected total, expected penalty, card] for each discard worth weighing from
        `hand`, best first: the penalty expected one draw later plus `FEED_WEIGHT` times
        what the card gives the next player.  The discard rule picks the first; the draw
        rule prices taking the top discard by it."""
        ranked = ev.discards_near(hand, allowed, MARGIN)[:CANDIDATES]
        scored: list[list[Any]] = []
        for _pen, card in ranked:
            value = look.expect(without_card(hand, card))
            scored.append([value + FEED_WEIGHT * feeder.gain(card), value, card])
        scored.sort(key=lambda item: item[0])
        for item in scored[:3]:
            if not self._time_left():
                break
            fed = item[0] - item[1]
            item[1] = look.expect(without_card(hand, item[2]), exact=True)
            item[0] = item[1] + fed
        scored.sort(key=lambda item: (item[0], connections(item[2], hand, ev),
                                      -ev.value(item[2]), item[2].sort_key()))
        return scored

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        mode = play_mode(view)
        if mode == "contract":
            allowed = list(view.discardable)
            if allowed:
                if may_lay_off_now(view):
                    return discard_after_contract(view, ev, allowed)
                return discard_before_contract(view, ev, allowed)
        if mode != "declare":
            return super().discard(view, ev)
        allowed = list(view.discardable)
        if not allowed:
            return Decision(view.legal[0], "the only kind of move left")
        hand = list(view.hand)
        know = read_knowledge(view)
        feeder = self._feeder(view, ev, know)
        if view.final_turns:
            # nothing more to draw: what stays scores; only the next player can still gain
            final = [(pen + FEED_WEIGHT * feeder.gain(card), pen, card)
                     for pen, card in weighed_discards(view, ev)]
            final.sort(key=lambda item: (item[0], item[1], item[2].sort_key()))
            _, pen, card = final[0]
            return Decision(discard_action(view, card),
                            lambda: keeps_text(ev, without_card(hand, card), pen, "penalty"))
        look = self._lookahead(view, ev, know)
        total, value, card = self._priced_discards(ev, hand, allowed, look, feeder)[0]
        fed = (total - value) / FEED_WEIGHT if FEED_WEIGHT else 0.0
        rest = without_card(hand, card)

        def why() -> str:
            text = keeps_text(ev, rest, value, "lowest expected penalty")
            if fed > 0.5:
                text += f"; the next player would gain {fed:.1f} from it"
            return text

        return Decision(discard_action(view, card), why)
