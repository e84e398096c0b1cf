"""Every accepted ruleset finishes every game: a player in turn always has a legal move or
the deal ends as it stands (said in the log), and a game ends within `MAX_GAME_MOVES`.

The pinned cases are bugs that happened (issue 32); the property test plays random legal
moves and bots over every shipped ruleset and over rulesets that combine the keys of the
draw, the stock, buying and the contract, at the smallest and the largest table.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.bots import make_bot
from tui.engine import game as game_module
from tui.engine.actions import Discard, DrawStock, TakeDiscard
from tui.engine.deal import Deal
from tui.engine.game import MAX_GAME_MOVES, Game
from tui.engine.ruleset import (
    RulesetError,
    load_ruleset,
    load_ruleset_text,
    standalone_yaml,
)

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
COOKBOOK = RULESETS / "cookbook"
SHIPPED = sorted(RULESETS.rglob("*.yaml"))
STUCK = "has no legal move"


def may_i_stock_only_after_contract() -> Game:
    rules = load_ruleset_text("extends: may_i.yaml\ndraw: {stock_only_after_contract: true}\n",
                              file="<may_i>", base_dir=COOKBOOK)
    return Game(rules, ["Ann", "Bob", "Cy"], 1)


def test_a_lone_discard_the_player_may_not_take_ends_the_deal() -> None:
    """A bug that happened: the stock out and one card in the pile, the lone-discard rule
    started Bob's turn expecting him to take it, but with his contract down
    `draw.stock_only_after_contract` forbids it: no legal move, and the game stalled."""
    game = may_i_stock_only_after_contract()
    shoe = list(game.shoe)
    game.stack_deal([shoe[0:10], shoe[10:20], shoe[21:]], stock=[], discard=[shoe[20]], turn=0)
    game.round.contract_turn[1] = 1  # Bob's contract is down
    game.apply(TakeDiscard(0, 0))
    game.apply(Discard(0, shoe[0]))
    assert game.phase == "round_over"  # (before the fix: Bob to draw, with no legal move)
    assert game.results[-1].went_out == -1
    said = [e.text for e in game.log[-3:]]
    assert "The stock is out and Bob may not take the one card in the discard pile " \
           "(`draw.stock_only_after_contract`)." in said, said
    assert "The stock is exhausted: the round ends as it stands." in said, said
    game.check_conservation()


def test_without_the_contract_down_the_lone_discard_is_still_drawn() -> None:
    game = may_i_stock_only_after_contract()
    shoe = list(game.shoe)
    game.stack_deal([shoe[0:10], shoe[10:20], shoe[21:]], stock=[], discard=[shoe[20]], turn=0)
    game.apply(TakeDiscard(0, 0))
    game.apply(Discard(0, shoe[0]))
    assert game.phase == "draw" and game.actor == 1
    assert game.legal_actions(1) == [TakeDiscard(1, 0)]


def test_a_player_in_turn_with_no_legal_move_ends_the_deal_as_it_stands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever corner of the rules leaves the player in turn without a move, the deal
    ends as it stands rather than waiting for ever (here: no draw offered at all)."""
    game = Game(load_ruleset("three_thirteen"), ["Ann", "Bob"], 3)
    seat = game.actor
    monkeypatch.setattr(Deal, "has_a_move", lambda self, seat: self.phase != "draw")
    game.apply(DrawStock(seat))
    game.apply(game.legal_actions(seat)[-1])
    assert game.phase == "round_over"
    assert game.log[-2].text == f"{game.names[1 - seat]} has no legal move: the round ends " \
                                "as it stands."
    game.check_conservation()


def test_a_game_ends_with_its_deal_when_it_reaches_the_most_moves_a_game_may_take(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_module, "MAX_GAME_MOVES", 30)
    game = Game(load_ruleset("liverpool"), ["Ann", "Bob", "Cy"], 5)
    bots = [make_bot("random", seat) for seat in range(3)]
    while game.phase != "game_over":
        assert game.phase != "round_over", "the game should end with its first deal"
        game.apply(bots[game.actor].choose(game.view(game.actor)))
    assert len(game.history) == 30 and len(game.results) == 1 and game.winners
    assert any("30 moves have been played in this game" in e.text for e in game.log)
    game.check_conservation()


@pytest.mark.parametrize(("base", "players", "level"), [
    ("three_thirteen", 2, "medium"),
    ("contract_rummy", 3, "medium"),
    (str(COOKBOOK / "may_i.yaml"), 4, "random"),
    ("liverpool", 4, "random"),
])
def test_unlimited_rebuilds_turned_over_end_every_game(base: str, players: int,
                                                       level: str) -> None:
    """`stock.max_rebuilds: null`: bots that never go out (random ones in a contract game),
    or cycle through a stock turned over unshuffled, never ended a game; each deal now
    ends after ten stocks' worth of turns."""
    rules = load_ruleset_text(f"extends: {base}\nstock: {{max_rebuilds: null, rebuild: "
                              "turn_over}\n", file="<unlimited>")
    game = play(rules, players, [level] * players, seed=2)
    assert game.phase == "game_over"


# ------------------------------------------------------------------ the property


@cache
def whole(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(standalone_yaml(load_ruleset(path)))
    return loaded


@st.composite
def rulesets(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped ruleset, as it is or with the keys of the draw, the stock, buying and the
    contract drawn afresh (its schedule cut to a few deals, to keep a game short)."""
    path = draw(st.sampled_from(SHIPPED))
    data = yaml.safe_load(yaml.safe_dump(whole(path)))
    if draw(st.booleans()):
        start = draw(st.integers(0, len(data["rounds"]) - 1))
        data["rounds"] = data["rounds"][start:start + draw(st.integers(1, 3))]
        data["end"]["point_limit"] = None
        data["draw"].update(
            discard=draw(st.sampled_from(["top", "deep", "none"])),
            stock_only_after_contract=draw(st.booleans()),
            no_immediate_rediscard=draw(st.booleans()))
        data["stock"].update(
            when_empty=draw(st.sampled_from(["reshuffle", "end_round"])),
            max_rebuilds=draw(st.sampled_from([0, 1, 2, None])),
            rebuild=draw(st.sampled_from(["shuffle", "turn_over"])))
        data["buying"].update(
            enabled=data["draw"]["discard"] != "none" and draw(st.booleans()),
            limit_per_deal=draw(st.sampled_from([1, 3, None])),
            after_contract=draw(st.booleans()))
        data["contract"].update(
            runs_same_suit=draw(st.sampled_from(["forbidden", "separate", "allowed"])),
            same_suit_gap=draw(st.integers(0, 2)))
    return path.stem, yaml.safe_dump(data, sort_keys=False)


def play(rules: Any, players: int, levels: list[str], seed: int) -> Game:
    """A whole game, the seats played by bots of `levels` ("legal": a random legal move),
    checking at every step that the seat to act has a move (and that the quick question
    `has_a_move` answers as the full listing does) and every card is in one place; a deal
    ended for want of a move is a corner of the rules to fix, not a pass."""
    game = Game(rules, [f"P{i}" for i in range(players)], seed)
    bots = {s: make_bot(level, seed + s) for s, level in enumerate(levels) if level != "legal"}
    pick = random.Random(seed)
    for _ in range(MAX_GAME_MOVES):
        if game.phase == "game_over":
            break
        if game.phase == "round_over":
            game.check_conservation()
            game.next_round()
            continue
        seat = game.actor
        quick = [game.round.has_a_move(s) for s in range(players)]  # before any listing
        legal = game.legal_actions(seat)
        assert legal, f"deal {game.round.number}: seat {seat} has no legal move"
        assert quick == [bool(game.round.legal(s)) for s in range(players)]
        bot = bots.get(seat)
        game.apply(bot.choose(game.view(seat)) if bot else pick.choice(legal))
        if len(game.history) % 17 == 0:
            game.check_conservation()
    assert game.phase == "game_over", "the game did not end"
    game.check_conservation()
    stuck = [e.text for e in game.log if STUCK in e.text]
    assert not stuck, stuck
    return game


def plays_to_the_end(case: tuple[str, str], largest: bool, levels: list[str],
                     seed: int) -> None:
    key, text = case
    try:
        rules = load_ruleset_text(text, file=f"<{key}>", key=key)
    except RulesetError as exc:  # keys that contradict each other: refused, and where
        assert all(e.file == f"<{key}>" and e.line > 0 for e in exc.errors), str(exc)
        return
    players = rules.players_max if largest else rules.players_min
    play(rules, players, [levels[s % len(levels)] for s in range(players)], seed)


LEVELS = st.lists(st.sampled_from(["legal", "random", "easy"]), min_size=1, max_size=3)
FEW = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))


@FEW
@given(rulesets(), st.booleans(), LEVELS, st.integers(0, 10_000))
def test_every_game_ends_with_a_move_for_every_turn_and_every_card_in_one_place(
        case: tuple[str, str], largest: bool, levels: list[str], seed: int) -> None:
    plays_to_the_end(case, largest, levels, seed)


@pytest.mark.slow
@settings(FEW, max_examples=150)
@given(rulesets(), st.booleans(), LEVELS, st.integers(0, 10_000))
def test_many_games_end_with_a_move_for_every_turn_and_every_card_in_one_place(
        case: tuple[str, str], largest: bool, levels: list[str], seed: int) -> None:
    plays_to_the_end(case, largest, levels, seed)
