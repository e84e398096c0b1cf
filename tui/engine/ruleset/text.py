"""The rules of a `Ruleset` told in plain English, generated from the data.

Players read this (`rummy rules show`, the in-game rules screen) instead of the YAML, so
every knob that changes play must show here: a house rule edited in a file changes the
text.  Nothing here knows a game by name.  Each section is written by the module of its
part of the game (`text_setup`, `text_rounds`, `text_melds`, `text_turn`,
`text_round_end`, `text_scoring`), on the page `text_page` keeps.
"""

from __future__ import annotations

from ..rules import Ruleset
from .text_melds import contracts_section, melds_section
from .text_page import WIDTH, at_width, para
from .text_round_end import going_out_section, stock_section
from .text_rounds import rounds_section
from .text_scoring import end_section, scoring_section
from .text_setup import players_and_cards
from .text_turn import buying_section, joker_swap_section, lay_off_section, turn_section


def describe_rules(ruleset: Ruleset, width: int = WIDTH) -> str:
    """The full rules as sectioned plain text, for `rummy rules show` and the rules screen.

    Paragraphs are filled to `width` columns (at least `MIN_WIDTH`; tables keep their own
    width), so a narrow pane such as the editor's preview gets text that fits it.
    """
    with at_width(width):
        return _describe(ruleset)


def _describe(ruleset: Ruleset) -> str:
    r = ruleset
    title = r.name
    parts = [f"{title}\n{'=' * len(title)}"]
    if r.description:
        parts[0] += "\n" + para(r.description, indent="")
    sections = [
        players_and_cards(r),
        rounds_section(r),
        melds_section(r),
        contracts_section(r),
        turn_section(r),
        buying_section(r),
        lay_off_section(r),
        joker_swap_section(r),
        going_out_section(r),
        stock_section(r),
        scoring_section(r),
        end_section(r),
    ]
    parts += [section for section in sections if section]
    return "\n\n".join(parts) + "\n"
