"""The rules text's sections on a turn: "Your turn" (draw, meld, discard), "Buying",
"Laying off" and "Taking jokers"; a section of a move the game does not allow is left out.
"""

from __future__ import annotations

from ..rules import Ruleset
from .text_facts import any_contract
from .text_page import counted, item, para, section


def turn_section(r: Ruleset) -> str:
    draw = {
        "top": "Draw the top card of the stock or the top card of the discard pile.",
        "deep": "Draw the top card of the stock, or take from the discard pile: the top "
        "card, or a deeper card together with every card above it"
        + (", if you meld that card this same turn." if r.draw.deep_must_meld else "."),
        "none": "Draw the top card of the stock (the discard pile is never taken).",
    }[r.draw.discard]
    if not r.going_out.melding_during_play:
        meld = (
            "Nothing is laid on the table during play.  If your hand can be melded, you "
            "may go out instead of discarding (see Going out)."
        )
    elif any_contract(r):
        meld = "Lay down your contract if you can"
        meld += (
            ", and once it is down lay off cards (see Laying off)."
            if r.lay_off.when != "never"
            else "."
        )
    else:
        meld = "Lay down any melds you like" + (
            " and lay off cards (see Laying off)." if r.lay_off.when != "never" else "."
        )
    discard = "Discard one card face up"
    discard += ", unless you have no cards left." if r.going_out.melding_during_play else "."
    if r.draw.no_immediate_rediscard and r.draw.discard != "none":
        discard += (
            "  You may not discard the single card you took from the discard pile this "
            "turn; if you took several, you may discard one of them."
        )
        discard += (
            "  You may throw it back as your last card, to go out." if r.draw.rediscard_to_go_out
            else "  Not even as your last card, to go out."
        )
    if r.draw.stock_only_after_contract and any_contract(r) and r.draw.discard != "none":
        draw += "  Once your contract is down you draw from the stock only."
    lines = [item("1.", draw), item("2.", meld), item("3.", discard)]
    return section("Your turn", lines)


def buying_section(r: Ruleset) -> str | None:
    b = r.buying
    if not b.enabled:
        return None
    penalty = (
        f", and takes {counted(b.penalty_cards, 'penalty card')} from the stock with it"
        if b.penalty_cards
        else ""
    )
    who = (
        "If several want it, the nearest in turn order gets it."
        if b.priority == "nearest"
        else "If several want it, whoever asks first gets it."
    )
    after = (
        "  A player whose contract is down may not buy."
        if not b.after_contract and any_contract(r)
        else ""
    )
    limit = (
        "There is no limit on buys."
        if b.limit_per_deal is None
        else f"Each player may buy at most {counted(b.limit_per_deal, 'time')} per round."
    )
    return section(
        "Buying",
        [
            para(
                "When the player in turn does not take the top discard, another player may "
                f"buy it{penalty}.  {who}  {limit}{after}"
            )
        ],
    )


def lay_off_section(r: Ruleset) -> str:
    when = r.lay_off.when
    onto = ("any meld on the table, yours or another player's" if r.lay_off.onto == "any"
            else "your own melds")
    if when == "never":
        text = "Nobody ever adds cards to the melds on the table."
    elif when == "always":
        text = (f"From your first turn you may lay off cards from your hand onto {onto}, if "
                "they extend it" + (", whether or not your contract is down."
                                    if any_contract(r) else "."))
    else:
        start = (
            "from the same turn"
            if when == "after_contract"
            else "from your next turn on (not the turn it goes down)"
        )
        text = (
            f"Once your contract is down ({start}) you may lay off cards from your hand onto "
            f"{onto}, if they extend it."
        )
        if not all(rnd.contract.required for rnd in r.rounds):
            text += " In a round without a contract you may lay off from your first turn."
    return section("Laying off", [para(text)])


def joker_swap_section(r: Ruleset) -> str | None:
    swap = r.joker_swap
    if not swap.enabled:
        return None
    if swap.when == "before_contract" and any_contract(r):
        who = "A player whose contract is not down yet"
    elif swap.when == "any":
        who = "Any player"
    else:
        who = (
            "A player whose contract went down on an earlier turn"
            if swap.contract_on_earlier_turn
            else "A player whose contract is down"
        )
    where = "in a run" if swap.runs_only else "in a meld"
    text = (
        f"{who} may put the natural card a joker {where} stands for in its place and take the joker"
    )
    text += ", which must be played in the same turn." if swap.play_same_turn else "."
    if swap.runs_only:
        text += "  Jokers in sets stay where they are."
    return section("Taking jokers", [para(text)])
