"""Per-player progression through the contract list (#32, Phase 10): `progression:
per_player` puts each player on their own phase (a round of the schedule), deals and
contract checks use the seat's own phase, a seat moves on only by laying its phase down in
a deal, and the game ends after the deal in which someone makes the last phase.  The
Phase 10 recipe (rulesets/cookbook/phase10.yaml) plays to the end at its fewest and most
players."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from rulesets_helpers import errors_of, position, write
from test_family_games import play

from tui.bots import make_bot
from tui.engine.actions import IllegalAction, LayDown, meld_specs
from tui.engine.cards import parse_cards
from tui.engine.game import Game
from tui.engine.meld_rules import make_meld
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.ruleset.text import describe_rules
from tui.engine.save import fingerprint, game_from_json, game_to_json
from tui.engine.scoring import winners
from tui.engine.solver.api import contract_melds_ok, find_contract

COOKBOOK = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook"
PHASE10 = COOKBOOK / "phase10.yaml"
ENDS = ["fewest", "most"]


def phase10():
    return load_ruleset(PHASE10)


@pytest.mark.parametrize("end", ENDS)
def test_phase10_plays_to_the_end_each_seat_on_its_own_phase(end: str) -> None:
    rules = phase10()
    players = rules.players_min if end == "fewest" else rules.players_max
    laid: list[tuple[int, int]] = []  # (seat, the phase its lay-down was judged by)

    def watch(game: Game) -> None:
        if game.phase not in ("draw", "buy", "play"):
            return  # (once the deal is scored, its seats are already on their next phase)
        for meld in game.round.table:
            owner_round = game.round.round_of(meld.owner)
            assert owner_round == game.phase_of(meld.owner)
            declared = {c.uid: f for c, f in zip(meld.cards, meld.stands_for, strict=True)}
            # (a group of one colour exists only as a contract asks: judged as grown by
            # laying off)
            make_meld(meld.cards, rules, owner_round, declared, kind=meld.kind,
                      use="lay_off" if meld.kind == "colour" else "meld")
        event = game.log[-1]
        if "laid down the contract" in event.text:
            laid.append((event.seat, game.round.round_of(event.seat)))

    game = play(rules, players, seed=3, watch=watch)
    last = len(rules.rounds)
    assert last in game.phases_made or game.round.number >= rules.end.max_rounds
    assert laid, "nobody ever laid a phase down"
    assert len({phase for _, phase in laid}) > 1  # seats were on several phases
    # the winners made the most phases, then have the lowest total among those
    furthest = max(game.phases_made)
    assert all(game.phases_made[s] == furthest for s in game.winners)
    best = min(game.totals[s] for s in range(players) if game.phases_made[s] == furthest)
    assert all(game.totals[s] == best for s in game.winners)
    assert "phases," in game.log[-1].text


def stacked_phase_game(phases: tuple[int, int]) -> Game:
    """A 2-player Phase 10 game whose seats are on `phases`, seat 0 to play a stacked
    hand: 7H 7S 7D 9C 9H 9S (two sets of 3, phase 1) and 4C 5D 6H 8S (a run of 4)."""
    rules = phase10()
    game = Game(rules, ["ann", "bob"], seed=1)
    game.phases_made[:] = [p - 1 for p in phases]
    shoe = list(game.shoe)
    want = parse_cards("7H 7S 7D 9C 9H 9S 4C 5D 6H 8S")
    hand0 = []
    for face in want:
        card = next(c for c in shoe if c == face)
        shoe.remove(card)
        hand0.append(card)
    hand1, rest = shoe[:10], shoe[10:]
    game.stack_deal([hand0, hand1], rest[:-1], rest[-1:], turn=0)
    return game


def test_the_contract_checked_is_the_seats_own_phase() -> None:
    game = stacked_phase_game((1, 2))
    view = game.view(0)
    assert view.schedule_round == 1 and view.round.contract.describe() == "2 sets of 3"
    assert [p.phase for p in view.players] == [1, 2]
    assert game.view(1).round.contract.describe() == "1 set of 3 + 1 run of 4"
    game.apply(next(a for a in game.legal_actions(0) if a.kind == "draw_stock"))
    lay = next(a for a in game.legal_actions(0) if isinstance(a, LayDown))
    assert contract_melds_ok(
        [make_meld(s.cards, game.rules, 1, kind=s.kind) for s in lay.melds], game.rules, 1) \
        is None
    # seat 0 on phase 2 instead: two sets of 3 are not its contract
    other = stacked_phase_game((2, 1))
    other.apply(next(a for a in other.legal_actions(0) if a.kind == "draw_stock"))
    hand = other.round.hands[0]
    sets = [make_meld([c for c in hand if c.rank == r][:3], other.rules, 2) for r in (7, 9)]
    with pytest.raises(IllegalAction):
        other.apply(LayDown(0, meld_specs(sets)))
    assert find_contract(hand, other.rules, 2) is not None  # a set of 3 + a run of 4


def test_a_seat_moves_on_only_by_laying_its_phase_down() -> None:
    game = stacked_phase_game((1, 1))
    game.apply(next(a for a in game.legal_actions(0) if a.kind == "draw_stock"))
    game.apply(next(a for a in game.legal_actions(0) if isinstance(a, LayDown)))
    assert game.contract_down(0) and not game.contract_down(1)
    game.round.end_as_it_stands("test")
    assert game.phases_made == [1, 0]
    game.next_round()
    assert game.round.seat_rounds == (2, 1)
    assert [p.phase for p in game.view(1).players] == [2, 1]
    assert game.view(0).round.contract.describe() == "1 set of 3 + 1 run of 4"


def test_the_game_ends_after_the_deal_in_which_someone_makes_the_last_phase() -> None:
    game = stacked_phase_game((10, 3))  # seat 0 on phase 10: a set of 5 + a set of 3
    assert game.round.round_of(0) == 10
    game.round.end_as_it_stands("test")  # nobody made anything: the game goes on
    assert game.phase == "round_over" and game.phases_made == [9, 2]
    made = stacked_phase_game((10, 3))
    made.round.contract_turn[0] = 1  # as if seat 0 had laid phase 10 down on turn 1
    made.round.end_as_it_stands("test")
    assert made.phase == "game_over" and made.phases_made == [10, 2]
    assert made.winners == (0,)


def test_winners_come_from_the_furthest_phase_then_the_best_total() -> None:
    rules = phase10()
    assert winners([50, 10, 40], rules, (), [10, 9, 10]) == (2,)
    assert winners([50, 10, 50], rules, (), [10, 9, 10]) == (0, 2)
    assert winners([50, 10, 40], rules) == (1,)  # without phases: the lowest total


def test_progression_loads_and_says_so(tmp_path: Path) -> None:
    rules = phase10()
    assert rules.progression == "per_player"
    text = " ".join(describe_rules(rules).split())
    assert "The rounds are phases, and each player is on their own" in text
    assert "lays down phase 10, the last" in text
    assert load_ruleset("contract_rummy").progression == "schedule"


PER_PLAYER = """
name: Test game
players: {min: 2, max: 4}
decks:
  - {players: 2, decks: 2, jokers: 4}
progression: per_player
lay_off: {when: after_contract}
rounds:
  - {cards: 10, contract: {sets: 2}}
  - {cards: %s, contract: {sets: 1, runs: 1}}
"""


def test_phases_that_deal_differently_are_an_error_at_the_round(tmp_path: Path) -> None:
    path = write(tmp_path, "phases.yaml", PER_PLAYER % 11)
    (error,) = [e for e in errors_of(path) if "per_player" in e.message]
    assert "round 2's `cards`" in error.message
    assert error.line == position(path, "cards: 11", "11")[0]
    load_ruleset(write(tmp_path, "alike.yaml", PER_PLAYER % 10))


def test_phases_with_nothing_laid_during_play_are_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "phases.yaml", PER_PLAYER % 10
                 + "going_out: {melding_during_play: false}\n")
    assert any("nobody could ever make a phase" in e.message for e in errors_of(path))


def test_a_bad_progression_value_is_a_located_error(tmp_path: Path) -> None:
    path = write(tmp_path, "phases.yaml", (PER_PLAYER % 10).replace("per_player", "each"))
    assert any("progression" in str(e) for e in errors_of(path))


def test_a_schedule_game_is_unchanged_every_seat_on_the_deals_round() -> None:
    rules = load_ruleset("contract_rummy")
    game = Game(rules, ["a", "b", "c"], seed=2)
    assert game.round.seat_rounds == (1, 1, 1)
    assert all(p.phase == 0 for p in game.view(0).players)
    assert replace(rules, progression="per_player").per_player


def test_a_saved_phase_game_loads_with_every_seat_on_its_phase() -> None:
    game = Game(phase10(), ["a", "b", "c"], seed=8)
    bots = [make_bot("medium", s) for s in range(3)]
    while game.round.number < 4 and game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
            continue
        game.apply(bots[game.actor].choose(game.view(game.actor)))
    loaded = game_from_json(game_to_json(game))
    assert loaded.phases_made == game.phases_made and any(game.phases_made)
    assert loaded.round.seat_rounds == game.round.seat_rounds
    assert fingerprint(loaded) == fingerprint(game)
    assert [p.phase for p in loaded.view(0).players] == [p.phase for p in game.view(0).players]
