"""The app's pure parts: hand arrangement, action building, settings, card art, words."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.style import Style

from tui.app import intents
from tui.app.cardart import Canvas, CardStyle, chip, fan_step, fan_width, paint_small
from tui.app.describe import deal_label, prompt
from tui.app.hand_model import HandModel
from tui.app.settings import Settings, SettingsStore
from tui.app.widgets.chart import line_marks, totals_plot
from tui.app.widgets.scoresheet import leaders, running_totals
from tui.engine.actions import Discard, DrawStock, TakeDiscard
from tui.engine.cards import Card, parse_cards
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.view import PlayerInfo, SeatView


def cards_with_uids(text: str) -> list[Card]:
    return [Card(c.rank, c.suit, uid) for uid, c in enumerate(parse_cards(text))]


def make_view(rules_key: str, hand: list[Card], *, phase: str = "play", turn: int = 0,
              deal: int = 1, legal: tuple = (), discard: tuple = ()) -> SeatView:
    rules = load_ruleset(rules_key)
    row = rules.schedule_round(deal)
    players = tuple(PlayerInfo(s, f"P{s}", len(hand), 0, False, False, 0, s == 0)
                    for s in range(3))
    return SeatView(seat=0, rules=rules, deal=deal, schedule_round=row,
                    round=rules.round(row), phase=phase, turn=turn, dealer=0,
                    players=players, hand=tuple(hand), stock_count=30, discard=discard,
                    discard_count=len(discard), table=(), scores=(), results=(), log=(),
                    legal=legal)


# ---------------------------------------------------------------- hand model

def test_sync_keeps_the_players_order_and_appends_new_cards() -> None:
    hand = cards_with_uids("7H 2C KS 5D")
    model = HandModel()
    model.sync(hand)
    model.shift(2)  # move 7H two places right
    assert [str(c) for c in model.hand] == ["2C", "KS", "7H", "5D"]
    drawn = Card(9, "S", 99)
    model.sync([*hand[1:], drawn])  # 7H left the hand, 9S arrived
    assert [str(c) for c in model.hand] == ["2C", "KS", "5D", "9S"]
    assert model.new == {99}


def test_a_hand_sorted_by_suit_stops_saying_so_when_a_card_is_appended() -> None:
    """Issue 33: the frame said "by suit" over `2♣ J♦ 6♠ J♠ 3♦`: a drawn card went to the
    right end and the label stayed."""
    hand = cards_with_uids("7H 2C KS 5D")
    model = HandModel()
    model.sync(hand)
    model.sort("suit")
    model.sync([*hand, Card(3, "C", 99)])
    assert [str(c) for c in model.hand] == ["2C", "5D", "7H", "KS", "3C"]
    assert model.sort_mode == "" and model.chosen_sort == "suit"


def test_a_hand_kept_sorted_puts_each_card_that_arrives_in_its_place() -> None:
    hand = cards_with_uids("7H 2C KS 5D")
    model = HandModel(keep_sorted=True)
    model.sync(hand)
    model.sort("rank", {1: 14})
    model.set_cursor(3)  # on KS
    model.sync([*hand, Card(1, "C", 98), Card(3, "C", 99)])
    assert [str(c) for c in model.hand] == ["2C", "3C", "5D", "7H", "KS", "AC"]
    assert model.sort_mode == "rank" and model.new == {98, 99}
    assert str(model.cursor_card) == "KS"  # the cursor stays on its card


def test_identical_cards_from_two_decks_stay_distinct() -> None:
    hand = [Card(7, "H", 1), Card(7, "H", 2), Card(3, "C", 3)]
    model = HandModel()
    model.sync(hand)
    model.toggle(1)
    assert [c.uid for c in model.selected_cards()] == [2]
    model.sync([hand[1], hand[2]])  # the unselected 7H was played
    assert [c.uid for c in model.selected_cards()] == [2]


def test_sort_by_suit_and_by_rank() -> None:
    model = HandModel()
    model.sync(cards_with_uids("KS 2H AC 2C JK"))
    model.sort("suit")
    assert [str(c) for c in model.hand] == ["AC", "2C", "2H", "KS", "JK"]
    model.sort("rank")
    assert [str(c) for c in model.hand] == ["AC", "2C", "2H", "KS", "JK"]
    model.sort("suit")
    model.sort("rank")  # ties keep suit order, so the result is the same from any order
    assert [str(c) for c in model.hand] == ["AC", "2C", "2H", "KS", "JK"]
    model.sort("rank", {1: 14})  # ace high
    assert [str(c) for c in model.hand][-2:] == ["AC", "JK"]


def test_group_selection_stages_a_meld_and_keeps_it_together() -> None:
    model = HandModel()
    model.sync(cards_with_uids("7H 2C 7S 5D 7D"))
    for index in (0, 2, 4):
        model.toggle(index)
    group = model.group_selection()
    assert [str(c) for c in group] == ["7H", "7S", "7D"]
    assert [str(c) for c in model.hand][:3] == ["7H", "7S", "7D"]
    assert not model.selected
    assert [str(c) for c in model.ungrouped()] == ["2C", "5D"]
    model.set_cursor(1)
    assert model.ungroup_at_cursor()
    assert model.groups == []


@given(st.lists(st.integers(-5, 5), max_size=12), st.integers(1, 12))
def test_shifting_never_loses_or_duplicates_cards(moves: list[int], size: int) -> None:
    hand = [Card(r, "S", r) for r in range(1, size + 1)]
    model = HandModel()
    model.sync(hand)
    for i, delta in enumerate(moves):
        model.set_cursor(i % size)
        if i % 3 == 0:
            model.toggle()
        model.shift(delta)
        assert sorted(model.order) == sorted(c.uid for c in hand)
        assert 0 <= model.cursor < size


# ---------------------------------------------------------------- building actions

def test_discard_uses_the_legal_action_for_that_physical_card() -> None:
    hand = [Card(7, "H", 1), Card(7, "H", 2)]
    legal = (Discard(0, hand[0]), Discard(0, hand[1]))
    view = make_view("three_thirteen", hand, legal=legal)
    assert intents.discard(view, hand[1]) is legal[1]
    with pytest.raises(intents.NeedChoice):
        intents.discard(view, None)


def test_take_discard_picks_the_listed_depth_or_asks_the_engine() -> None:
    view = make_view("contract_rummy", [], phase="draw",
                     legal=(DrawStock(0), TakeDiscard(0, 0), TakeDiscard(0, 2)))
    assert intents.take_discard(view, 2).depth == 2
    unlisted = intents.take_discard(view, 1)
    assert (unlisted.depth, unlisted.seat) == (1, 0)


def test_go_out_with_groups_leaves_exactly_one_card_to_discard() -> None:
    hand = cards_with_uids("5H 6H 7H 9C 9D 9S KD")
    view = make_view("three_thirteen", hand, deal=5)
    action = intents.go_out(view, [hand[:3], hand[3:6]], hand, None, None)
    assert action.discard == hand[6]
    assert [len(m.cards) for m in action.melds] == [3, 3]
    with pytest.raises(intents.NeedChoice, match="2 cards are not in a group"):
        intents.go_out(view, [hand[:3], hand[3:5]], hand, None, None)


def test_lay_off_needs_cards() -> None:
    view = make_view("contract_rummy", [])
    with pytest.raises(intents.NeedChoice):
        intents.lay_off(view, 3, [])


def test_contract_melds_picks_what_the_contract_asks() -> None:
    view = make_view("contract_rummy", [], deal=2)  # 1 set + 1 run
    run = cards_with_uids("5H 6H 7H")
    set_a = cards_with_uids("9C 9D 9S")
    set_b = cards_with_uids("KC KD KS")
    chosen = intents.contract_melds(view, [set_a, set_b, run])
    assert chosen == [set_a, run]


# ---------------------------------------------------------------- settings

def test_settings_round_trip(tmp_path) -> None:
    store = SettingsStore(tmp_path / "cfg" / "settings.json")
    assert store.load() == Settings()
    wanted = Settings(name="Mia", card_style="ascii", colours="four", theme="nord",
                      bot_speed="fast")
    store.save(wanted)
    assert store.load() == wanted


def test_damaged_settings_fall_back_to_defaults(tmp_path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    assert SettingsStore(path).load() == Settings()
    path.write_text(json.dumps({"name": "  ", "card_style": "emoji", "bot_speed": "warp",
                                "colours": "four", "extra": 1}), encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded == replace(Settings(), colours="four")


def test_in_memory_settings_write_nothing(tmp_path) -> None:
    SettingsStore(None).save(Settings(name="Guest"))
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- card art and words

def test_card_labels_follow_the_style() -> None:
    ten = Card(10, "H")
    assert CardStyle().label(ten) == "10♥"
    assert CardStyle(ascii=True).label(ten) == "10H"
    assert CardStyle().label(Card(0, "*")) == "JK"
    assert CardStyle(four_colour=True).colour(Card(3, "D")) != CardStyle().colour(Card(3, "D"))
    assert chip(Card(12, "S"), CardStyle(), wild=True).plain == "Q♠★"


def test_small_card_in_ascii_uses_no_box_drawing() -> None:
    canvas = Canvas(5, 3)
    paint_small(canvas, 0, 0, Card(10, "D"), CardStyle(ascii=True), wild=True)
    text = "\n".join(line.plain for line in canvas.lines())
    assert text == "+*--+\n|10D|\n+---+"
    assert text.isascii()


def test_canvas_lines_keep_every_cells_style_with_one_span_a_run() -> None:
    canvas = Canvas(8, 1)
    red, blue = Style(color="red"), Style(color="blue")
    canvas.put(0, 0, "aa", red)
    canvas.put(2, 0, "a", Style(color="red"))  # an equal style, not the same object
    canvas.put(3, 0, "bb", blue)
    canvas.put(5, 0, "c", red)
    (line,) = canvas.lines()
    assert line.plain == "aaabbc  "
    styles = [line.get_style_at_offset(Console(), i) for i in range(6)]
    assert styles == [red] * 3 + [blue] * 2 + [red]
    assert [(s.start, s.end) for s in line.spans] == [(0, 3), (3, 5), (5, 6)]


@given(st.integers(0, 40), st.integers(5, 200))
def test_fan_fits_whenever_overlap_can_make_it_fit(count: int, width: int) -> None:
    step = fan_step(count, width)
    if count and 3 * (count - 1) + 5 <= width:
        assert fan_width(count, step) <= width
    assert 2 <= step <= 6


def test_deal_labels() -> None:
    view = make_view("three_thirteen", [], deal=4)
    assert deal_label(view) == "Deal 4 of 11 — 6 cards — 6s wild"
    view = make_view("contract_rummy", [], deal=2)
    assert deal_label(view).startswith("Deal 2 of 7 — 1 set + 1 run")


def test_a_repeating_schedule_names_the_deal_and_its_round() -> None:
    """Under a point limit deal 3 of a one-row schedule plays that row again."""
    view = make_view("rulesets/cookbook/rummy_to_100.yaml", [], deal=3)
    assert (view.deal, view.schedule_round) == (3, 1)
    assert deal_label(view) == "Deal 3 — 7 cards — 2s wild"


def test_prompt_tells_whose_move_it_is() -> None:
    view = make_view("three_thirteen", [], phase="draw", turn=1, discard=(Card(5, "S"),))
    assert prompt(view, CardStyle()) == "P1 is drawing…"
    view = make_view("three_thirteen", [], phase="draw", turn=0, discard=(Card(5, "S"),))
    assert "take 5♠ (t)" in prompt(view, CardStyle())


def test_score_helpers() -> None:
    assert running_totals([(5, 0, 7), (3, 10, 0)], 3) == [[5, 8], [0, 10], [7, 7]]
    assert leaders([8, 10, 7], lowest_wins=True) == {2}
    assert leaders([8, 10, 10], lowest_wins=False) == {1, 2}



def test_the_totals_chart_is_a_line_per_player_in_letters() -> None:
    """Issue 33: the chart was a row of bars per player; now a line chart of the running
    totals by deal, each line drawn with the player's initial, readable at 80×24, and
    in plain letters with no box drawing."""
    assert line_marks(["Ada", "Ann", "ben"]) == ["A", "2", "B"]
    plot = totals_plot(["Ada", "Ben"], [[10, 25, 60], [5, 30, 31]], 76, 14, ascii_only=True)
    lines = plot.plain.splitlines()
    assert len(lines) <= 14 and max(len(line) for line in lines) <= 76
    assert all(ch.isascii() for ch in plot.plain)
    assert "A" in plot.plain and "B" in plot.plain and "deal" in plot.plain
    top = next(i for i, line in enumerate(lines) if "60" in line.split("|")[0])
    assert "A" in lines[top].split("|", 1)[1]  # Ada's line reaches the top at 60



def test_best_melds_are_suggested_until_the_hand_changes() -> None:
    hand = cards_with_uids("7H 2C 7S 5D 7D")
    model = HandModel()
    model.sync(hand)
    model.sort("melds", melds=[[hand[0], hand[2], hand[4]]])
    assert [str(c) for c in model.hand][:3] == ["7H", "7S", "7D"]
    assert model.suggestion_of(hand[2].uid) == 0 and model.suggestion_of(hand[1].uid) is None
    model.sync([*hand, Card(9, "S", 50)])  # a card was drawn
    assert model.suggested == [] and model.sort_mode == ""  # no longer "by melds"
    model.sort("melds", melds=[[hand[0], hand[2], hand[4]]])
    model.shift(1)  # the player rearranges by hand
    assert model.suggested == [] and model.sort_mode == ""
