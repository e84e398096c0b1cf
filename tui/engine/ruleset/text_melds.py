"""The `rules show` words for the meld keys kept in `schema_melds`: kinds of meld a round
allows, the cap on wilds per meld, and a round's own meld rules (told in the Notes column
of the rounds table, as what that round changes)."""

from __future__ import annotations

from ..rules import MeldRules, Ruleset


def wild_cap_sentence(m: MeldRules) -> str | None:
    """The sentence for `melds.max_wilds`, or None without a cap."""
    if m.max_wilds is None:
        return None
    if m.max_wilds == 0:
        return "No meld may hold a wild card (a wild-rank card standing for itself is natural)."
    plural = "s" if m.max_wilds != 1 else ""
    return (f"A meld may hold at most {m.max_wilds} wild card{plural}, laying off "
            "included.")


def colour_sentence(m: MeldRules) -> str | None:
    """The sentence for melds of one colour (`melds.set.one_colour`, `melds.run.one_colour`),
    or None."""
    kinds = [kind for kind, on in (("set", m.set.one_colour),
                                   ("run", m.run.one_colour and not m.run.same_suit)) if on]
    if not kinds:
        return None
    return (f"Every {' and every '.join(kinds)} is of one colour: all red (hearts, diamonds) "
            "or all black (clubs, spades); a wild fills in for either colour.")


def colour_group_sentence(r: Ruleset) -> str | None:
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


def kinds_sentence(m: MeldRules) -> str | None:
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
