"""The rules text's "Melds" and "Contracts" sections, and the meld words other sections
borrow: the kinds of meld a round allows, melds of one colour, the cap on wilds per meld,
and the notes on a round's own meld rules (told in the rounds table, as what that round
changes)."""

from __future__ import annotations

from ..cards import HIGH_ACE, RANK_NAMES
from ..rules import MeldRules, Ruleset
from .text_facts import any_contract, jokers_wild
from .text_page import counted, item, para, section


def _size(least: int, most: int | None) -> str:
    """A set's or run's size in words: "3 or more cards", "exactly 3", "3 to 4"."""
    if most is None:
        return f"{least} or more cards"
    if most == least:
        return f"exactly {least} cards"
    return f"{least} to {most} cards"


def melds_section(r: Ruleset) -> str:
    s, run = r.melds.set, r.melds.run
    set_text = f"A set is {_size(s.min, s.max)} of one rank"
    set_text += (
        "; no two cards of a set may share a suit."
        if s.distinct_suits
        else (", any suits (with several decks a suit may repeat).")
    )
    run_size = _size(run.min, run.max)
    run_text = (
        f"A run is {run_size} of one suit in sequence."
        if run.same_suit
        else f"A run is {run_size} in sequence, of any suits (such as 5H-6S-7H)."
    )
    if not r.wrap and (run.lowest is not None or run.highest is not None):
        low = RANK_NAMES[run.lowest] if run.lowest else ("A" if r.ace_low else "2")
        high = RANK_NAMES[1 if run.highest == HIGH_ACE else run.highest] if run.highest else (
            "A" if r.ace_high else "K")
        run_text += f"  Runs use only the ranks from {low} up to {high}."
    colour = _colour_sentence(r.melds)
    if colour:
        run_text += "  " + colour
    only = _kinds_sentence(r.melds)
    groups = _colour_group_sentence(r)
    lines = [item("-", text) for text, shown in ((set_text, s.allowed),
                                                 (run_text, run.allowed),
                                                 (groups or "", groups is not None),
                                                 (only or "", only is not None)) if shown]
    lines.append(item("-", "A card belongs to one meld only."))
    wild_ranks = any(rnd.wild for rnd in r.rounds)
    kinds = []
    if jokers_wild(r):
        kinds.append("jokers")
    if wild_ranks:
        kinds.append("cards of the round's wild rank")
    if not kinds:
        lines.append(item("-", "There are no wild cards."))
        return section("Melds", lines)
    wild = " and ".join(kinds)
    text = f"Wild cards ({wild}) stand for any card in a set or run."
    if r.going_out.melding_during_play:
        text += " Whoever melds a wild card says which card it stands for; that never changes."
    lines.append(item("-", text))
    if r.melds.min_natural == 0:
        natural = "A meld may be made of wild cards only."
    else:
        least = counted(r.melds.min_natural, "natural (non-wild) card")
        natural = f"Every meld needs at least {least}."
    if wild_ranks:
        natural += (
            " A wild-rank card may also stand for itself; it then counts as natural."
            if r.melds.wild_rank_natural
            else " A card of the wild rank is always wild: it never counts as a natural card"
            " (three wild 2s are a meld of wild cards only)."
        )
    lines.append(item("-", natural))
    if r.melds.wilds_may_outnumber_naturals:
        ratio = "There is no limit on wild cards in a meld."
    else:
        ratio = (
            "A meld holding natural cards may not hold more wild cards than natural cards."
            if r.melds.min_natural == 0
            else "A meld may not hold more wild cards than natural cards."
        )
        if not r.melds.wild_ratio_on_lay_off and r.lay_off.when != "never":
            ratio += "  That is checked when a meld is laid down; laying off may add wild cards."
    cap = _wild_cap_sentence(r.melds)
    if cap and r.melds.wilds_may_outnumber_naturals:
        ratio = cap
    elif cap:
        ratio += f"  {cap}"
    lines.append(item("-", ratio))
    return section("Melds", lines)


def contracts_section(r: Ruleset) -> str | None:
    if not any_contract(r):
        return None
    longer = (
        "Contract melds are laid down at exactly their size; they grow only by laying off."
        if r.contract.exact_size
        else "Melds may be longer than the minimum."
    )
    lines = [
        para(
            "Each round has a contract (see Rounds): before anything else you must lay it "
            f"down, all its melds in one turn.  {longer}"
        )
    ]
    if any(rnd.contract.set_sizes or rnd.contract.run_sizes for rnd in r.rounds):
        lines.append(
            item(
                "-",
                "Where a contract gives a meld's size (\"a set of 4\"), that meld needs at "
                "least that many cards"
                + (" (exactly, see above)" if r.contract.exact_size else "")
                + ", whatever the size of other melds.",
            )
        )
    if any(rnd.contract.set_ranks for rnd in r.rounds):
        lines.append(
            item(
                "-",
                "Where a contract names a set's rank (\"a set of 2 As\"), that set must be of "
                "that rank"
                + ("" if r.contract.sets_same_rank else ", and the contract's other sets of "
                   "another rank")
                + ".",
            )
        )
    gap = r.contract.same_suit_gap
    apart = (
        "they are separate melds (they may overlap or touch)"
        if gap == 0
        else "they are separate melds: they may overlap, but not join end to end into one "
        "sequence"
        if gap == 1
        else f"they overlap or at least {counted(gap, 'rank')} lie between them"
    )
    if any(rnd.contract.runs > 1 for rnd in r.rounds) and r.melds.run.same_suit:
        lines.append(
            item(
                "-",
                {
                    "forbidden": "Runs of one contract must all be of different suits.",
                    "separate": f"Runs of one contract may share a suit if {apart}.",
                    "allowed": "Runs of one contract may be of any suits.",
                }[r.contract.runs_same_suit],
            )
        )
    if any(rnd.contract.sets > 1 for rnd in r.rounds):
        lines.append(
            item(
                "-",
                "Sets of one contract may be of the same rank."
                if r.contract.sets_same_rank
                else "Sets of one contract must be of different ranks.",
            )
        )
    if not all(rnd.contract.required for rnd in r.rounds):
        lines.append(item("-", "In a round without a contract you may meld from your first turn."))
    return section("Contracts", lines)


def _wild_cap_sentence(m: MeldRules) -> str | None:
    """The sentence for `melds.max_wilds`, or None without a cap."""
    if m.max_wilds is None:
        return None
    if m.max_wilds == 0:
        return "No meld may hold a wild card (a wild-rank card standing for itself is natural)."
    plural = "s" if m.max_wilds != 1 else ""
    return (f"A meld may hold at most {m.max_wilds} wild card{plural}, laying off "
            "included.")


def _colour_sentence(m: MeldRules) -> str | None:
    """The sentence for melds of one colour (`melds.set.one_colour`, `melds.run.one_colour`),
    or None."""
    kinds = [kind for kind, on in (("set", m.set.one_colour),
                                   ("run", m.run.one_colour and not m.run.same_suit)) if on]
    if not kinds:
        return None
    return (f"Every {' and every '.join(kinds)} is of one colour: all red (hearts, diamonds) "
            "or all black (clubs, spades); a wild fills in for either colour.")


def _colour_group_sentence(r: Ruleset) -> str | None:
    """The sentence for groups of one colour (`contract.colours`, `melds.colour`), or None
    where no contract asks for one."""
    if not any(o.colours for rnd in r.rounds for o in rnd.contract.options()):
        return None
    given = all(o.colour_sizes for rnd in r.rounds for o in rnd.contract.options()
                if o.colours)
    least = "" if given else f" (at least {r.melds.colour.min})"
    most = "" if r.melds.colour.max is None else f", at most {r.melds.colour.max}"
    return ("A group of one colour is cards all red (hearts, diamonds) or all black (clubs, "
            f"spades) in any ranks, such as 3H 9D QH 5D: as many as the contract asks{least}"
            f"{most}. It is laid down only where a contract asks for one; a card of its "
            "colour or a wild may then be laid off onto it.")


def _kinds_sentence(m: MeldRules) -> str | None:
    """The sentence for a kind of meld the game does not allow, or None."""
    if not m.set.allowed and not m.run.allowed:
        return "No melds are allowed at all."
    if not m.set.allowed:
        return "There are no sets: melds are runs only."
    if not m.run.allowed:
        return "There are no runs: melds are sets only."
    return None


def round_meld_notes(r: Ruleset, number: int) -> list[str]:
    """Short notes on what round `number`'s own meld rules change from the game's."""
    own_exact = r.round(number).contract.exact_size
    sizes = [] if own_exact is None or own_exact == r.contract.exact_size else [
        "contract melds of exactly their size" if own_exact else "contract melds may be longer"]
    mine = r.round(number).melds
    if mine is None:
        return sizes
    game = r.melds
    notes = sizes
    if mine.set.allowed != game.set.allowed or mine.run.allowed != game.run.allowed:
        notes.append({(True, True): "sets and runs", (False, True): "runs only",
                      (True, False): "sets only", (False, False): "no melds"}[
            (mine.set.allowed, mine.run.allowed)])
    if mine.run.same_suit != game.run.same_suit:
        notes.append("runs of any suits" if not mine.run.same_suit else "runs of one suit")
    if mine.max_wilds != game.max_wilds:
        notes.append("no limit on wilds" if mine.max_wilds is None else
                     "no wild in a meld" if mine.max_wilds == 0 else
                     f"at most {mine.max_wilds} wild{'s' if mine.max_wilds != 1 else ''} "
                     "a meld")
    for kind, ours, theirs in (("set", mine.set, game.set), ("run", mine.run, game.run)):
        if (ours.min, ours.max) != (theirs.min, theirs.max):
            most = "" if ours.max is None else f"-{ours.max}"
            notes.append(f"{kind}s of {ours.min}{most}{'+' if ours.max is None else ''}")
    if mine.colour != game.colour:
        most = "" if mine.colour.max is None else f"-{mine.colour.max}"
        notes.append(f"groups of one colour of {mine.colour.min}{most}"
                     f"{'+' if mine.colour.max is None else ''}")
    for kind, ours_on, theirs_on in (
            ("sets", mine.set.one_colour, game.set.one_colour),
            ("runs", mine.run.one_colour and not mine.run.same_suit,
             game.run.one_colour and not game.run.same_suit)):
        if ours_on != theirs_on:
            notes.append(f"{kind} of one colour" if ours_on else f"{kind} of any colours")
    if mine.set.distinct_suits != game.set.distinct_suits:
        notes.append("sets of distinct suits" if mine.set.distinct_suits
                     else "sets of any suits")
    if (mine.run.lowest, mine.run.highest) != (game.run.lowest, game.run.highest):
        notes.append("own run ranks")
    if (mine.min_natural, mine.wilds_may_outnumber_naturals, mine.wild_rank_natural,
            mine.wild_ratio_on_lay_off) != (game.min_natural,
                                            game.wilds_may_outnumber_naturals,
                                            game.wild_rank_natural, game.wild_ratio_on_lay_off):
        notes.append("own wild rules")
    return notes


ROUND_MELDS_SENTENCE = (
    "A round noted with meld rules of its own (such as \"runs only\" or \"no wild in a "
    "meld\") plays by them instead of those under Melds."
)
