"""`scoring.melded: plus` and `scoring.low_ace_value` (Rummy 500): every card on the table
scores for the player who put it there, lay-offs onto another's meld included, the cards
left in hand count minus, and an ace scores 1 low in A-2-3 and 15 anywhere else.  The deal
below is played under each setting, so each test fails if its key stops changing it."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_rig import cards, rig

from tui.engine.actions import Discard, DrawStock, LayDown, LayOff, MeldSpec
from tui.engine.cards import parse_card
from tui.engine.game import Game
from tui.engine.melded_points import played_by
from tui.engine.ruleset.errors import RulesetError
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text
from tui.engine.ruleset.text import describe_rules
from tui.engine.view import Event

RECIPE = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "rummy_500.yaml"
HANDS = ["AS 2S 3S 7C 7D 7H QH KH AH 4D 5D 9C JC",
         "4S 10C 10D 2C 3D 6H 6C 9S 8H AC JD KD QS"]
SEAT_1_HAND = 10 + 10 + 2 + 3 + 6 + 6 + 9 + 8 + 15 + 10 + 10 + 10  # the ace in hand: 15
SEAT_0_MELDS = (1 + 2 + 3) + 21 + (10 + 10 + 15) + (4 + 5 + 6) + 7  # A-2-3 low, Q-K-A high


def variant(scoring: str = "") -> Game:
    """The Rummy 500 recipe, with `scoring` keys written over it."""
    text = f"extends: {RECIPE.name}\n" + (f"scoring: {{{scoring}}}\n" if scoring else "")
    rules = load_ruleset_text(text, file=str(RECIPE.parent / "house.yaml"),
                              base_dir=RECIPE.parent)
    return Game(rules, ["P0", "P1"], 5)


def lay(g: Game, seat: int, *melds: str) -> None:
    g.apply(LayDown(seat, tuple(MeldSpec(cards(g, seat, m)) for m in melds)))


def play_the_deal(g: Game) -> None:
    """Seat 0 melds four melds, seat 1 lays 4S off onto seat 0's A-2-3, seat 0 lays 7S off
    onto its own 7s and goes out by discarding."""
    rig(g, HANDS, discard="5H", stock_top="6D 2H 7S", turn=0)
    g.apply(DrawStock(0))  # 6D
    lay(g, 0, "AS 2S 3S", "7C 7D 7H", "QH KH AH", "4D 5D 6D")
    g.apply(Discard(0, cards(g, 0, "JC")[0]))
    g.apply(DrawStock(1))  # 2H
    run = next(m for m in g.round.table if m.kind == "run" and m.suit == "S")
    g.apply(LayOff(1, run.id, cards(g, 1, "4S")))
    g.apply(Discard(1, cards(g, 1, "2H")[0]))
    g.apply(DrawStock(0))  # 7S
    sevens = next(m for m in g.round.table if m.kind == "set")
    g.apply(LayOff(0, sevens.id, cards(g, 0, "7S")))
    g.apply(Discard(0, cards(g, 0, "9C")[0]))


def test_melds_score_plus_for_who_played_them_and_the_hand_minus() -> None:
    g = variant()
    play_the_deal(g)
    result = g.results[-1]
    assert result.went_out == 0
    # seat 1 scores the 4S it laid off onto seat 0's run, less its hand
    assert result.points == (SEAT_0_MELDS, 4 - SEAT_1_HAND)
    assert g.totals == [SEAT_0_MELDS, 4 - SEAT_1_HAND]


def test_a_low_ace_scores_its_value_without_low_ace_value() -> None:
    g = variant("low_ace_value: null")
    play_the_deal(g)
    assert g.results[-1].points == (SEAT_0_MELDS - 1 + 15, 4 - SEAT_1_HAND)


def test_without_melder_scoring_only_the_hand_scores() -> None:
    g = variant("melded: none, low_ace_value: null")
    play_the_deal(g)
    assert g.results[-1].points == (0, SEAT_1_HAND)


def test_the_game_ends_when_a_total_reaches_500_and_the_highest_wins() -> None:
    g = variant()
    g.totals = [500 - SEAT_0_MELDS - 1, 480]
    play_the_deal(g)
    assert g.phase == "round_over"  # 499 and 476: nobody there yet
    g.next_round()
    g.totals = [500 - SEAT_0_MELDS, 480]
    play_the_deal(g)
    assert g.phase == "game_over" and g.totals == [500, 480 + 4 - SEAT_1_HAND]
    assert g.winners == (0,)


def test_who_played_a_card_follows_swaps_and_stacked_deals() -> None:
    c = {t: parse_card(t, uid=i) for i, t in enumerate("5H 6H JK 7H 9C".split())}
    log = [
        Event(-1, "Deal 1", "deal", 1), Event(0, "", "meld", 1, (c["5H"], c["6H"], c["JK"])),
        Event(-1, "scored", "score", 1),
        Event(1, "Deal 2", "deal", 2), Event(0, "", "meld", 2, (c["9C"],)),
        Event(1, "Deal 2", "deal", 2),  # re-dealt (stacked): what went before is gone
        Event(0, "", "meld", 2, (c["5H"], c["6H"], c["JK"])),
        Event(1, "", "swap", 2, (c["7H"], c["JK"])),  # 7H in, the joker out
        Event(1, "", "lay_off", 2, (c["JK"],)),
    ]
    owner = played_by(log, 2)
    assert owner == {c["5H"].uid: 0, c["6H"].uid: 0, c["7H"].uid: 1, c["JK"].uid: 1}
    assert played_by(log[:3], 1) == {c["5H"].uid: 0, c["6H"].uid: 0, c["JK"].uid: 0}


@pytest.mark.parametrize(("keys", "words"), [
    ("melded: plus, out_player_collects: true", "cannot both hold"),
    ("melded: none, low_ace_value: 1", "needs `scoring.melded: plus`"),
    ("melded: minus", "must be one of none, plus"),
])
def test_scoring_keys_that_cannot_work_together_are_refused(keys: str, words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        variant(keys)


def test_melder_scoring_with_the_lowest_total_winning_is_warned() -> None:
    from tui.engine.ruleset.footguns import footgun_warnings
    from tui.engine.ruleset.marked_yaml import compose_located

    doc, errors = compose_located("scoring: {melded: plus}\nend: {winner: lowest}\n", "x.yaml")
    assert not errors
    [warning] = footgun_warnings(doc)
    assert "end.winner: highest" in str(warning) and "x.yaml:1:" in str(warning)


def test_rules_show_says_melds_score_plus() -> None:
    text = " ".join(describe_rules(load_ruleset(RECIPE)).split())
    assert "every card you melded or laid off this round (onto anyone's meld) scores" in text
    assert "A melded ace low in a run (A-2-3) scores 1" in text
    assert "The player who went out scores 0" not in text
