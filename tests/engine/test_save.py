"""Saving a game and loading it back to the identical state; damaged saves refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.atomic import write_atomic
from tui.bots import make_bot
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.save import SaveError, fingerprint, game_from_json, game_to_json, read_save_json


def save_game(game: Game, path: Path) -> None:
    write_atomic(path, json.dumps(game_to_json(game)))


def load_game(path: Path) -> Game:
    """As a table loads its game: the file read as a save, then the moves replayed."""
    return game_from_json(read_save_json(path))


def played(key: str, seed: int, actions: int) -> Game:
    game = Game(load_ruleset(key), ["A", "B", "C"], seed)
    bots = [make_bot("random", seed + i) for i in range(3)]
    for _ in range(actions):
        if game.phase == "game_over":
            break
        if game.phase == "round_over":
            game.next_round()
            continue
        game.apply(bots[game.actor].choose(game.view(game.actor)))
    return game


@pytest.mark.parametrize("key", ["three_thirteen", "contract_rummy", "liverpool"])
def test_save_and_load_give_the_identical_state(tmp_path: Path, key: str) -> None:
    game = played(key, 7, 150)
    save_game(game, tmp_path / "g.json")
    loaded = load_game(tmp_path / "g.json")
    assert fingerprint(loaded) == fingerprint(game)
    assert loaded.view(1) == game.view(1)
    assert loaded.log == game.log


def test_same_seed_same_actions_same_game() -> None:
    assert fingerprint(played("three_thirteen", 3, 200)) == fingerprint(
        played("three_thirteen", 3, 200))
    assert fingerprint(played("three_thirteen", 3, 200)) != fingerprint(
        played("three_thirteen", 4, 200))


def test_truncated_save_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    save_game(played("three_thirteen", 1, 40), path)
    path.write_text(path.read_text()[:-30])
    with pytest.raises(SaveError, match="damaged"):
        load_game(path)


def test_edited_save_is_reported_not_half_loaded(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    save_game(played("three_thirteen", 1, 40), path)
    data = json.loads(path.read_text())
    data["seed"] = 2  # the moves no longer fit the deal
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError):
        load_game(path)


def test_a_save_whose_rules_are_not_a_mapping_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    save_game(played("three_thirteen", 1, 10), path)
    data = json.loads(path.read_text())
    data["rules"] = ["not", "a", "mapping"]
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="damaged"):
        load_game(path)


def test_not_a_save_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(SaveError, match="not a rummy-tui saved game"):
        load_game(path)


def test_a_save_does_not_depend_on_the_parent_ruleset_file(tmp_path: Path) -> None:
    """A house rule `extends` another file; the save must resume even if that file goes."""
    from tui.engine.ruleset.loader import load_ruleset as load

    parent = tmp_path / "base.yaml"
    parent.write_text((Path(__file__).parents[2] / "rulesets" / "three_thirteen.yaml")
                      .read_text())
    child = tmp_path / "house.yaml"
    child.write_text("extends: base.yaml\nname: House\nscoring:\n  values: {K: 13}\n")
    game = Game(load(child), ["A", "B"], 4)
    game.apply(game.legal_actions(game.actor)[0])
    save_game(game, tmp_path / "g.json")
    parent.unlink()
    loaded = load_game(tmp_path / "g.json")
    assert fingerprint(loaded) == fingerprint(game)
    assert loaded.rules.value(13) == 13
