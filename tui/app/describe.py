"""Words for the table: what the deal asks, whose move it is and what to do now."""

from __future__ import annotations

from tui.engine.view import SeatView

from .cardart import CardStyle


def deal_label(view: SeatView) -> str:
    """`Deal 4 of 11 — 6 cards — 6s wild`, `Deal 2 of 7 — 1 set + 1 run`; under a point
    limit the schedule repeats, so `Deal 9 — round 1 of 2 — …` (no round for a one-row
    schedule)."""
    rnd = view.round
    contract = rnd.contract.required
    total = len(view.rules.rounds)
    if view.rules.per_player:  # the rounds are phases, each player on their own
        parts = [f"Deal {view.deal}", f"your phase {view.schedule_round} of {total}"
                 if view.me is not None else "each player on their own phase"]
    elif view.rules.end.point_limit:
        parts = [f"Deal {view.deal}"]
        if total > 1:
            parts.append(f"round {view.schedule_round} of {total}")
    else:
        parts = [f"Deal {view.deal} of {total}"]
    if contract:
        parts.append(rnd.contract.describe())
        if rnd.all_at_once:
            parts.append("all at once")
    else:
        parts.append(f"{rnd.cards_for(len(view.players))} cards")
    if rnd.wild:
        parts.append(rnd.label_wild())
    elif view.rules.jokers_wild and view.rules.deck_for(len(view.players)).jokers:
        parts.append("jokers wild")
    return " — ".join(parts)


def phase_marks(view: SeatView) -> tuple[tuple[tuple[bool, ...], ...], tuple[int, ...]]:
    """For the score sheet under `progression: per_player`: per finished deal, per seat,
    whether it made its phase then; and the phase each seat is on now (both empty for a
    game played by the schedule)."""
    if not view.rules.per_player:
        return (), ()
    return (tuple(r.made for r in view.results), tuple(p.phase for p in view.players))


def buys_left(view: SeatView, seat: int) -> str:
    """`2 buys left` for a seat where buying is on with a limit, `buys: no limit` without
    one, and nothing where nobody buys."""
    buying = view.rules.buying
    if not buying.enabled or not 0 <= seat < len(view.players):
        return ""
    if buying.limit_per_deal is None:
        return "buys: no limit"
    left = max(0, buying.limit_per_deal - view.players[seat].buys_used)
    return f"{left} buy{'s' if left != 1 else ''} left"


def name_of(view: SeatView, seat: int) -> str:
    if 0 <= seat < len(view.players):
        return "You" if seat == view.seat else view.players[seat].name
    return "?"


def prompt(view: SeatView, style: CardStyle) -> str:
    """One line telling the player what is happening and what they can do."""
    top = view.top_discard
    top_text = style.label(top) if top else ""
    if view.phase == "round_over":
        return "The deal is over — press Enter for the summary."
    if view.phase == "game_over":
        return "The game is over — press Enter for the standings."
    if view.phase == "buy":
        offer = style.label(view.buy_offer) if view.buy_offer else top_text
        if view.asked_to_buy:
            extra = view.rules.buying.penalty_cards
            return (f"May I? Buy {offer} (and {extra} penalty card"
                    f"{'s' if extra != 1 else ''} from the stock): b buy · n pass")
        return f"{name_of(view, view.turn)} may buy {offer}…"
    if view.seat != view.turn:
        verb = "drawing" if view.phase == "draw" else "playing"
        lead = "Last turns — " if view.final_turns else ""
        return f"{lead}{name_of(view, view.turn)} is {verb}…"
    lead = "Last turn! " if view.final_turns else "Your turn: "
    if view.phase == "draw":
        if top is not None and view.rules.draw.discard != "none":
            return f"{lead}draw from the stock (s) or take {top_text} (t)."
        return f"{lead}draw from the stock (s)."
    me = view.me
    going = view.rules.going_out
    if not going.melding_during_play:
        return f"{lead}discard (d), or go out (o) if every other card fits a meld."
    contract = view.round.contract
    if contract.required and me is not None and not me.contract_down:
        phase = f"your phase {me.phase}: " if me.phase else ""
        return (f"{lead}lay down {phase}{contract.describe()} (space select · g group · "
                "m meld), then discard (d).")
    if view.rules.lay_off.when != "never":
        return f"{lead}lay off (select, l) or discard (d)."
    return f"{lead}discard (d)."
