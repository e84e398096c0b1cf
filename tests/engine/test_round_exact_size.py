"""`rounds[].contract.exact_size` (#32): the game's `contract.exact_size` set for one round,
so an `all_at_once` round whose hand is longer than its contract's smallest melds (May I?'s
hand 6: 12 cards into 3+4+4) can be gone out on while the other rounds keep exact sizes."""

from __future__ import annotations

from pathlib import Path

from rulesets_helpers import position, write
from solver_hands import cards

from tui.engine.ruleset.loader import load_ruleset, ruleset_warnings
from tui.engine.ruleset.text import describe_rules
from tui.engine.solver.api import find_contract

EXACT = """
extends: liverpool
contract: {exact_size: true}
rounds:
  - {cards: 10, contract: {sets: [3, 3]}}
  - {cards: 12, contract: {runs: [4, 4]%s}, all_at_once: true, going_out_discard: forbidden}
"""


def test_a_rounds_own_exact_size_overrides_the_games(tmp_path: Path) -> None:
    rules = load_ruleset(write(tmp_path, "own.yaml", EXACT % ", exact_size: false"))
    assert rules.exact_size(1) and not rules.exact_size(2)
    hand = cards("3H 4H 5H 6H 7H 8H 9S 10S JS QS KS AS")  # two runs of 6: 12 cards
    assert find_contract(hand, rules, 2, whole_hand=True) is not None
    strict = load_ruleset(write(tmp_path, "game.yaml", EXACT % ""))
    assert find_contract(hand, strict, 2, whole_hand=True) is None
    assert "contract melds may be longer" in describe_rules(rules)


def test_the_unwinnable_all_at_once_round_is_warned_unless_the_round_lifts_it(
        tmp_path: Path) -> None:
    warned = ruleset_warnings(str(write(tmp_path, "game.yaml", EXACT % "")))
    assert any("round 2 can never be gone out on" in str(w) for w in warned)
    lifted = ruleset_warnings(str(write(tmp_path, "own.yaml", EXACT % ", exact_size: false")))
    assert not any("can never be gone out on" in str(w) for w in lifted)


def test_exact_size_set_in_the_round_alone_is_warned_at_the_round(tmp_path: Path) -> None:
    text = (EXACT % ", exact_size: true").replace("contract: {exact_size: true}\n", "")
    path = write(tmp_path, "round.yaml", text)
    (warning,) = [w for w in ruleset_warnings(str(path)) if "can never be gone out" in str(w)]
    assert (warning.line, warning.column) == position(path, "exact_size: true", "exact_size")
