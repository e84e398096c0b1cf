"""The rules text's sections on how a round ends: "Going out" (the discard, final turns,
knocking and gin, the bonuses) and "When the stock runs out"."""

from __future__ import annotations

from ..rules import Ruleset
from .text_page import counted, item, para, section


def _discard_rule(rule: str, melding: bool) -> str:
    if not melding:
        return {
            "required": "lays the melds face up and discards that last card",
            "optional": "lays the melds face up, discarding a card or not",
            "forbidden": "lays the whole hand face up as melds, with no discard",
        }[rule]
    return {
        "required": "the last card must be a discard",
        "optional": "the last card may be played by melding, laying off or discarding",
        "forbidden": "the last card must be melded or laid off; no going out by discarding",
    }[rule]


def going_out_section(r: Ruleset) -> str:
    g = r.going_out
    lines = []
    if not g.melding_during_play:
        single = "except exactly one card " if g.discard == "required" else ""
        text = (
            f"After drawing, a player whose whole hand {single}can be arranged in melds "
            f"declares: the player {_discard_rule(g.discard, False)}."
        )
    else:
        rule = _discard_rule(g.discard, True)
        text = f"The first player to get rid of every card goes out: {rule}."
    if g.final_turns:
        text += "  Every other player then gets exactly one more turn, in turn order"
        text += ", drawing from the stock only." if g.final_turns_from_stock else "."
    else:
        text += "  That ends the round at once for everyone."
    lines.append(para(text))
    for number in range(1, len(r.rounds) + 1):
        own = r.round(number).going_out_discard
        if own is not None and own != g.discard:
            lines.append(
                item("-", f"Round {number}: {_discard_rule(own, g.melding_during_play)}.")
            )
    if g.deadwood_limit and not g.melding_during_play:
        lines.append(
            para(
                f"Laying-down limit: you may go out keeping cards outside your melds worth up "
                f"to {g.deadwood_limit} points in all (besides the discard); they count "
                "against you."
            )
        )
    if g.bonus:
        verb = "adds" if g.bonus > 0 else "takes"
        lines.append(
            para(
                f"The player who goes out {verb} {abs(g.bonus)} points "
                f"{'to' if g.bonus > 0 else 'off'} their round score."
            )
        )
    if g.one_turn_bonus:
        verb = "adds" if g.one_turn_bonus > 0 else "takes"
        lines.append(
            para(
                "Going out in one turn (melding the whole hand at once, nothing melded "
                f"before) {verb} another {abs(g.one_turn_bonus)} points "
                f"{'to' if g.one_turn_bonus > 0 else 'off'} the round score."
            )
        )
    lines += [para(text) for text in _going_out_sentences(r)]
    return section("Going out", lines)


def stock_section(r: Ruleset) -> str:
    s = r.stock
    if s.when_empty == "end_round":
        text = "When the stock runs out, the round ends and is scored as it stands."
    else:
        text = (
            "When the stock runs out, the discard pile except its top card is shuffled into "
            "a new stock."
            if s.rebuild == "shuffle"
            else "When the stock runs out, the discard pile except its top card is turned "
            "over, without shuffling, as the new stock: the first card discarded is drawn "
            "first."
        )
        if s.max_rebuilds is None:
            text += "  The stock is rebuilt as often as it runs out."
        elif s.max_rebuilds:
            text += (
                f"  Once the stock has been rebuilt {counted(s.max_rebuilds, 'time')}, the round "
                "ends and is scored as it stands."
            )
        else:
            text += "  (The stock is never rebuilt: the round then ends as it stands.)"
    text += "  A round also ends that way when no card can be drawn"
    text += ("." if s.stocks is None else
             ", and after as many turns as there are cards in play"
             + (f" times {s.stocks}" if s.stocks > 1 else "")
             + " (players who only take discards never use the stock up).")
    return section("When the stock runs out", [para(text)])


def _points(n: int) -> str:
    verb = "adds" if n > 0 else "takes"
    return f"{verb} {abs(n)} point{'s' if abs(n) != 1 else ''} {'to' if n > 0 else 'off'}"


def _going_out_sentences(r: Ruleset) -> list[str]:
    """Sentences for the going-out section."""
    g = r.going_out
    lines = []
    if g.one_turn_multiplier > 1:
        when = ("Going out in one turn (melding the whole hand at once, nothing melded "
                "before)" if g.melding_during_play else "Going out")
        lines.append(f"{when} multiplies the points left in every other hand by "
                     f"{g.one_turn_multiplier}.")
    knocking = g.deadwood_limit > 0 and not g.melding_during_play
    if knocking:
        lines.append("Going out keeping cards outside your melds is knocking; going out "
                     "keeping none is gin.")
        if g.gin_bonus:
            lines.append(f"Gin {_points(g.gin_bonus)} the round score.")
        if g.big_gin_bonus is not None and g.discard == "optional":
            lines.append(f"Big gin (every card melded, the one just drawn too, and no "
                         f"discard) {_points(g.big_gin_bonus)} the round score instead.")
        if r.lay_off.onto_knocker:
            lines.append("After a knock each other player lays off onto the knocker's melds "
                         "whatever fits there (the engine does it for them); those cards no "
                         "longer count.  Nobody lays off onto a gin.")
    return lines
