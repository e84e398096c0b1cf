"""Bots under `progression: per_player` (Phase 10) race for their own phase: each judges
its hand by the contract of the phase it is on (not the phase of anyone else at the table)
and lays it down as soon as it holds it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tui.bots import make_bot
from tui.bots.evaluate import Evaluator
from tui.engine.actions import LayDown
from tui.engine.cards import parse_cards
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from test_phase_progression import stacked_phase_game  # noqa: E402


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("phases", [(1, 2), (2, 1)])
def test_a_bot_lays_its_own_phase_down_as_soon_as_it_holds_it(level: str,
                                                              phases: tuple[int, int]) -> None:
    # seat 0 holds two sets of 3 and a run of 4 with a set: phase 1 and phase 2 alike
    game = stacked_phase_game(phases)
    bot = make_bot(level, 1)
    game.apply(bot.choose(game.view(0)))  # the draw
    action = bot.choose(game.view(0))
    assert isinstance(action, LayDown), action
    game.apply(action)
    assert game.contract_down(0)
    laid = [m for m in game.round.table if m.owner == 0]
    kinds = sorted(m.kind for m in laid)
    assert kinds == (["set", "set"] if phases[0] == 1 else ["run", "set"])


PHASE10 = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "phase10.yaml"


def test_a_bot_counts_runs_of_mixed_suits_toward_its_phase() -> None:
    """Phase 4 is a run of 7 of any suits: 3H 4C 5D 6S 7H and 9C lack only an 8."""
    ev = Evaluator(load_ruleset(PHASE10), 4)
    need = ev.contract_need(parse_cards("3H 4C 5D 6S 7H KD KS 9C QH"))
    assert need.missing == 1
    assert need.wanted == {(8, s) for s in "CDHS"}  # an 8 of any suit makes it


def test_a_bot_counts_runs_of_one_colour_only_toward_a_run_of_one_colour() -> None:
    """Phase 8 played as a run of 7 of one colour: the black cards do not join the red."""
    text = PHASE10.read_text().replace("{contract: {colours: [7]}}",
                                       "{contract: {runs: [7]}, melds: {run: {one_colour: true}}}")
    ev = Evaluator(load_ruleset_text(text, file="phase10-runs.yaml"), 8)
    need = ev.contract_need(parse_cards("3H 4D 5H 6S 7C KD KS 9C QH"))
    assert need.missing == 4  # 3H 4D 5H: four more red cards
    assert (6, "D") in need.wanted and (6, "S") not in need.wanted


def test_a_bot_counts_cards_of_one_colour_toward_phase_8() -> None:
    """Phase 8: 7 cards of one colour in any ranks.  Red: 3H 4D 5H KD QH, two short; a red
    card of any rank helps, a black one does not; a wild fills a gap."""
    ev = Evaluator(load_ruleset(PHASE10), 8)
    need = ev.contract_need(parse_cards("3H 4D 5H 6S 7C KD KS 9C QH"))
    assert need.missing == 2
    assert (9, "D") in need.wanted and (1, "H") in need.wanted
    assert not any(suit in "CS" for _, suit in need.wanted)
    assert ev.contract_need(parse_cards("3H 4D 5H 6S 7C KD KS 9C QH 2C")).missing == 1
    assert ev.contract_need(parse_cards("3H 4D 5H 6S 7C KD KS 9C QH 2C AD")).missing == 0
    # black: 6S 7C KS 9C and four more black cards make 8: black is the nearer colour now
    black = ev.contract_need(parse_cards("3H 6S 7C KS 9C 4S 5S 8C"))
    assert black.missing == 0 and all(suit in "CS" for _, suit in black.used)


def test_a_bot_counts_each_set_of_its_phase_at_its_own_size() -> None:
    """Phase 9 is a set of 5 and a set of 2, phase 10 a set of 5 and a set of 3: two
    pairs and two wilds are a card short of phase 9 (counted at the smaller size, two
    sets of 2, they made it), and the set of 5 may be of either rank held."""
    rules = load_ruleset(PHASE10)
    nine = Evaluator(rules, 9)
    assert nine.contract_need(parse_cards("6C 6H 7C 7S 2D 2H JC 10D 3H KH 4S")).missing == 1
    assert nine.contract_need(parse_cards("6C 6H 6D 6S 2D KH KD JC 10D 3H 4S")).missing == 0
    ten = Evaluator(rules, 10)
    need = ten.contract_need(parse_cards("4D 4S 6C 6D 6H 6S 2D 10D 3H KH 7S"))
    assert need.missing == 1 and (4, "C") in need.wanted


def test_a_bot_judges_a_meld_on_the_table_by_its_owners_phase() -> None:
    """A seat on phase 3 may lay a red card off onto another seat's phase 8 (a group of
    7 red cards): the group is judged by its owner's phase, not the bot's."""
    from dataclasses import replace as with_fields

    from tui.engine.meld_rules import make_meld

    rules = load_ruleset(PHASE10)
    group = with_fields(make_meld(parse_cards("3H 9D QH 5D AH KD 4H"), rules, 8,
                                  use="contract"), owner=1)
    ev = Evaluator(rules, 3)
    red, black = parse_cards("8D 8S")
    assert ev.stuck([red, black], [group], (3, 8)) == [black]
    assert ev.stuck([red], [group]) == [red]  # judged by phase 3, which has no such group


def test_the_next_player_is_judged_as_collecting_for_their_own_phase() -> None:
    from tui.bots.contract_play import _collecting_for_phase
    from tui.engine.game import Game

    game = Game(load_ruleset(PHASE10), ["ann", "bob"], 3)
    view = game.view(0)
    ev = Evaluator(view.rules, 1)
    taken = parse_cards("5H")
    colours = _collecting_for_phase(view, 8, taken, ev)  # phase 8: one colour
    assert colours(parse_cards("KD")[0]) and not colours(parse_cards("5S")[0])
    sets = _collecting_for_phase(view, 1, taken, ev)  # phase 1: sets
    assert sets(parse_cards("5S")[0]) and not sets(parse_cards("KD")[0])
    runs = _collecting_for_phase(view, 4, taken, ev)  # phase 4: a run of 7, any suits
    assert runs(parse_cards("7C")[0]) and not runs(parse_cards("KC")[0])


@pytest.mark.parametrize("seed", range(3))
def test_hard_takes_the_discard_that_makes_its_phase(seed: int) -> None:
    """Seen in hard-vs-medium Phase 10 (several times a game): on phase 6, a run of 9 of
    any suits, 5C 7C 8C 9D 10S with three wilds lack one card, and QC on the pile makes
    the run.  With 62 of 97 unseen cards helping, hard scored the hand a card short above
    the phase made and drew from the stock; medium took QC."""
    from table_rig import new_game, rig

    from tui.engine.actions import TakeDiscard

    game = new_game(str(PHASE10), 2)
    game.phases_made[:] = [5, 4]
    rig(game, ["5C 7C 8C 2D 5D 9D 2S 8S 10S JK", "3H 3D KH KS 4C 4D 9H 9S AH AD"],
        discard="QC", turn=0)
    hard = make_bot("hard", seed)
    take = hard.choose(game.view(0))
    assert isinstance(take, TakeDiscard), hard.explain(game.view(0))
    game.apply(take)
    assert isinstance(hard.choose(game.view(0)), LayDown)
