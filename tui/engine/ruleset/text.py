"""The rules of a `Ruleset` told in plain English, generated from the data.

Players read this (`rummy rules show`, the in-game rules screen) instead of the YAML, so
every knob that changes play must show here: a house rule edited in a file changes the
text.  Nothing here knows a game by name.
"""

from __future__ import annotations

import textwrap
from contextvars import ContextVar

from ..cards import HIGH_ACE, JOKER_RANK, RANK_NAMES
from ..rules import DeckSpec, Ruleset
from .text_melds import (
    ROUND_MELDS_SENTENCE,
    colour_group_sentence,
    colour_sentence,
    kinds_sentence,
    round_meld_notes,
    wild_cap_sentence,
)
from .text_progression import end_sentence, phases_sentence
from .text_scoring import going_out_sentences, scoring_sentences

WIDTH = 78
MIN_WIDTH = 30
# The width of the text being written (`describe_rules(width=...)`): a context variable,
# not a parameter of every helper, and safe for many apps on one event loop.
_width: ContextVar[int] = ContextVar("rules_text_width", default=WIDTH)


def _n(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _para(text: str, indent: str = "  ") -> str:
    return textwrap.fill(
        " ".join(text.split()), _width.get(), initial_indent=indent, subsequent_indent=indent
    )


def _item(mark: str, text: str, indent: str = "  ") -> str:
    """A bullet or numbered item with its continuation lines hanging under the text."""
    first = f"{indent}{mark} "
    return textwrap.fill(
        " ".join(text.split()),
        _width.get(),
        initial_indent=first,
        subsequent_indent=" " * len(first),
    )


def _section(title: str, lines: list[str]) -> str:
    return "\n".join([title, "-" * len(title), *lines])


def _range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def _deck_text(spec: DeckSpec) -> str:
    cards = spec.decks * 52 + spec.jokers
    jokers = f" and {_n(spec.jokers, 'joker')}" if spec.jokers else ""
    return f"{_n(spec.decks, 'deck')}{jokers} ({cards} cards)"


def _has_jokers(r: Ruleset) -> bool:
    return any(spec.jokers for spec in r.decks if spec.players <= r.players_max)


def _jokers_wild(r: Ruleset) -> bool:
    return r.jokers_wild and _has_jokers(r)


def _any_contract(r: Ruleset) -> bool:
    return any(rnd.contract.required for rnd in r.rounds)


def _players_and_cards(r: Ruleset) -> str:
    lines = [_para(f"{_range(r.players_min, r.players_max)} players.")]
    specs = [s for s in r.decks if s.players <= r.players_max]
    for index, spec in enumerate(specs):
        low = max(spec.players, r.players_min)
        high = specs[index + 1].players - 1 if index + 1 < len(specs) else r.players_max
        if low <= high:
            lines.append(_item("-", f"{_range(low, high)} players: {_deck_text(spec)}."))
    ace = {
        "low": "Aces are low: A-2-3 is a run, Q-K-A is not.",
        "high": "Aces are high: Q-K-A is a run, A-2-3 is not.",
        "both": "Aces are high or low: A-2-3 and Q-K-A are runs, but an ace is never both "
        "ends of one run.",
    }[r.ace]
    wrap = (
        "Runs may turn the corner (such as Q-K-A-2)."
        if r.wrap
        else "Runs do not turn the corner (no K-A-2)."
    )
    high_ace = r.ace == "high" if r.dealer_ace == "ranks" else r.dealer_ace == "high"
    aces = " (aces count high)" if high_ace else " (aces count low)"
    dealer = {
        "random": "The first dealer is chosen at random",
        "lowest_card": f"Everyone draws a card and the lowest deals first{aces}",
        "highest_card": f"Everyone draws a card and the highest deals first{aces}",
    }[r.dealer]
    lines.append(_para(f"{ace} {wrap}"))
    lines.append(
        _para(
            f"{dealer}; the deal then passes to the left each round.  Cards are dealt one at "
            "a time; the rest form the face-down stock, and its top card is turned up to "
            "start the discard pile.  Play starts left of the dealer and goes clockwise."
        )
    )
    return _section("Players and cards", lines)


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


def _rounds(r: Ruleset) -> str:
    header = ["Round", "Cards"]
    show_wild = any(rnd.wild for rnd in r.rounds)
    show_contract = _any_contract(r)
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

    lines = [_para(f"The game has {_n(len(r.rounds), 'round')}:"), fmt(header)]
    lines += [fmt(row) for row in rows]
    by_players = sorted({rnd.cards_by_players for rnd in r.rounds if rnd.cards_by_players})
    for table in by_players:
        counts = []
        for k, (start, cards) in enumerate(table):
            low = r.players_min if k == 0 else start
            high = table[k + 1][0] - 1 if k + 1 < len(table) else r.players_max
            if low <= high:
                counts.append(f"{_range(low, high)} players {cards}")
        lines.append(_para(f"Cards dealt ({'/'.join(str(n) for _, n in table)}): "
                           f"{', '.join(counts)}."))
    if show_wild:
        lines.append(_para("In each round every card of the round's wild rank is wild."))
    if any(rnd.all_at_once for rnd in r.rounds):
        lines.append(
            _para(
                "All at once: the contract may only be laid down by melding the whole hand "
                "in one turn, going out (where that round goes out with a discard, every "
                "card but the one discarded)."
            )
        )
    if any(rnd.melds is not None for rnd in r.rounds):
        lines.append(_para(ROUND_MELDS_SENTENCE))
    if r.end.point_limit is not None:
        lines.append(_para("The schedule starts again from round 1 until the game ends (see End)."))
    phases = phases_sentence(r)
    if phases:
        lines.append(_para(phases))
    return _section("Rounds", lines)


def _melds(r: Ruleset) -> str:
    s, run = r.melds.set, r.melds.run
    if s.max is None:
        size = f"{s.min} or more cards"
    elif s.max == s.min:
        size = f"exactly {s.min} cards"
    else:
        size = f"{s.min} to {s.max} cards"
    set_text = f"A set is {size} of one rank"
    set_text += (
        "; no two cards of a set may share a suit."
        if s.distinct_suits
        else (", any suits (with several decks a suit may repeat).")
    )
    if run.max is None:
        run_size = f"{run.min} or more cards"
    elif run.max == run.min:
        run_size = f"exactly {run.min} cards"
    else:
        run_size = f"{run.min} to {run.max} cards"
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
    colour = colour_sentence(r.melds)
    if colour:
        run_text += "  " + colour
    only = kinds_sentence(r.melds)
    groups = colour_group_sentence(r)
    lines = [_item("-", text) for text, shown in ((set_text, s.allowed),
                                                 (run_text, run.allowed),
                                                 (groups or "", groups is not None),
                                                 (only or "", only is not None)) if shown]
    lines.append(_item("-", "A card belongs to one meld only."))
    wild_ranks = any(rnd.wild for rnd in r.rounds)
    kinds = []
    if _jokers_wild(r):
        kinds.append("jokers")
    if wild_ranks:
        kinds.append("cards of the round's wild rank")
    if not kinds:
        lines.append(_item("-", "There are no wild cards."))
        return _section("Melds", lines)
    wild = " and ".join(kinds)
    text = f"Wild cards ({wild}) stand for any card in a set or run."
    if r.going_out.melding_during_play:
        text += " Whoever melds a wild card says which card it stands for; that never changes."
    lines.append(_item("-", text))
    if r.melds.min_natural == 0:
        natural = "A meld may be made of wild cards only."
    else:
        natural = f"Every meld needs at least {_n(r.melds.min_natural, 'natural (non-wild) card')}."
    if wild_ranks:
        natural += (
            " A wild-rank card may also stand for itself; it then counts as natural."
            if r.melds.wild_rank_natural
            else " A card of the wild rank is always wild: it never counts as a natural card"
            " (three wild 2s are a meld of wild cards only)."
        )
    lines.append(_item("-", natural))
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
    cap = wild_cap_sentence(r.melds)
    if cap and r.melds.wilds_may_outnumber_naturals:
        ratio = cap
    elif cap:
        ratio += f"  {cap}"
    lines.append(_item("-", ratio))
    return _section("Melds", lines)


def _contracts(r: Ruleset) -> str | None:
    if not _any_contract(r):
        return None
    longer = (
        "Contract melds are laid down at exactly their size; they grow only by laying off."
        if r.contract.exact_size
        else "Melds may be longer than the minimum."
    )
    lines = [
        _para(
            "Each round has a contract (see Rounds): before anything else you must lay it "
            f"down, all its melds in one turn.  {longer}"
        )
    ]
    if any(rnd.contract.set_sizes or rnd.contract.run_sizes for rnd in r.rounds):
        lines.append(
            _item(
                "-",
                "Where a contract gives a meld's size (\"a set of 4\"), that meld needs at "
                "least that many cards"
                + (" (exactly, see above)" if r.contract.exact_size else "")
                + ", whatever the size of other melds.",
            )
        )
    if any(rnd.contract.set_ranks for rnd in r.rounds):
        lines.append(
            _item(
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
        else f"they overlap or at least {_n(gap, 'rank')} lie between them"
    )
    if any(rnd.contract.runs > 1 for rnd in r.rounds) and r.melds.run.same_suit:
        lines.append(
            _item(
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
            _item(
                "-",
                "Sets of one contract may be of the same rank."
                if r.contract.sets_same_rank
                else "Sets of one contract must be of different ranks.",
            )
        )
    if not all(rnd.contract.required for rnd in r.rounds):
        lines.append(_item("-", "In a round without a contract you may meld from your first turn."))
    return _section("Contracts", lines)


def _turn(r: Ruleset) -> str:
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
    elif _any_contract(r):
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
    if r.draw.stock_only_after_contract and _any_contract(r) and r.draw.discard != "none":
        draw += "  Once your contract is down you draw from the stock only."
    lines = [_item("1.", draw), _item("2.", meld), _item("3.", discard)]
    return _section("Your turn", lines)


def _buying(r: Ruleset) -> str | None:
    b = r.buying
    if not b.enabled:
        return None
    penalty = (
        f", and takes {_n(b.penalty_cards, 'penalty card')} from the stock with it"
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
        if not b.after_contract and _any_contract(r)
        else ""
    )
    limit = (
        "There is no limit on buys."
        if b.limit_per_deal is None
        else f"Each player may buy at most {_n(b.limit_per_deal, 'time')} per round."
    )
    return _section(
        "Buying",
        [
            _para(
                "When the player in turn does not take the top discard, another player may "
                f"buy it{penalty}.  {who}  {limit}{after}"
            )
        ],
    )


def _lay_off(r: Ruleset) -> str:
    when = r.lay_off.when
    onto = ("any meld on the table, yours or another player's" if r.lay_off.onto == "any"
            else "your own melds")
    if when == "never":
        text = "Nobody ever adds cards to the melds on the table."
    elif when == "always":
        text = (f"From your first turn you may lay off cards from your hand onto {onto}, if "
                "they extend it" + (", whether or not your contract is down."
                                    if _any_contract(r) else "."))
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
    return _section("Laying off", [_para(text)])


def _joker_swap(r: Ruleset) -> str | None:
    swap = r.joker_swap
    if not swap.enabled:
        return None
    if swap.when == "before_contract" and _any_contract(r):
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
    return _section("Taking jokers", [_para(text)])


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


def _going_out(r: Ruleset) -> str:
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
    lines.append(_para(text))
    for number in range(1, len(r.rounds) + 1):
        own = r.round(number).going_out_discard
        if own is not None and own != g.discard:
            lines.append(
                _item("-", f"Round {number}: {_discard_rule(own, g.melding_during_play)}.")
            )
    if g.deadwood_limit and not g.melding_during_play:
        lines.append(
            _para(
                f"Laying-down limit: you may go out keeping cards outside your melds worth up "
                f"to {g.deadwood_limit} points in all (besides the discard); they count "
                "against you."
            )
        )
    if g.bonus:
        verb = "adds" if g.bonus > 0 else "takes"
        lines.append(
            _para(
                f"The player who goes out {verb} {abs(g.bonus)} points "
                f"{'to' if g.bonus > 0 else 'off'} their round score."
            )
        )
    if g.one_turn_bonus:
        verb = "adds" if g.one_turn_bonus > 0 else "takes"
        lines.append(
            _para(
                "Going out in one turn (melding the whole hand at once, nothing melded "
                f"before) {verb} another {abs(g.one_turn_bonus)} points "
                f"{'to' if g.one_turn_bonus > 0 else 'off'} the round score."
            )
        )
    lines += [_para(text) for text in going_out_sentences(r)]
    return _section("Going out", lines)


def _stock(r: Ruleset) -> str:
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
                f"  Once the stock has been rebuilt {_n(s.max_rebuilds, 'time')}, the round "
                "ends and is scored as it stands."
            )
        else:
            text += "  (The stock is never rebuilt: the round then ends as it stands.)"
    text += "  A round also ends that way when no card can be drawn"
    text += ("." if s.stocks is None else
             ", and after as many turns as there are cards in play"
             + (f" times {s.stocks}" if s.stocks > 1 else "")
             + " (players who only take discards never use the stock up).")
    return _section("When the stock runs out", [_para(text)])


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
    if _has_jokers(r):
        parts.append(f"joker {v.get(JOKER_RANK, 0)}")
    return ", ".join(parts)


def _scoring(r: Ruleset) -> str:
    sc = r.scoring
    lines = [
        _para(
            "At the end of a round each player scores penalty points for the cards left in "
            f"hand: {_values_text(r)}."
        )
    ]
    if sc.score_best_arrangement:
        lines.append(
            _para(
                "Each hand is first arranged into melds to leave the fewest points; only the "
                "cards outside those melds score."
            )
        )
    has_wilds = _jokers_wild(r) or any(rnd.wild for rnd in r.rounds)
    if has_wilds:
        lines.append(
            _para(
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
        lines.append(_para(out))
    lines += [_para(text) for text in scoring_sentences(r)]
    return _section("Scoring", lines)


def _end(r: Ruleset) -> str:
    e = r.end
    best = "lowest" if e.winner == "lowest" else "highest"
    if r.per_player:
        text = end_sentence(r, best) or ""
    elif e.point_limit is None:
        text = f"After round {len(r.rounds)} the {best} total wins."
    else:
        text = (
            f"The game ends after the round in which a player's total reaches {e.point_limit} "
            f"points (or after {_n(e.max_rounds, 'round')} at most).  Then the {best} total "
            "wins."
        )
    text += {
        "share": "  Equal best totals share the win.",
        "last_round": "  Between equal best totals, the best score in the last round wins "
        "(then the round before, and so on); if still equal they share the win.",
        "most_outs": "  Between equal best totals, whoever went out in more rounds wins; if "
        "still equal they share the win.",
    }[e.tie_break]
    return _section("End of the game", [_para(text)])


def describe_rules(ruleset: Ruleset, width: int = WIDTH) -> str:
    """The full rules as sectioned plain text, for `rummy rules show` and the rules screen.

    Paragraphs are filled to `width` columns (at least `MIN_WIDTH`; tables keep their own
    width), so a narrow pane such as the editor's preview gets text that fits it.
    """
    token = _width.set(max(width, MIN_WIDTH))
    try:
        return _describe(ruleset)
    finally:
        _width.reset(token)


def _describe(ruleset: Ruleset) -> str:
    r = ruleset
    title = r.name
    parts = [f"{title}\n{'=' * len(title)}"]
    if r.description:
        parts[0] += "\n" + _para(r.description, indent="")
    sections = [
        _players_and_cards(r),
        _rounds(r),
        _melds(r),
        _contracts(r),
        _turn(r),
        _buying(r),
        _lay_off(r),
        _joker_swap(r),
        _going_out(r),
        _stock(r),
        _scoring(r),
        _end(r),
    ]
    parts += [section for section in sections if section]
    return "\n\n".join(parts) + "\n"
