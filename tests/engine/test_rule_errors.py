"""The rule errors of issue #15, each played through the engine on a stacked deal.

Every test here failed before its fix: the engine offered or accepted a move the rules
forbid, or refused one they allow.
"""

from __future__ import annotations

import pytest
from table_rig import card, cards, goto_deal, new_game, rig

from tui.engine.actions import (
    Discard,
    DrawStock,
    IllegalAction,
    LayDown,
    LayOff,
    MeldSpec,
    PassBuy,
    SwapJoker,
    TakeDiscard,
)
from tui.engine.game import Game
from tui.engine.ruleset import load_ruleset_text
from tui.engine.save import fingerprint

CR = "contract_rummy"
OTHERS = ["2D 3D 5S 8C 10H JC JD AC 4S 6S", "3C 5C 8D 10D JH QH AH 3H 6D 8S"]


def faces_of(melds: tuple[MeldSpec, ...]) -> set[str]:
    return {str(c) for m in melds for c in m.cards}


def refused(game: Game, action: object, rule: str) -> None:
    """`action` is refused for `rule`, and the game is exactly as it was."""
    before = fingerprint(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)  # type: ignore[arg-type]
    assert err.value.rule == rule
    assert fingerprint(game) == before


def deep_four_of_hearts() -> Game:
    """Seat 0 takes 4H from deep in the pile (QD and 2H above it); the best contract it
    holds leaves the 4H out (9s and kings), one with the 4H pays more."""
    game = new_game(CR, 3)
    rig(game, ["4C 4D 9C 9D 9S KC KD KH 2C 6H", *OTHERS], discard="4H QD 2H", turn=0)
    game.apply(TakeDiscard(0, 2))
    return game


def test_the_lay_down_offered_after_a_deep_draw_melds_the_deep_card() -> None:
    game = deep_four_of_hearts()
    [lay] = [a for a in game.legal_actions(0) if isinstance(a, LayDown)]
    assert "4H" in faces_of(lay.melds)
    assert not [a for a in game.legal_actions(0) if isinstance(a, Discard)]


def test_a_lay_down_leaving_the_deep_card_unmelded_is_refused() -> None:
    game = deep_four_of_hearts()
    nines_and_kings = LayDown(0, (MeldSpec(cards(game, 0, "9C 9D 9S")),
                                  MeldSpec(cards(game, 0, "KC KD KH"))))
    refused(game, nines_and_kings, "draw.deep_must_meld")
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "4C 4D 4H")),
                           MeldSpec(cards(game, 0, "9C 9D 9S")))))
    game.apply(Discard(0, card(game, 0, "QD")))


def test_a_deep_card_may_be_laid_off_right_after_laying_the_contract_down() -> None:
    # Seat 1's set of eights is on the table; seat 0 has two sets but no eight: it takes
    # the 8C from deep in the pile, lays its contract down and lays the 8C off.
    game = new_game(CR, 3)
    rig(game, ["7C 7D 7H 9C 9D 9S 2S 4D 6H KS", "8D 8S 8H JC JD JH 2D 3D 5S 10H",
               "3C 5C 10D QH AH 4H 6D 7S 10S 3H"], discard="8C QD", stock_top="AS 2H",
        turn=1)
    game.apply(DrawStock(1))
    game.apply(LayDown(1, (MeldSpec(cards(game, 1, "8D 8S 8H")),
                           MeldSpec(cards(game, 1, "JC JD JH")))))
    game.apply(Discard(1, card(game, 1, "10H")))
    game.apply(DrawStock(2))
    game.apply(Discard(2, card(game, 2, "3H")))
    assert TakeDiscard(0, 3) in game.legal_actions(0)
    game.apply(TakeDiscard(0, 3))  # 8C, with QD 10H 3H above it
    [lay] = [a for a in game.legal_actions(0) if isinstance(a, LayDown)]
    game.apply(lay)
    eights = next(m for m in game.round.table if m.kind == "set" and m.rank == 8)
    assert LayOff(0, eights.id, cards(game, 0, "8C")) in game.legal_actions(0)
    refused(game, Discard(0, card(game, 0, "KS")), "draw.deep_must_meld")
    game.apply(LayOff(0, eights.id, cards(game, 0, "8C")))
    game.apply(Discard(0, card(game, 0, "KS")))


def short_runs_game() -> Game:
    """Contract rummy with runs of at most five, seat 0 to swap a joker on deal 2."""
    rules = load_ruleset_text("extends: contract_rummy\nmelds:\n  run:\n    max: 5\n",
                              file="short_runs.yaml")
    game = Game(rules, ["P0", "P1", "P2"], 1)
    goto_deal(game, 2)
    rig(game, ["4H 5H JK 7H 9C 9D 9S 9H 8H KS", *OTHERS], discard="KD",
        stock_top="2S 3S 10C 6H", turn=0)
    game.apply(DrawStock(0))
    joker = card(game, 0, "JK")
    run = MeldSpec(cards(game, 0, "4H 5H") + (joker,) + cards(game, 0, "7H"),
                   ((joker.uid, (6, "H")),))
    game.apply(LayDown(0, (run, MeldSpec(cards(game, 0, "9C 9D 9S 9H")))))
    game.apply(Discard(0, card(game, 0, "KS")))
    for seat in (1, 2):
        game.apply(DrawStock(seat))
        game.apply(Discard(seat, game.round.hands[seat][0]))
    game.apply(DrawStock(0))  # the 6H
    return game


def test_a_freed_joker_keeps_its_place_to_be_played() -> None:
    # The run may hold five cards: once the 6H frees the joker, laying off the 8H would
    # fill the run and leave the joker nowhere to go.
    game = short_runs_game()
    run = next(m for m in game.round.table if m.kind == "run")
    game.apply(SwapJoker(0, run.id, card(game, 0, "6H")))
    run = next(m for m in game.round.table if m.kind == "run")
    assert LayOff(0, run.id, cards(game, 0, "8H")) not in game.legal_actions(0)
    refused(game, LayOff(0, run.id, cards(game, 0, "8H")),
            "joker_swap: play the joker this turn")
    assert not [a for a in game.legal_actions(0) if isinstance(a, Discard)]
    game.apply(LayOff(0, run.id, cards(game, 0, "JK")))
    assert [a for a in game.legal_actions(0) if isinstance(a, Discard)]


def thrown_back_game(text: str = "extends: contract_rummy\n") -> Game:
    """Seat 0 takes seat 2's KD from the top of the pile, lays its contract down and lays
    off all but the KD, so that its last card is the one it just took."""
    game = Game(load_ruleset_text(text, file="house.yaml"), ["P0", "P1", "P2"], 1)
    rig(game, ["7C 7D 7H 7S 9C 9D 9S 9H JS QS", "JC JD JH QC QD QH 2D 3D 5S 10H",
               "3C 5C 8D 10D KD AH 4H 6D 8S 6C"], discard="4C", stock_top="2S 3S",
        turn=1)
    game.apply(DrawStock(1))
    game.apply(LayDown(1, (MeldSpec(cards(game, 1, "JC JD JH")),
                           MeldSpec(cards(game, 1, "QC QD QH")))))
    game.apply(Discard(1, card(game, 1, "10H")))
    game.apply(DrawStock(2))
    game.apply(Discard(2, card(game, 2, "KD")))
    game.apply(TakeDiscard(0, 0))
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "7C 7D 7H 7S")),
                           MeldSpec(cards(game, 0, "9C 9D 9S 9H")))))
    jacks = next(m for m in game.round.table if m.kind == "set" and m.rank == 11)
    game.apply(LayOff(0, jacks.id, cards(game, 0, "JS")))
    return game


def test_the_card_just_taken_may_not_be_thrown_back_as_the_last_card() -> None:
    game = thrown_back_game()
    queens = next(m for m in game.round.table if m.kind == "set" and m.rank == 12)
    queen = LayOff(0, queens.id, cards(game, 0, "QS"))
    assert queen not in game.legal_actions(0)
    refused(game, queen, "draw.rediscard_to_go_out")
    assert not game.round.rules.draw.rediscard_to_go_out


def test_a_house_rule_lets_the_card_just_taken_go_out_as_the_last_discard() -> None:
    game = thrown_back_game("extends: contract_rummy\ndraw:\n  rediscard_to_go_out: true\n")
    queens = next(m for m in game.round.table if m.kind == "set" and m.rank == 12)
    game.apply(LayOff(0, queens.id, cards(game, 0, "QS")))
    game.apply(Discard(0, card(game, 0, "KD")))
    assert game.round.went_out == 0


def test_an_empty_stock_and_one_discard_are_drawn_from_while_rebuilds_are_left() -> None:
    game = new_game("three_thirteen", 2)
    shoe = list(game.shoe)
    # every card but one in the hands: no stock, and one card in the pile
    game.stack_deal([shoe[:25], shoe[25:51]], stock=[], discard=shoe[51:], turn=0)
    for turn, seat in enumerate((0, 1, 0)):
        assert game.legal_actions(seat) == [TakeDiscard(seat, 0)]
        assert game.round.rebuilds == turn
        game.apply(TakeDiscard(seat, 0))
        game.apply(Discard(seat, game.round.hands[seat][0]))
        game.check_conservation()
    # two rebuilds is the limit: now the deal ends as it stands
    assert game.phase in ("round_over", "game_over")
    assert game.round.rebuilds == game.rules.stock.max_rebuilds == 2


def liverpool_two_runs(hand: str) -> Game:
    game = new_game("liverpool", 3)
    goto_deal(game, 3)  # two runs
    rig(game, [hand, "2D 3D 5S 8D 10H JD JD AD 4S 6S", "3H 5H 8D 10D JH QH AH 3H 6D 8S"],
        discard="KD", stock_top="QS", turn=0)
    game.apply(DrawStock(0))
    while game.phase == "buy":  # nobody buys the KD
        game.apply(PassBuy(game.actor))
    return game


def test_liverpool_runs_of_one_suit_may_overlap_as_separate_melds() -> None:
    game = liverpool_two_runs("2C 3C 4C 5C 3C 4C 5C 6C KH 9S")
    [lay] = [a for a in game.legal_actions(0) if isinstance(a, LayDown)]
    assert sorted(len(m.cards) for m in lay.melds) == [4, 4]
    both = cards(game, 0, "2C 3C 4C 5C 3C 4C 5C 6C")  # two decks: distinct 3C, 4C, 5C
    game.apply(LayDown(0, (MeldSpec(both[:4]), MeldSpec(both[4:]))))
    assert len(game.round.table) == 2


def test_liverpool_runs_of_one_suit_may_not_join_end_to_end() -> None:
    game = liverpool_two_runs("2C 3C 4C 5C 6C 7C 8C 9C KH 9S")
    refused(game, LayDown(0, (MeldSpec(cards(game, 0, "2C 3C 4C 5C")),
                              MeldSpec(cards(game, 0, "6C 7C 8C 9C")))),
            "contract: 2 runs")


def test_a_final_deal_all_at_once_with_a_discard() -> None:
    text = ("extends: contract_rummy\nrounds:\n  - {cards: 12, contract: {runs: 3}, "
            "all_at_once: true, going_out_discard: required}\nlay_off: {when: never}\n")
    game = Game(load_ruleset_text(text, file="final.yaml"), ["P0", "P1", "P2"], 1)
    rig(game, ["2H 3H 4H 5H 6S 7S 8S 9S JD QD KD AD",
               "2D 3D 5S 8C 10H JC 4S AC 6D 3C 7C 9C", "5C 8D 10D JH QH AH 6H 8H 9D 10C QC 2S"],
        discard="KS", stock_top="KC", turn=0)
    game.apply(DrawStock(0))
    [lay] = [a for a in game.legal_actions(0) if isinstance(a, LayDown)]
    assert sum(len(m.cards) for m in lay.melds) == 12  # every card but the one to discard
    game.apply(lay)
    [last] = game.round.hands[0]
    assert last.face == (13, "C")
    game.apply(Discard(0, last))
    assert game.round.went_out == 0
