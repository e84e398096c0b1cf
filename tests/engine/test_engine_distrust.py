"""The engine trusts nothing it is handed: malformed and forged actions are refused with
`IllegalAction` and leave the game byte-identical; what `legal_actions` offers, `apply`
accepts; a save or record whose card faces were edited does not load."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.bots import make_bot
from tui.engine.actions import (
    Discard,
    DrawStock,
    GoOut,
    IllegalAction,
    LayDown,
    MeldSpec,
    TakeDiscard,
)
from tui.engine.cards import Card
from tui.engine.game import Game
from tui.engine.ruleset import load_ruleset
from tui.engine.save import SaveError, game_from_json, game_to_json

KEYS = ("three_thirteen", "contract_rummy", "liverpool")


def state(game: Game) -> str:
    """Everything about the game as text: where every card is, with its face."""
    st_ = game.round

    def cards(seq) -> list:  # noqa: ANN001
        return [(c.uid, c.rank, c.suit) for c in seq]

    return json.dumps([
        st_.phase, st_.turn, game.actor, game.totals, len(game.history), len(game.log),
        cards(st_.stock), cards(st_.discard), [cards(h) for h in st_.hands],
        [[m.id, m.owner, m.kind, cards(m.cards), [list(f) for f in m.stands_for]]
         for m in st_.table],
    ])


@cache
def positions(key: str) -> tuple[Game, ...]:
    """Games of `key` stopped at many moments (copies made by replaying)."""
    rules = load_ruleset(key)
    out = []
    for seed in range(3):
        game = Game(rules, ["A", "B", "C"], seed)
        bots = [make_bot("random", seed * 7 + i) for i in range(3)]
        for step in range(300):
            if game.phase == "game_over":
                break
            if game.phase == "round_over":
                game.next_round()
                continue
            if step % 17 == 0:
                out.append(replayed(game))
            game.apply(bots[game.actor].choose(game.view(game.actor)))
    return tuple(out)


def replayed(game: Game) -> Game:
    fresh = Game(game.rules, game.names, game.seed)
    for action in game.history:
        if fresh.phase == "round_over":
            fresh.next_round()
        fresh.apply(action)
    return fresh


JUNK = st.one_of(st.none(), st.booleans(), st.floats(allow_nan=False), st.text(max_size=3),
                 st.integers(-5, 200), st.lists(st.integers(0, 3), max_size=2),
                 st.just(0.0), st.just(1.0), st.just(True))


def forged(card: Card, rank: int, suit: str) -> Card:
    return Card(rank, suit, card.uid)


@st.composite
def mutated(draw: st.DrawFn, game: Game) -> tuple[object, bool]:
    """(an action made from a legal one by changing one field, whether it is a forgery
    that must be refused)."""
    legal = game.legal_actions(game.actor)
    action = draw(st.sampled_from(legal))
    fields = [f.name for f in dataclasses.fields(action)]
    name = draw(st.sampled_from(fields))
    value = getattr(action, name)
    how = draw(st.sampled_from(["junk", "forge"]))
    if how == "forge" and isinstance(value, Card):
        rank = draw(st.integers(1, 13).filter(lambda r: r != value.rank))
        return dataclasses.replace(action, **{name: forged(value, rank, value.suit)}), True
    if how == "forge" and name == "cards" and value:
        first = value[0]
        swapped = forged(first, first.rank, "C" if first.suit != "C" else "D")
        return dataclasses.replace(action, cards=(swapped, *value[1:])), True
    if how == "forge" and name == "melds" and value:
        spec = value[0]
        first = spec.cards[0]
        wrong = forged(first, first.rank % 13 + 1, first.suit)
        melds = (dataclasses.replace(spec, cards=(wrong, *spec.cards[1:])), *value[1:])
        return dataclasses.replace(action, melds=melds), True
    junk = draw(JUNK)
    try:
        changed = dataclasses.replace(action, **{name: junk})
    except TypeError:
        changed = action
    return changed, False


QUICK = settings(max_examples=50, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@QUICK
@given(st.data())
def test_malformed_and_forged_actions_change_nothing(data: st.DataObject) -> None:
    check_mutated_action(data)


@pytest.mark.slow
@settings(QUICK, max_examples=2000)
@given(st.data())
def test_many_malformed_and_forged_actions_change_nothing(data: st.DataObject) -> None:
    check_mutated_action(data)


def check_mutated_action(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(KEYS))
    game = replayed(data.draw(st.sampled_from(positions(key))))
    before = state(game)
    action, forgery = data.draw(mutated(game))
    try:
        game.apply(action)  # type: ignore[arg-type]
    except IllegalAction:
        assert state(game) == before
        return
    assert not forgery, f"a forged action was accepted: {action}"
    game.check_conservation()


@pytest.mark.parametrize("action", [
    DrawStock(seat=0.0),  # type: ignore[arg-type]
    DrawStock(seat=True),  # type: ignore[arg-type]
    DrawStock(seat=7),
    TakeDiscard(0, depth=0.0),  # type: ignore[arg-type]
    TakeDiscard(0, depth=-1),
    TakeDiscard(0, depth="0"),  # type: ignore[arg-type]
])
def test_malformed_draws_are_refused_before_anything_moves(action) -> None:  # noqa: ANN001
    game = Game(load_ruleset("three_thirteen"), ["A", "B"], 3)
    game.round.turn = game.round.in_turn = 0  # seat 0 to draw
    if game.actor != 0:
        pytest.skip("the dealer order put seat 1 first")
    before = state(game)
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert state(game) == before


def a_game_at_play(key: str = "three_thirteen") -> Game:
    for game in positions(key):
        if game.round.phase == "play":
            return replayed(game)
    raise AssertionError("no position in play")


def test_a_forged_discard_is_refused() -> None:
    game = a_game_at_play()
    card = game.round.hands[game.actor][0]
    fake = Card(card.rank % 13 + 1, card.suit, card.uid)
    before = state(game)
    with pytest.raises(IllegalAction, match="not what the move says"):
        game.apply(Discard(game.actor, fake))
    assert state(game) == before
    game.apply(Discard(game.actor, Card(card.rank, card.suit, card.uid)))
    assert game.round.discard[-1] is card  # the deal's own card, not the one handed in


ALL_WILD = """\
extends: contract_rummy
name: Everything wild
round_defaults: {wild: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K]}
melds: {min_natural: 0}
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_lay_down_offered_is_accepted_even_when_every_rank_is_wild(seed: int) -> None:
    """All-wild melds could be read as sets or runs; the offer says which it meant."""
    from tui.engine.ruleset import load_ruleset_text

    rules = load_ruleset_text(ALL_WILD, key="all_wild")
    game = Game(rules, ["A", "B", "C"], seed)
    bot = make_bot("random", seed)
    laid = 0
    for _ in range(400):
        if game.phase in ("round_over", "game_over"):
            break
        legal = game.legal_actions(game.actor)
        downs = [a for a in legal if isinstance(a, LayDown | GoOut) and a.melds]
        for action in downs:
            assert all(spec.kind in ("set", "run") for spec in action.melds)
        if downs:
            game.apply(downs[0])
            laid += 1
        else:
            game.apply(bot.choose(game.view(game.actor)))
    assert laid > 0


def test_a_meld_kind_is_kept_in_saves() -> None:
    spec = MeldSpec((Card(3, "H", 1), Card(3, "S", 2), Card(3, "D", 3)), (), "set")
    action = LayDown(0, (spec,))
    from tui.engine.actions import action_from_json

    assert action_from_json(action.to_json()) == action
    assert action_from_json({**action.to_json(), "melds": [
        {k: v for k, v in action.to_json()["melds"][0].items() if k != "kind"}]}).melds[0].kind \
        == ""


def a_save_with_a_discard(tmp_path: Path) -> tuple[Path, dict]:
    game = a_game_at_play()
    while not any(isinstance(a, Discard) for a in game.history):
        bot = make_bot("random", 1)
        if game.phase == "round_over":
            game.next_round()
            continue
        game.apply(bot.choose(game.view(game.actor)))
    return tmp_path, json.loads(json.dumps(game_to_json(game)))


def test_a_save_with_an_edited_card_face_does_not_load(tmp_path: Path) -> None:
    _, data = a_save_with_a_discard(tmp_path)
    game_from_json(data)  # loads as saved
    for raw in data["actions"]:
        if raw["kind"] == "discard":
            face = raw["card"]["card"]
            raw["card"]["card"] = ("2" if not face.startswith("2") else "3") + face[-1]
            break
    with pytest.raises(SaveError, match="do not replay"):
        game_from_json(data)


def test_an_imported_record_with_an_edited_card_face_is_refused(tmp_path: Path) -> None:
    from records_kit import T0, finished_game, seats

    from tui.records.exchange import export_record, read_record_file
    from tui.records.record import GameRecord, RecordError

    record = GameRecord.from_game(finished_game(seed=5), seats(), T0)
    path = export_record(record, tmp_path / "game.rummy.json")
    data = json.loads(path.read_text())
    for raw in data["game"]["actions"]:
        if raw["kind"] == "discard":
            face = raw["card"]["card"]
            raw["card"]["card"] = ("2" if not face.startswith("2") else "3") + face[-1]
            break
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="does not replay"):
        read_record_file(path)
