"""Turning what the player pointed at into engine actions.

The table service checks every action and explains a refusal, so these builders only pick
the exact legal action when the view lists one (a legal `Discard` carries the very card,
a legal `TakeDiscard` its depth) and otherwise build the action the player asked for and
let the service say why it is refused.  No textual here: this is tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tui.engine.actions import (
    Action,
    Buy,
    Discard,
    DrawStock,
    GoOut,
    LayDown,
    LayOff,
    MeldSpec,
    PassBuy,
    SwapJoker,
    TakeDiscard,
)
from tui.engine.cards import Card
from tui.engine.view import SeatView

A = TypeVar("A", bound=Action)


class NeedChoice(Exception):
    """The player must pick something first (a card, a meld); the message says what."""


def legal_of(view: SeatView, cls: type[A]) -> list[A]:
    return [a for a in view.legal if type(a) is cls]


def can(view: SeatView, cls: type[Action]) -> bool:
    return any(type(a) is cls for a in view.legal)


def draw_stock(view: SeatView) -> Action:
    return next(iter(legal_of(view, DrawStock)), DrawStock(view.seat))


def take_discard(view: SeatView, depth: int = 0) -> Action:
    for action in legal_of(view, TakeDiscard):
        if action.depth == depth:
            return action
    return TakeDiscard(view.seat, depth)


def discard(view: SeatView, card: Card | None) -> Action:
    if card is None:
        raise NeedChoice("Choose the card to discard: move with ←/→, then press d.")
    for action in legal_of(view, Discard):
        if action.card is not None and action.card.uid == card.uid:
            return action
    return Discard(view.seat, card)


def buy(view: SeatView) -> Action:
    return Buy(view.seat)


def pass_buy(view: SeatView) -> Action:
    return PassBuy(view.seat)


def specs(groups: Sequence[Sequence[Card]]) -> tuple[MeldSpec, ...]:
    return tuple(MeldSpec(tuple(g)) for g in groups if g)


def lay_down(view: SeatView, groups: Sequence[Sequence[Card]],
             arrange: Callable[[Sequence[Card]], Any] | None = None) -> Action:
    """Lay the contract down from the staged groups; with none staged, the service's own
    suggestion when it lists one, else the best melds of the hand chosen to fit the
    contract."""
    if groups:
        return LayDown(view.seat, specs(groups))
    listed = legal_of(view, LayDown)
    if listed:
        return listed[0]
    if arrange is None:
        raise NeedChoice("Select the cards of a meld (space), group them (g), then meld (m).")
    melds = contract_melds(view, melds_of(arrange(view.hand)))
    if not melds:
        raise NeedChoice("No melds found in your hand: select cards with space, group with g.")
    return LayDown(view.seat, specs(melds))


def go_out(view: SeatView, groups: Sequence[Sequence[Card]], hand: Sequence[Card],
           preferred_discard: Card | None,
           arrange: Callable[[Sequence[Card]], Any] | None) -> Action:
    """Declare the whole hand.  Staged groups are used as they are (the one card left over
    is the discard); otherwise the best arrangement is searched, trying the card under the
    cursor as the discard first."""
    rule = view.going_out_discard
    if groups:
        grouped = {c.uid for g in groups for c in g}
        left = [c for c in hand if c.uid not in grouped]
        if len(left) > 1 and knocking(view):
            return _knock(view, groups, left, preferred_discard)
        if len(left) > 1:
            raise NeedChoice(
                f"{len(left)} cards are not in a group: group every card but the discard.")
        return GoOut(view.seat, specs(groups), left[0] if left else None)
    listed = legal_of(view, GoOut)
    if listed:
        if preferred_discard is not None:
            for action in listed:
                if action.discard is not None and action.discard.uid == preferred_discard.uid:
                    return action
        return listed[0]
    if arrange is None:
        raise NeedChoice("Group your melds (space, g) and leave the discard ungrouped.")
    if rule != "required":
        whole = arrange(list(hand))
        if not deadwood_of(whole):
            return GoOut(view.seat, specs(melds_of(whole)), None)
    if rule != "forbidden":
        candidates = list(hand)
        if preferred_discard is not None:
            candidates.sort(key=lambda c: c.uid != preferred_discard.uid)
        for card in candidates:
            rest = [c for c in hand if c.uid != card.uid]
            arrangement = arrange(rest)
            if not deadwood_of(arrangement):
                return GoOut(view.seat, specs(melds_of(arrangement)), card)
    best = arrange(list(hand))
    left = deadwood_of(best)
    raise NeedChoice(
        f"You cannot go out yet: {len(left)} card(s) do not fit a meld "
        f"({' '.join(str(c) for c in left)}).")


def knocking(view: SeatView) -> bool:
    """Whether going out may keep cards outside melds (`going_out.deadwood_limit`)."""
    going = view.rules.going_out
    return going.deadwood_limit > 0 and not going.melding_during_play


def _knock(view: SeatView, groups: Sequence[Sequence[Card]], left: Sequence[Card],
           preferred_discard: Card | None) -> Action:
    """Going out with the staged groups, keeping the ungrouped cards but the discard: the
    card under the cursor if it is one of them, else the dearest (the engine refuses a
    count over the limit, and says so)."""
    if view.going_out_discard == "forbidden":
        return GoOut(view.seat, specs(groups), None)
    discard = next((c for c in left if preferred_discard is not None
                    and c.uid == preferred_discard.uid), None)
    if discard is None:
        discard = max(left, key=lambda c: (view.card_points(c), c.sort_key()))
    return GoOut(view.seat, specs(groups), discard)


def go_out_label(view: SeatView) -> str:
    """"Knock" when the going out on offer keeps cards outside melds, else "Go out"."""
    if not knocking(view):
        return "Go out"
    for action in legal_of(view, GoOut):
        used = {c.uid for m in action.melds for c in m.cards}
        if action.discard is not None:
            used.add(action.discard.uid)
        if any(c.uid not in used for c in view.hand):
            return "Knock"
    return "Go out"


def lay_off(view: SeatView, meld_id: int, cards: Sequence[Card]) -> Action:
    if not cards:
        raise NeedChoice("Select the card(s) to lay off (space), then press l.")
    for action in legal_of(view, LayOff):
        if action.meld_id == meld_id and {c.uid for c in action.cards} == {c.uid for c in cards}:
            return action
    return LayOff(view.seat, meld_id, tuple(cards))


def swap_joker(view: SeatView, meld_id: int, card: Card | None) -> Action:
    if card is None:
        raise NeedChoice("Put the cursor on the natural card that replaces the joker.")
    for action in legal_of(view, SwapJoker):
        if action.meld_id == meld_id and action.card is not None and action.card.uid == card.uid:
            return action
    return SwapJoker(view.seat, meld_id, card)


def melds_of(arrangement: Any) -> list[list[Card]]:
    """The melds of a solver arrangement as card lists (melds may be `Meld`s or lists)."""
    if arrangement is None:
        return []
    out = []
    for meld in getattr(arrangement, "melds", ()):
        cards = getattr(meld, "cards", meld)
        out.append(list(cards))
    return out


def deadwood_of(arrangement: Any) -> list[Card]:
    return list(getattr(arrangement, "deadwood", ()))


def meld_kind(cards: Sequence[Card], source: Any = None) -> str:
    kind = getattr(source, "kind", "")
    if kind:
        return kind
    naturals = [c for c in cards if not c.is_joker]
    return "set" if len({c.rank for c in naturals}) <= 1 else "run"


def contract_melds(view: SeatView, melds: list[list[Card]]) -> list[list[Card]]:
    """Pick from `melds` the sets and runs the round's contract asks for (all of them when
    there is no contract)."""
    contract = view.round.contract
    if not contract.required:
        return melds
    sets = [m for m in melds if meld_kind(m) == "set"]
    runs = [m for m in melds if meld_kind(m) == "run"]
    if len(sets) < contract.sets or len(runs) < contract.runs:
        return melds
    return sets[: contract.sets] + runs[: contract.runs]
