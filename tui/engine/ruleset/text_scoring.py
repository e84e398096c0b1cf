"""The `rules show` sentences of the scoring keys kept in `schema_scoring`: going "rummy"
multiplied, knocking and gin, and melder scoring.  Each function gives the sentences for
one section of `text`, which fills them to the page's width."""

from __future__ import annotations

from ..rules import Ruleset


def _points(n: int) -> str:
    verb = "adds" if n > 0 else "takes"
    return f"{verb} {abs(n)} point{'s' if abs(n) != 1 else ''} {'to' if n > 0 else 'off'}"


def going_out_sentences(r: Ruleset) -> list[str]:
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


def scoring_sentences(r: Ruleset) -> list[str]:
    """Sentences for the scoring section."""
    sc = r.scoring
    lines = []
    if sc.melded == "plus":
        text = ("Melds score plus: every card you melded or laid off this round (onto "
                "anyone's meld) scores its value for you, and the cards left in your hand "
                "count minus.")
        if sc.low_ace_value is not None:
            text += (f"  A melded ace low in a run (A-2-3) scores {sc.low_ace_value}; "
                     "anywhere else it scores its value.")
        lines.append(text)
    knocking = r.going_out.deadwood_limit > 0 and not r.going_out.melding_during_play
    if sc.undercut_bonus is not None and sc.out_player_collects and knocking:
        lines.append("Undercut: if another player's hand counts the same as the knocker's "
                     "or less, that player (the lowest) collects the difference plus "
                     f"{sc.undercut_bonus}, and the knocker scores 0.")
    return lines
