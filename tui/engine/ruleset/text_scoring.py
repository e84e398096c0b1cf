"""The rules text's "Scoring" and "End of the game" sections: penalty values, wilds left
in hand, melds scoring plus, the undercut, and when the game ends and who wins."""

from __future__ import annotations

from ..cards import JOKER_RANK, RANK_NAMES
from ..rules import Ruleset
from .text_facts import has_jokers, jokers_wild
from .text_page import counted, para, section
from .text_progression import end_sentence


def _values_text(r: Ruleset) -> str:
    v = r.scoring.values
    parts = [f"A {v.get(1, 0)}"]
    if all(v.get(n, 0) == n for n in range(2, 11)):
        parts.append("2–10 face value")
    else:
        parts += [f"{n} {v.get(n, 0)}" for n in range(2, 11)]
    courts = [v.get(n, 0) for n in (11, 12, 13)]
    if len(set(courts)) == 1:
        parts.append(f"J, Q, K {courts[0]}")
    else:
        parts += [f"{RANK_NAMES[n]} {v.get(n, 0)}" for n in (11, 12, 13)]
    if has_jokers(r):
        parts.append(f"joker {v.get(JOKER_RANK, 0)}")
    return ", ".join(parts)


def scoring_section(r: Ruleset) -> str:
    sc = r.scoring
    lines = [
        para(
            "At the end of a round each player scores penalty points for the cards left in "
            f"hand: {_values_text(r)}."
        )
    ]
    if sc.score_best_arrangement:
        lines.append(
            para(
                "Each hand is first arranged into melds to leave the fewest points; only the "
                "cards outside those melds score."
            )
        )
    has_wilds = jokers_wild(r) or any(rnd.wild for rnd in r.rounds)
    if has_wilds:
        lines.append(
            para(
                f"A wild card left in hand scores {sc.wild_value}."
                if sc.wild_unmelded == "fixed"
                else "A wild card left in hand scores its face value."
            )
        )
    out = "The player who went out scores 0"
    if r.going_out.deadwood_limit and not r.going_out.melding_during_play:
        out += " plus any cards kept under the laying-down limit"
    out += (
        f" {'+' if r.going_out.bonus > 0 else '-'} {abs(r.going_out.bonus)}."
        if (r.going_out.bonus)
        else "."
    )
    if sc.out_player_collects:
        out = (
            "The player who went out collects: they score the points of every other hand "
            "(less any cards they kept), plus any going-out bonus, and the others score 0.  "
            "A round nobody goes out of scores 0 for everyone."
        )
    if sc.melded != "plus":  # else the player who went out scores their melds too
        lines.append(para(out))
    lines += [para(text) for text in _scoring_sentences(r)]
    return section("Scoring", lines)


def end_section(r: Ruleset) -> str:
    e = r.end
    best = "lowest" if e.winner == "lowest" else "highest"
    if r.per_player:
        text = end_sentence(r, best) or ""
    elif e.point_limit is None:
        text = f"After round {len(r.rounds)} the {best} total wins."
    else:
        text = (
            f"The game ends after the round in which a player's total reaches {e.point_limit} "
            f"points (or after {counted(e.max_rounds, 'round')} at most).  Then the {best} total "
            "wins."
        )
    text += {
        "share": "  Equal best totals share the win.",
        "last_round": "  Between equal best totals, the best score in the last round wins "
        "(then the round before, and so on); if still equal they share the win.",
        "most_outs": "  Between equal best totals, whoever went out in more rounds wins; if "
        "still equal they share the win.",
    }[e.tie_break]
    return section("End of the game", [para(text)])


def _scoring_sentences(r: Ruleset) -> list[str]:
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
