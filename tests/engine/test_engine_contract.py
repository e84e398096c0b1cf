"""Contract Rummy, rule by rule (docs/rules.md §2), played through the engine."""

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
    SwapJoker,
    TakeDiscard,
)
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset, load_ruleset_text
from tui.engine.save import fingerprint

CR = "contract_rummy"



@pytest.mark.parametrize(("players", "size"), [(3, 53), (4, 106), (5, 106)])
def test_decks_and_jokers_by_player_count(players: int, size: int) -> None:
    game = new_game(CR, players)
    assert len(game.shoe) == size
    assert sum(c.is_joker for c in game.shoe) == (1 if players == 3 else 2)


def test_players_three_to_five() -> None:
    rules = load_ruleset(CR)
    assert (rules.players_min, rules.players_max) == (3, 5)


def test_seven_deals_with_their_contracts() -> None:
    rules = load_ruleset(CR)
    table = [(r.cards, r.contract.sets, r.contract.runs, r.all_at_once) for r in rules.rounds]
    assert table == [
        (10, 2, 0, False), (10, 1, 1, False), (10, 0, 2, False), (10, 3, 0, False),
        (12, 2, 1, False), (12, 1, 2, False), (12, 0, 3, True),
    ]


def test_lowest_card_deals_first() -> None:
    game = new_game(CR, 4, seed=11)
    cut = [e.text for e in game.log if e.kind == "dealer"]
    assert any("cut lowest" in line for line in cut)
    assert game.round.turn == (game.dealer + 1) % 4


def contract_game() -> Game:
    """Deal 1 (2 sets), seat 0 to play, holding two sets and change."""
    game = new_game(CR, 3)
    rig(game, [
        "7C 7D 7H 9C 9D 9S 2C 4D 6H KS",
        "2D 3D 5S 8C 10H JC QD AC 4S 6S",
        "3C 5C 8D 10D JH QH AH 4H 6D 8S",
    ], discard="KD", stock_top="QS 2H 3H", turn=0)
    return game


def test_contract_laid_down_in_one_turn_then_no_new_melds() -> None:
    game = contract_game()
    game.apply(DrawStock(0))
    before = fingerprint(game)
    with pytest.raises(IllegalAction) as err:  # one set is not the contract
        game.apply(LayDown(0, (MeldSpec(cards(game, 0, "7C 7D 7H")),)))
    assert "contract" in err.value.rule
    assert fingerprint(game) == before
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "7C 7D 7H")),
                           MeldSpec(cards(game, 0, "9C 9D 9S")))))
    assert game.view(0).players[0].contract_down
    game.apply(Discard(0, card(game, 0, "KS")))
    game.apply(DrawStock(1))
    game.apply(Discard(1, card(game, 1, "QD")))
    game.apply(DrawStock(2))
    game.apply(Discard(2, card(game, 2, "QH")))
    game.apply(DrawStock(0))
    with pytest.raises(IllegalAction, match="only laying off"):
        game.apply(LayDown(0, (MeldSpec(cards(game, 0, "2C 4D 6H")),)))


def test_sets_of_one_contract_must_differ_in_rank() -> None:
    game = new_game(CR, 4)  # two decks: two sets of 7s are possible
    rig(game, ["7C 7D 7H 7S 7D 7H 2C 4D 6H KS", "2D 3D 5S 8C 10H JC QD AC 4S 6S",
               "3C 5C 8D 10D JH QH AH 4H 6D 8S", "2S 3S 5D 8H 10S JS QC AD 4C 6C"],
        discard="KD", stock_top="QS", turn=0)
    game.apply(DrawStock(0))
    with pytest.raises(IllegalAction):
        game.apply(LayDown(0, (MeldSpec(cards(game, 0, "7C 7D 7H")),
                               MeldSpec(cards(game, 0, "7S 7D 7H")))))


def test_set_has_three_or_four_cards_of_distinct_suits_with_two_decks() -> None:
    game = new_game(CR, 4)
    rig(game, ["7C 7D 7D 9C 9D 9S 2C 4D 6H KS", "2D 3D 5S 8C 10H JC QD AC 4S 6S",
               "3C 5C 8D 10D JH QH AH 4H 6D 8S", "2S 3S 5D 8H 10S JS QC AD 4C 6C"],
        discard="KD", stock_top="QS", turn=0)
    game.apply(DrawStock(0))
    with pytest.raises(IllegalAction, match="suit"):
        game.apply(LayDown(0, (MeldSpec(cards(game, 0, "7C 7D 7D")),
                               MeldSpec(cards(game, 0, "9C 9D 9S")))))


def test_runs_of_one_contract_may_not_share_a_suit() -> None:
    game = new_game(CR, 3)
    goto_deal(game, 3)  # 2 runs
    rig(game, ["2C 3C 4C 6C 7C 8C KD KS QD JD", "2D 3D 5S 8D 10H JC 9D AC 4S 6S",
               "3S 5C 10D JH QH AH 4H 6D 8S 9S"], discard="KH", stock_top="QS", turn=0)
    game.apply(DrawStock(0))
    with pytest.raises(IllegalAction):
        game.apply(LayDown(0, (MeldSpec(cards(game, 0, "2C 3C 4C")),
                               MeldSpec(cards(game, 0, "6C 7C 8C")))))


def test_lay_off_only_after_contract_onto_any_meld() -> None:
    game = contract_game()
    game.apply(DrawStock(0))
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "7C 7D 7H")),
                           MeldSpec(cards(game, 0, "9C 9D 9S")))))
    game.apply(Discard(0, card(game, 0, "KS")))
    # Seat 1 has no contract down: may not lay off its 8C... nor anything.
    game.apply(DrawStock(1))
    meld_id = game.round.table[0].id
    before = fingerprint(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(LayOff(1, meld_id, cards(game, 1, "2H")))
    assert "after contract" in err.value.rule
    assert fingerprint(game) == before


def test_may_not_rediscard_the_single_card_taken_from_the_pile() -> None:
    game = contract_game()
    game.apply(TakeDiscard(0, 0))
    king = card(game, 0, "KD")
    before = fingerprint(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(Discard(0, king))
    assert err.value.rule == "draw.no_immediate_rediscard"
    assert fingerprint(game) == before
    assert all(getattr(a, "card", None) != king or a.kind != "discard"
               for a in game.legal_actions(0))


def test_deep_draw_takes_all_cards_above_and_must_be_melded() -> None:
    game = new_game(CR, 3)
    rig(game, ["7C 7D 9C 9D 9S 2C 4D 6H KS QC", "2D 3D 5S 8C 10H JC QD AC 4S 6S",
               "3C 5C 8D 10D JH QH AH 4H 6D 8S"], discard="7H KD 2H", stock_top="3H",
        turn=0)
    game.apply(TakeDiscard(0, 2))  # 7H, with KD and 2H above it
    assert {c.face for c in game.round.hands[0]} >= {(7, "H"), (13, "D"), (2, "H")}
    assert game.round.discard == []
    # Discarding before melding the 7H is refused...
    with pytest.raises(IllegalAction) as err:
        game.apply(Discard(0, card(game, 0, "KD")))
    assert err.value.rule == "draw.deep_must_meld"
    # ...and with several cards taken, one of them may be discarded after melding.
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "7C 7D 7H")),
                           MeldSpec(cards(game, 0, "9C 9D 9S")))))
    game.apply(Discard(0, card(game, 0, "KD")))


def test_deep_draw_refused_when_card_cannot_be_melded() -> None:
    game = new_game(CR, 3)
    rig(game, ["7C 5D 9C 9D 9S 2C 4D 6H KS QC", "2D 3D 5S 8C 10H JC QD AC 4S 6S",
               "3C 5C 8D 10D JH QH AH 4H 6D 8S"], discard="7H KD 2H", turn=0)
    before = fingerprint(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(TakeDiscard(0, 2))
    assert err.value.rule == "draw.deep_must_meld"
    assert fingerprint(game) == before


def two_run_table() -> Game:
    """Deal 2 (1 set + 1 run): seat 0 lays down a run with a joker in it."""
    game = new_game(CR, 3)
    goto_deal(game, 2)
    rig(game, ["4H 5H JK 7H 9C 9D 9S 2C KS QC", "2D 3D 5S 8C 10H JC QD AC 4S 6S",
               "3C 5C 8D 10D JH QH AH 4D 6D 8S"], discard="KD", stock_top="2S 3S 10C 6H",
        turn=0)
    game.apply(DrawStock(0))
    joker = card(game, 0, "JK")
    run = MeldSpec(cards(game, 0, "4H 5H") + (joker,) + cards(game, 0, "7H"),
                   ((joker.uid, (6, "H")),))
    game.apply(LayDown(0, (run, MeldSpec(cards(game, 0, "9C 9D 9S")))))
    return game


def test_joker_declared_identity_kept_and_swap_not_on_the_turn_of_the_contract() -> None:
    game = two_run_table()
    run = game.round.table[0]
    assert any(face == (6, "H") for _, face in run.wild_cards())
    # The 6H arrives next turn; on the contract's own turn a swap is not allowed.
    assert not any(isinstance(a, SwapJoker) for a in game.legal_actions(0))
    game.apply(Discard(0, card(game, 0, "KS")))
    game.apply(DrawStock(1))
    game.apply(Discard(1, card(game, 1, "QD")))
    game.apply(DrawStock(2))
    game.apply(Discard(2, card(game, 2, "QH")))
    game.apply(DrawStock(0))  # 6H
    six = card(game, 0, "6H")
    game.apply(SwapJoker(0, run.id, six))
    joker = card(game, 0, "JK")
    # The freed joker must be played this turn: discarding is refused until it is.
    with pytest.raises(IllegalAction) as err:
        game.apply(Discard(0, card(game, 0, "2C")))
    assert "joker" in err.value.rule
    new_run = next(m for m in game.round.table if m.id == run.id)
    game.apply(LayOff(0, new_run.id, (joker,)))
    game.apply(Discard(0, card(game, 0, "2C")))
    game.check_conservation()


def test_jokers_in_sets_are_dead() -> None:
    game = new_game(CR, 3)
    rig(game, ["7C 7D JK 9C 9D 9S 2C KS QC 4D", "2D 3D 5S 8C 10H JC QD AC 4S 6S",
               "3C 5C 8D 10D JH QH AH 4H 6D 8S"], discard="KD", stock_top="2S 3S 10C 7H",
        turn=0)
    game.apply(DrawStock(0))
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "7C 7D JK")),
                           MeldSpec(cards(game, 0, "9C 9D 9S")))))
    game.apply(Discard(0, card(game, 0, "KS")))
    game.apply(DrawStock(1))
    game.apply(Discard(1, card(game, 1, "QD")))
    game.apply(DrawStock(2))
    game.apply(Discard(2, card(game, 2, "QH")))
    game.apply(DrawStock(0))  # 7H
    set_id = game.round.table[0].id
    with pytest.raises(IllegalAction) as err:
        game.apply(SwapJoker(0, set_id, card(game, 0, "7H")))
    assert "runs only" in err.value.rule


def test_going_out_by_laying_off_and_a_final_discard_ends_the_deal_at_once() -> None:
    game = new_game(CR, 3)
    goto_deal(game, 2)  # 1 set + 1 run
    rig(game, ["4H 5H 6H 7H 9C 9D 9S 8H 3H KS", "2D 3D 5S 8C 10H JC QD AC 4S 6S",
               "3S 5C 8D 10D JH QH AH 4D 6D 8S"], discard="KD", stock_top="2C 3C 5D 9H",
        turn=0)
    game.apply(DrawStock(0))
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "4H 5H 6H 7H")),
                           MeldSpec(cards(game, 0, "9C 9D 9S")))))
    run_id = game.round.table[0].id
    # Laying off is allowed on the turn the contract goes down, at either end of a run.
    game.apply(LayOff(0, run_id, cards(game, 0, "8H")))
    game.apply(LayOff(0, run_id, cards(game, 0, "3H")))
    game.apply(Discard(0, card(game, 0, "KS")))
    game.apply(DrawStock(1))
    game.apply(Discard(1, card(game, 1, "QD")))
    game.apply(DrawStock(2))
    game.apply(Discard(2, card(game, 2, "QH")))
    game.apply(DrawStock(0))  # 9H
    game.apply(LayOff(0, run_id, cards(game, 0, "9H")))
    game.apply(Discard(0, card(game, 0, "2C")))
    assert game.phase == "round_over"
    result = game.results[-1]
    assert result.went_out == 0
    # Left in hand: 2D 3D 5S 8C 10H JC AC 4S 6S 3C and 3S 5C 8D 10D JH AH 4D 6D 8S 5D.
    assert result.points == (0, 2 + 3 + 5 + 8 + 10 + 10 + 15 + 4 + 6 + 3,
                             3 + 5 + 8 + 10 + 10 + 15 + 4 + 6 + 8 + 5)
    # The summary shows what each seat melded: the out player's run and set, nobody else's.
    assert [sorted(str(c) for c in meld) for meld in result.melds[0]] == [
        sorted("3H 4H 5H 6H 7H 8H 9H".split()), ["9C", "9D", "9S"]]
    assert result.melds[1] == result.melds[2] == ()
    assert len(result.deadwood[1]) == 10  # every card in hand scores


def deal_seven() -> Game:
    game = new_game(CR, 3)
    goto_deal(game, 7)  # 3 runs, all at once
    rig(game, ["2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H",
               "7C 8C 9C 10C JC QC KC 7D 8D 9D 10D JD",
               "7H 8H 9H 10H JH QH KH 7S 8S 9S 10S JS"], discard="KD", stock_top="5H",
        turn=0)
    game.apply(DrawStock(0))
    return game


def test_deal_seven_contract_only_with_the_whole_hand_and_no_discard() -> None:
    game = deal_seven()
    before = fingerprint(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(LayDown(0, (MeldSpec(cards(game, 0, "2C 3C 4C 5C 6C")),
                               MeldSpec(cards(game, 0, "2D 3D 4D 5D")),
                               MeldSpec(cards(game, 0, "2H 3H 4H")))))
    assert "all at once" in err.value.rule
    assert fingerprint(game) == before
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "2C 3C 4C 5C 6C")),
                           MeldSpec(cards(game, 0, "2D 3D 4D 5D")),
                           MeldSpec(cards(game, 0, "2H 3H 4H 5H")))))
    assert game.phase == "game_over"
    assert game.results[-1].went_out == 0
    assert game.results[-1].points[1] == 7 + 8 + 9 + 10 + 10 + 10 + 10 + 7 + 8 + 9 + 10 + 10


def test_after_seven_deals_lowest_total_wins() -> None:
    game = deal_seven()
    game.totals = [200, 5, 50]
    game.apply(LayDown(0, (MeldSpec(cards(game, 0, "2C 3C 4C 5C 6C")),
                           MeldSpec(cards(game, 0, "2D 3D 4D 5D")),
                           MeldSpec(cards(game, 0, "2H 3H 4H 5H")))))
    assert game.winners == (1,)


def test_card_values_aces_and_jokers_fifteen() -> None:
    rules = load_ruleset(CR)
    values = rules.scoring.values
    assert values[1] == 15 and values[0] == 15
    assert values[13] == 10 and values[7] == 7


def test_contract_search_can_insist_on_one_card() -> None:
    from tui.engine.cards import Card, parse_cards
    from tui.engine.solver.api import find_contract

    rules = load_ruleset(CR)
    faces = parse_cards("9C 9D 9S KC KD KH 5C 5D 5H 2S")
    hand = [Card(c.rank, c.suit, uid) for uid, c in enumerate(faces)]
    best = find_contract(hand, rules, 1)
    assert best is not None
    assert {m.rank for m in best.melds} == {9, 13}  # the fives are worth least to meld
    five = hand[8]
    forced = find_contract(hand, rules, 1, must_include=five)
    assert forced is not None
    assert any(c.uid == five.uid for m in forced.melds for c in m.cards)
    assert {m.rank for m in forced.melds} == {5, 13}
    assert find_contract(hand, rules, 1, must_include=hand[9]) is None  # 2S melds nowhere


def test_a_swap_that_would_owe_two_cards_one_place_is_refused() -> None:
    """Found by the slow soak (`joker_swap.runs_only: false`): a card taken from deep in
    the pile and a joker freed from a full set each fit the one set with room for one
    more card, but not both; the swap was allowed and the turn then had no legal move."""
    rules = load_ruleset_text(
        "extends: contract_rummy\njoker_swap: {runs_only: false}\n", key="swap_sets")
    game = Game(rules, ["P0", "P1", "P2"], 1)
    rig(game, ["7C 7D 7S JK 9C 9D 9S 7H 2C KS", "2D 3D 5S 8C 10H JC QD AC 4S 9H",
               "3C 5C 8D 10D JH QH AH 4H 6D 8S"], discard="KD",
        stock_top="2S 3S 10C 6H", turn=0)
    game.apply(DrawStock(0))
    joker = card(game, 0, "JK")
    sevens = MeldSpec(cards(game, 0, "7C 7D 7S") + (joker,), ((joker.uid, (7, "H")),))
    game.apply(LayDown(0, (sevens, MeldSpec(cards(game, 0, "9C 9D 9S")))))
    game.apply(Discard(0, card(game, 0, "KS")))
    game.apply(DrawStock(1))
    game.apply(Discard(1, card(game, 1, "9H")))
    game.apply(DrawStock(2))
    game.apply(Discard(2, card(game, 2, "QH")))
    game.apply(TakeDiscard(0, 1))  # the 9H, owed to the set of nines, and the QH above it
    full_sevens = game.round.table[0]
    swap = SwapJoker(0, full_sevens.id, card(game, 0, "7H"))
    assert swap not in game.legal_actions(0)
    before = fingerprint(game)
    with pytest.raises(IllegalAction, match="joker could not be played"):
        game.apply(swap)
    assert fingerprint(game) == before
    assert game.legal_actions(0)  # and the turn goes on: the 9H is laid off, and so on
