"""The rules text's "Rounds" section: the table of rounds (cards, wild rank, contract, and
what a round changes), the deals that depend on the player count, and the notes under it.
"""

from __future__ import annotations

from ..cards import RANK_NAMES
from ..rules import Ruleset
from .text_facts import any_contract
from .text_melds import ROUND_MELDS_SENTENCE, round_meld_notes
from .text_page import counted, para, section, span
from .text_progression import phases_sentence


def _round_notes(r: Ruleset, number: int) -> str:
    rnd = r.round(number)
    notes = []
    if rnd.all_at_once:
        notes.append("all at once")
    if rnd.going_out_discard is not None and rnd.going_out_discard != r.going_out.discard:
        notes.append(
            {
                "required": "go out with a discard",
                "optional": "final discard optional",
                "forbidden": "go out without a discard",
            }[rnd.going_out_discard]
        )
    notes += round_meld_notes(r, number)
    return ", ".join(notes)


def rounds_section(r: Ruleset) -> str:
    header = ["Round", "Cards"]
    show_wild = any(rnd.wild for rnd in r.rounds)
    show_contract = any_contract(r)
    numbers = range(1, len(r.rounds) + 1)
    show_notes = any(_round_notes(r, n) for n in numbers)
    if show_wild:
        header.append("Wild")
    if show_contract:
        header.append("Contract")
    if show_notes:
        header.append("Notes")
    rows = []
    for number in numbers:
        rnd = r.round(number)
        row = [str(number), "/".join(str(n) for _, n in rnd.cards_by_players) or str(rnd.cards)]
        if show_wild:
            row.append(", ".join(RANK_NAMES[rank] for rank in rnd.wild) or "-")
        if show_contract:
            row.append(rnd.contract.describe() if rnd.contract.required else "-")
        if show_notes:
            row.append(_round_notes(r, number) or "-")
        rows.append(row)
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]

    def fmt(row: list[str]) -> str:
        cells = [
            cell.rjust(width) if i < 2 else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        return ("  " + "  ".join(cells)).rstrip()

    lines = [para(f"The game has {counted(len(r.rounds), 'round')}:"), fmt(header)]
    lines += [fmt(row) for row in rows]
    by_players = sorted({rnd.cards_by_players for rnd in r.rounds if rnd.cards_by_players})
    for table in by_players:
        counts = []
        for k, (start, cards) in enumerate(table):
            low = r.players_min if k == 0 else start
            high = table[k + 1][0] - 1 if k + 1 < len(table) else r.players_max
            if low <= high:
                counts.append(f"{span(low, high)} players {cards}")
        lines.append(para(f"Cards dealt ({'/'.join(str(n) for _, n in table)}): "
                           f"{', '.join(counts)}."))
    if show_wild:
        lines.append(para("In each round every card of the round's wild rank is wild."))
    if any(rnd.all_at_once for rnd in r.rounds):
        lines.append(
            para(
                "All at once: the contract may only be laid down by melding the whole hand "
                "in one turn, going out (where that round goes out with a discard, every "
                "card but the one discarded)."
            )
        )
    if any(rnd.melds is not None for rnd in r.rounds):
        lines.append(para(ROUND_MELDS_SENTENCE))
    if r.end.point_limit is not None:
        lines.append(para("The schedule starts again from round 1 until the game ends (see End)."))
    phases = phases_sentence(r)
    if phases:
        lines.append(para(phases))
    return section("Rounds", lines)
