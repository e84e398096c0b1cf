"""`lay_off.when: always`: laying off from the first turn, a contract down or not (issue 32:
a basic rummy or Rummy 500 file had no value to say so, and `after_contract` drew a
warning in a game without contracts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulesets_helpers import MINIMAL, write
from table_rig import card, rig

from tui.cli import main
from tui.engine.actions import DrawStock, IllegalAction, LayDown, LayOff, MeldSpec
from tui.engine.game import Game
from tui.engine.ruleset import describe_rules, load_ruleset_text


def contract_game(when: str) -> Game:
    rules = load_ruleset_text(f"extends: contract_rummy\nlay_off: {{when: {when}}}\n",
                              file="house.yaml")
    game = Game(rules, ["P0", "P1", "P2"], 1)
    rig(game, [
        "7C 7D 7H 9C 9D 9S 2C 4D 6H KS",
        "2D 3D 5S 7S 10H JC QD AC 4S 6S",
        "3C 5C 8D 10D JH QH AH 4H 8C 8S",
    ], discard="KD", stock_top="QS 2H 3H", turn=0)
    game.apply(DrawStock(0))
    game.apply(LayDown(0, (MeldSpec((card(game, 0, "7C"), card(game, 0, "7D"),
                                     card(game, 0, "7H"))),
                           MeldSpec((card(game, 0, "9C"), card(game, 0, "9D"),
                                     card(game, 0, "9S"))))))
    game.apply(game.legal_actions(0)[-1])  # a discard
    game.apply(DrawStock(1))
    return game


@pytest.mark.parametrize("when", ["always", "after_contract"])
def test_always_lays_off_before_the_contract_is_down(when: str) -> None:
    game = contract_game(when)
    sevens = game.round.table[0].id
    seven = card(game, 1, "7S")
    assert (LayOff(1, sevens, (seven,)) in game.legal_actions(1)) == (when == "always")
    if when == "always":
        game.apply(LayOff(1, sevens, (seven,)))
        assert len(game.round.table[0].cards) == 4
    else:
        with pytest.raises(IllegalAction):
            game.apply(LayOff(1, sevens, (seven,)))


def test_the_rules_text_says_from_the_first_turn() -> None:
    text = describe_rules(load_ruleset_text("extends: contract_rummy\nlay_off: {when: always}\n",
                                            file="house.yaml"))
    assert ("From your first turn you may lay off cards from your hand onto any meld on the "
            "table, yours or another player's, if they extend it, whether or not your "
            "contract is down.") in " ".join(text.split())


@pytest.mark.parametrize("when", ["always", "after_contract"])
def test_a_game_without_contracts_checks_clean_either_way(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, when: str) -> None:
    """A bug that happened: every correct basic rummy or Rummy 500 file was warned that
    `after_contract` "means from the first turn" (their games have no contract)."""
    path = write(tmp_path, "house.yaml", MINIMAL + f"lay_off: {{when: {when}}}\n")
    assert main(["rules", "check", str(path)]) == 0
    assert capsys.readouterr().err == ""
