"""What every level of bot shares: reading the situation, and the plays that always pay.

A bot's turn is a series of calls, one action each: the draw (or a buy answer), then in
melding games any lay-down, lay-offs and joker swaps, then the discard or going out.  The
levels differ in how they draw, buy and discard; the plays here are the same for all of
them because they never cost anything: going out when the rules offer it, laying down the
contract the moment it can be made, laying off every card that fits (a card in hand can
only score against you once your contract is down), and swapping a natural card for a
joker that can then be laid off.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tui.engine.actions import (
    Action,
    GoOut,
    LayDown,
    LayOff,
    SwapJoker,
    TakeDiscard,
    meld_specs,
)
from tui.engine.cards import Card
from tui.engine.meld import Meld
from tui.engine.solver import best_arrangement
from tui.engine.view import SeatView

from .base import Bot, describe_action
from .evaluate import Evaluator

# Evaluators kept, the most recently used: a game needs the one of the deal in play, a
# server one for each deal its tables play at once.  Each holds thousands of solved
# hands, tens of thousands of objects the garbage collector walks: keeping every past
# deal's (up to 64) made one full collection, landing inside a bot's decision, cost up to
# half a second of a 0.3 s budget (0.02 s without them).
EVALUATORS_KEPT = 4
_EVALUATORS: OrderedDict[tuple[int, int], Evaluator] = OrderedDict()


def evaluator_for(view: SeatView) -> Evaluator:
    """The shared, cached evaluator for the view's ruleset and schedule round."""
    rn = view.schedule_round
    key = (id(view.rules), rn)
    ev = _EVALUATORS.get(key)
    if ev is None or ev.rules is not view.rules:
        ev = _EVALUATORS[key] = Evaluator(view.rules, rn)
        while len(_EVALUATORS) > EVALUATORS_KEPT:
            _EVALUATORS.popitem(last=False)
    _EVALUATORS.move_to_end(key)
    return ev


def seat_rounds(view: SeatView) -> tuple[int, ...]:
    """Per seat, the round its melds on the table are judged by: under `progression:
    per_player` the phase its owner is on, else () (the deal's round for all)."""
    if not view.rules.per_player:
        return ()
    return tuple(p.phase or view.schedule_round for p in view.players)


def play_mode(view: SeatView) -> str:
    """"declare": melds only when going out; "contract": a contract to lay down first;
    "free": melding and laying off from the start."""
    if not view.rules.going_out.melding_during_play:
        return "declare"
    return "contract" if view.round.contract.required else "free"


def may_lay_off_now(view: SeatView) -> bool:
    """Whether this seat can lay cards off now or later this deal (contract down, or no
    contract needed)."""
    if view.rules.lay_off.when == "never":
        return False
    if play_mode(view) == "free":
        return True
    me = view.me
    return me is not None and me.contract_down


def options(view: SeatView, kind: str) -> list[Action]:
    return [a for a in view.legal if a.kind == kind]


def discards_after_taking(view: SeatView, hand: list[Card], taken: Card) -> list[Card]:
    """What could be discarded from `hand` after taking `taken` from the pile: as the
    engine rules it, not that card where the ruleset forbids discarding it at once
    (unless it is the last card)."""
    if view.rules.draw.no_immediate_rediscard and len(hand) > 1:
        return [c for c in hand if c.uid != taken.uid]
    return hand


def melds_text(melds: Sequence[Meld] | Sequence[Sequence[Card]]) -> str:
    parts = []
    for meld in melds:
        cards = meld.cards if isinstance(meld, Meld) else meld
        parts.append("-".join(str(c) for c in cards))
    return ", ".join(parts)


def meld_phrase(melds: Sequence[Meld]) -> str:
    """"the 6S-7S-8S run and the JC-JD-JH set" (a wild shows what it stands for)."""
    parts = [f"the {'-'.join(meld.describe().split())} {meld.kind}" for meld in melds]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True)
class Decision:
    """An action and why; the reason may be a function, so a bot that is only asked to
    move never spends time putting its reasons into words."""

    action: Action
    reason: str | Callable[[], str] = ""

    def why(self) -> str:
        return self.reason() if callable(self.reason) else self.reason

    def line(self) -> str:
        text = describe_action(self.action)
        why = self.why()
        return f"{text}: {why}" if why else f"{text}."


class TacticalBot(Bot):
    """A bot that decides phase by phase; subclasses supply draw, buy and discard."""

    def choose(self, view: SeatView) -> Action:
        return self.decide(view).action

    def explain(self, view: SeatView) -> str:
        return self.decide(view).line()

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        if len(legal) == 1:
            return Decision(legal[0], "the only move")
        ev = evaluator_for(view)
        if view.phase == "buy":
            return self.buy(view, ev)
        if view.phase == "draw":
            return self.draw(view, ev)
        forced = self.sure_play(view, ev)
        if forced is not None:
            return forced
        return self.discard(view, ev)

    # -- the plays every level makes

    def sure_play(self, view: SeatView, ev: Evaluator) -> Decision | None:
        """Going out, laying down, laying off and swapping jokers, when the rules allow."""
        go = [a for a in view.legal if isinstance(a, GoOut)]
        if go:
            out = go[0]
            melded = {c.uid for m in out.melds for c in m.cards}
            if out.discard is not None:
                melded.add(out.discard.uid)
            kept = [c for c in view.hand if c.uid not in melded]  # under a laying-down limit
            left = f"keeping {' '.join(map(str, kept))}" if kept else "nothing left"
            return Decision(out, f"{len(out.melds)} meld{'s' if len(out.melds) != 1 else ''}"
                            f" ({melds_text([m.cards for m in out.melds])}), {left}")
        lay = [a for a in view.legal if isinstance(a, LayDown)]
        if lay:
            down = lay[0]
            return Decision(down, f"the contract is made "
                            f"({melds_text([m.cards for m in down.melds])})")
        if play_mode(view) == "free" and not view.final_turns:
            free = self._free_melds(view)
            if free is not None:
                return free
        swaps = [a for a in options(view, "swap_joker") if isinstance(a, SwapJoker)]
        offs = [a for a in options(view, "lay_off") if isinstance(a, LayOff)]
        if offs:
            # heaviest card first: if the deal ends suddenly it is the one that hurts most
            best = max(offs, key=lambda a: (ev.value(a.cards[0]), -a.meld_id))
            meld = next((m for m in view.table if m.id == best.meld_id), None)
            where = f" onto {melds_text([meld])}" if meld is not None else ""
            return Decision(best, f"{best.cards[0]} fits{where}, one card fewer to score")
        if swaps:
            swap = swaps[0]
            return Decision(swap, f"frees a joker to lay off in place of {swap.card}")
        return None

    def _free_melds(self, view: SeatView) -> Decision | None:
        """With no contract, any melds the hand holds go down at once."""
        hand = list(view.hand)
        best = best_arrangement(hand, view.rules, view.schedule_round)
        if not best.melds:
            return None
        melds = list(best.melds)
        left = len(hand) - sum(len(m.cards) for m in melds)
        if left == 0 and view.going_out_discard == "required":
            melds = melds[:-1]
            if not melds:
                return None
        return Decision(LayDown(view.seat, meld_specs(melds)), f"melds {melds_text(melds)}")

    # -- what the levels decide

    def draw(self, view: SeatView, ev: Evaluator) -> Decision:
        raise NotImplementedError

    def buy(self, view: SeatView, ev: Evaluator) -> Decision:
        raise NotImplementedError

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        raise NotImplementedError


def stock_or_first(view: SeatView) -> Action:
    """Drawing from the stock if the rules allow it now, else the first legal draw."""
    for action in view.legal:
        if action.kind == "draw_stock":
            return action
    return view.legal[0]


def top_take(view: SeatView) -> TakeDiscard | None:
    """Taking the top discard (not deeper), if the rules allow it now."""
    return next((a for a in view.legal if isinstance(a, TakeDiscard) and a.depth == 0), None)


def connections(card: Card, hand: Sequence[Card], ev: Evaluator) -> int:
    """How many other cards in hand this card could meld with (same rank, or same suit
    within two ranks); wilds connect with everything."""
    if ev.is_wild(card):
        return len(hand)
    n = 0
    for other in hand:
        if other is card or other.uid == card.uid and other.uid >= 0:
            continue
        if ev.is_wild(other):
            n += 1
        elif other.rank == card.rank:
            n += 1
        elif other.suit == card.suit and abs(other.rank - card.rank) <= 2:
            n += 1
    return n
