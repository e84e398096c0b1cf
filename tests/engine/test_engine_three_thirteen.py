"""Three Thirteen, rule by rule (docs/rules.md §1), played through the engine."""

from __future__ import annotations

import random

import pytest
from table_rig import card, cards, goto_deal, new_game, rig

from tui.engine.actions import (
    Discard,
    DrawStock,
    GoOut,
    IllegalAction,
    LayDown,
    LayOff,
    MeldSpec,
    TakeDiscard,
)
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.save import fingerprint

TT = "three_thirteen"


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 2), (5, 3), (8, 4)])
def test_decks_by_player_count_and_no_jokers(players: int, decks: int) -> None:
    game = new_game(TT, players)
    assert len(game.shoe) == 52 * decks
    assert not any(c.is_joker for c in game.shoe)


def test_player_count_outside_ruleset_refused() -> None:
    with pytest.raises(ValueError, match="2–8 players"):
        Game(load_ruleset(TT), ["solo"], 1)


def test_eleven_rounds_hand_size_and_wild_rank() -> None:
    rules = load_ruleset(TT)
    assert len(rules.rounds) == 11
    for n, rnd in enumerate(rules.rounds, start=1):
        assert rnd.cards == n + 2
        assert rnd.wild == (n + 2,)  # 3s … 10s, then J=11, Q=12, K=13


def test_deal_one_card_at_a_time_from_left_of_dealer(monkeypatch: pytest.MonkeyPatch) -> None:
    # With the shuffle disabled the stock is the shoe in order, popped from the end.
    monkeypatch.setattr(random.Random, "shuffle", lambda self, x: None)
    game = new_game(TT, 3, seed=5)
    first = (game.dealer + 1) % 3
    shoe = game.shoe
    assert game.round.hands[first][:2] == [shoe[-1], shoe[-4]]
    assert game.round.hands[(first + 1) % 3][0] == shoe[-2]
    assert game.round.discard == [shoe[-10]]  # the up-card follows the 9 dealt cards
    assert game.round.turn == first


def test_every_hand_gets_the_round_size_and_an_up_card_starts_the_pile() -> None:
    game = new_game(TT, 4)
    assert [len(h) for h in game.round.hands] == [3, 3, 3, 3]
    assert len(game.round.discard) == 1
    game.check_conservation()


def test_deal_passes_left_each_round() -> None:
    game = new_game(TT, 3)
    first_dealer = game.dealer
    game.round.phase = "round_over"
    game.next_round()
    assert game.dealer == (first_dealer + 1) % 3
    assert game.round.turn == (first_dealer + 2) % 3
    assert [len(h) for h in game.round.hands] == [4, 4, 4]


def test_turn_draw_then_discard_and_play_passes_clockwise() -> None:
    game = new_game(TT, 3)
    seat = game.actor
    with pytest.raises(IllegalAction, match="draw first"):
        game.apply(Discard(seat, game.round.hands[seat][0]))
    game.apply(DrawStock(seat))
    with pytest.raises(IllegalAction, match="already drawn"):
        game.apply(DrawStock(seat))
    game.apply(Discard(seat, game.round.hands[seat][0]))
    assert game.actor == (seat + 1) % 3


def test_take_only_the_top_discard() -> None:
    game = new_game(TT, 2)
    rig(game, ["4C 5C 9H", "2D 2S 8S"], discard="KD QH", turn=0)
    with pytest.raises(IllegalAction, match="top card"):
        game.apply(TakeDiscard(0, 1))
    game.apply(TakeDiscard(0, 0))
    assert card(game, 0, "QH")


def test_nothing_is_laid_down_during_play_and_no_laying_off() -> None:
    game = new_game(TT, 2)
    rig(game, ["4C 4D 4H", "2D 2S 8S"], discard="KD", stock_top="9C", turn=0)
    game.apply(DrawStock(0))
    before = fingerprint(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(LayDown(0, (MeldSpec(cards(game, 0, "4C 4D 4H")),)))
    assert "melding_during_play" in err.value.rule
    with pytest.raises(IllegalAction):
        game.apply(LayOff(0, 0, cards(game, 0, "9C")))
    assert fingerprint(game) == before


def test_going_out_melds_all_but_one_and_discards_then_each_other_gets_one_turn() -> None:
    game = new_game(TT, 3)
    # Round 1: 3s wild.  Seat 0 holds 5H 6H, draws 3S (wild): run 5H-6H-3S(=7H), discard KC.
    rig(game, ["5H 6H KC", "9D 9S 2C", "JD QC 8S"], discard="AD", stock_top="3S 4D 4S",
        turn=0)
    game.apply(DrawStock(0))
    meld = MeldSpec(cards(game, 0, "5H 6H 3S"))
    game.apply(GoOut(0, (meld,), card(game, 0, "KC")))
    assert game.round.went_out == 0
    assert game.view(0).final_turns
    # Seat 1 takes its one final turn: draw, then discard; no going out.
    assert game.actor == 1
    game.apply(DrawStock(1))
    assert not any(isinstance(a, GoOut) for a in game.legal_actions(1))
    game.apply(Discard(1, card(game, 1, "2C")))
    assert game.actor == 2
    game.apply(DrawStock(2))
    game.apply(Discard(2, card(game, 2, "QC")))
    assert game.phase == "round_over"
    result = game.results[-1]
    assert result.points[0] == 0
    # Seat 1: 9D 9S 4D — no meld; seat 2: JD 8S 4S — no meld.
    assert result.points[1] == 9 + 9 + 4
    assert result.points[2] == 10 + 8 + 4


def test_going_out_requires_every_card_but_the_discard_in_melds() -> None:
    game = new_game(TT, 2)
    rig(game, ["5H 6H KC", "9D 9S 2C"], discard="AD", stock_top="QS", turn=0)
    game.apply(DrawStock(0))
    before = fingerprint(game)
    with pytest.raises(IllegalAction):
        game.apply(GoOut(0, (MeldSpec(cards(game, 0, "5H 6H QS")),), card(game, 0, "KC")))
    with pytest.raises(IllegalAction, match="left over"):
        game.apply(GoOut(0, (), card(game, 0, "KC")))
    assert fingerprint(game) == before


def test_going_out_needs_a_discard() -> None:
    game = new_game(TT, 2)
    rig(game, ["5H 6H 7H", "9D 9S 2C"], discard="AD", stock_top="8H", turn=0)
    game.apply(DrawStock(0))
    with pytest.raises(IllegalAction) as err:
        game.apply(GoOut(0, (MeldSpec(cards(game, 0, "5H 6H 7H 8H")),), None))
    assert "required" in err.value.rule


def test_a_card_belongs_to_one_meld_only() -> None:
    game = new_game(TT, 2)
    rig(game, ["5H 6H 7H", "9D 9S 2C"], discard="AD", stock_top="KS", turn=0)
    game.apply(DrawStock(0))
    shared = cards(game, 0, "5H 6H 7H")
    with pytest.raises(IllegalAction, match="twice"):
        game.apply(GoOut(0, (MeldSpec(shared), MeldSpec(shared)), card(game, 0, "KS")))


def test_every_meld_needs_a_natural_card() -> None:
    # Round 4: 6s wild.  Three wild 6s standing for 2H 3H 4H are a meld of wilds only
    # (min_natural 1), refused; the same three 6s standing for themselves are a set.
    game = new_game(TT, 2)
    goto_deal(game, 4)
    rig(game, ["6C 6D 6H 9H 9S 9D", "2C 3C 4C 5C 7C 8C"], discard="AD", stock_top="KC",
        turn=0)
    game.apply(DrawStock(0))
    wilds = cards(game, 0, "6C 6D 6H")
    nines = MeldSpec(cards(game, 0, "9H 9S 9D"))
    as_hearts = MeldSpec(wilds, tuple((c.uid, (rank, "H"))
                                      for c, rank in zip(wilds, (2, 3, 4), strict=True)))
    before = fingerprint(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(GoOut(0, (as_hearts, nines), card(game, 0, "KC")))
    assert err.value.rule == "melds.min_natural"
    assert fingerprint(game) == before
    game.apply(GoOut(0, (MeldSpec(wilds), nines), card(game, 0, "KC")))
    assert game.round.went_out == 0


def test_wild_rank_card_may_stand_for_itself() -> None:
    # Round 1: 3s wild; 3H 3S 3D is a set of natural 3s.
    game = new_game(TT, 2)
    rig(game, ["3H 3S KC", "9D 9S 2C"], discard="AD", stock_top="3D", turn=0)
    game.apply(DrawStock(0))
    game.apply(GoOut(0, (MeldSpec(cards(game, 0, "3H 3S 3D")),), card(game, 0, "KC")))
    assert game.round.went_out == 0


def test_unmelded_cards_score_face_value_and_hands_are_arranged_at_best() -> None:
    game = new_game(TT, 2)
    for _ in range(4):  # round 5: 7 cards, 7s wild
        game.round.phase = "round_over"
        game.next_round()
    # Seat 0 draws 7S (wild) for 5D-6D-(7D)-8D.  Seat 1: set 8C 8S 8H, run 9H-JH, KS left.
    rig(game, ["2C 3C 4C 5D 6D 8D 9C", "8C 8S 8H 9H 10H JH KS"], discard="AD",
        stock_top="7S 4S", turn=0)
    game.apply(DrawStock(0))
    melds = (MeldSpec(cards(game, 0, "2C 3C 4C")), MeldSpec(cards(game, 0, "5D 6D 7S 8D")))
    game.apply(GoOut(0, melds, card(game, 0, "9C")))
    game.apply(DrawStock(1))
    game.apply(Discard(1, card(game, 1, "4S")))
    assert game.results[-1].points == (0, 10)


def test_round_ends_scored_when_stock_cannot_be_rebuilt() -> None:
    game = new_game(TT, 2)
    rig(game, ["5H 6H KC", "9D 9S 2C"], discard="AD", turn=0)
    st = game.round
    # Empty the stock into the discard pile and use up the rebuilds.
    st.discard = st.stock + st.discard
    st.stock = []
    st.rebuilds = game.rules.stock.max_rebuilds
    game.check_conservation()
    game.apply(TakeDiscard(0, 0))
    game.apply(Discard(0, card(game, 0, "KC")))
    assert game.phase == "round_over"
    assert game.results[-1].went_out == -1


def test_a_deal_where_nobody_draws_from_the_stock_still_ends() -> None:
    """A bug that happened: players who only take the top discard and throw it back never
    use the stock up, so the rebuild limit never came and the deal never ended (bots did
    it under the `wild_twos` house rules).  After as many turns as the stock and its
    rebuilds could supply, the deal ends as it stands, nobody out."""
    game = new_game(TT, 2)
    rig(game, ["5H 6H KC", "9D 9S 2C"], discard="AD", turn=0)
    limit = (game.rules.stock.max_rebuilds + 1) * 52  # the first stock and two rebuilds
    turns = 0
    while game.phase == "draw" and turns <= limit:  # (before the fix: for ever)
        seat = game.actor
        top = game.round.discard[-1]
        game.apply(TakeDiscard(seat, 0))
        game.apply(Discard(seat, top))
        turns += 1
        game.check_conservation()
    assert turns == limit
    assert game.phase == "round_over" and game.results[-1].went_out == -1
    assert game.round.rebuilds == 0  # the stock was never used


def test_stock_is_rebuilt_from_discards_except_the_top() -> None:
    game = new_game(TT, 2)
    rig(game, ["5H 6H KC", "9D 9S 2C"], discard="AD", turn=0)
    st = game.round
    st.discard = st.stock + st.discard
    st.stock = []
    king = card(game, 0, "KC")
    game.apply(TakeDiscard(0, 0))
    game.apply(Discard(0, king))
    # Seat 1 must draw: the pile but its top card became the new stock.
    assert game.phase == "draw"
    assert game.round.discard == [king]
    assert game.round.rebuilds == 1
    assert len(game.round.stock) == 52 - 6 - 1
    game.check_conservation()


def test_game_ends_after_eleven_rounds_lowest_total_wins_ties_share() -> None:
    game = new_game(TT, 3)
    for _ in range(10):
        game.round.phase = "round_over"
        game.next_round()
    assert game.round.number == 11
    game.totals = [30, 12, 12]
    # Every hand fully melded, and each player draws an ace and throws it: nobody scores.
    rig(game, ["2C 3C 4C 5C 5D 6D 7D 9C 9D 9H 10S JS QS",
               "2D 2S 2H 8S 8C 8D 5S 5H 5C 6C 6S 6H 6D",
               "4D 4S 4H 7C 7S 7H 10C 10D 10H JC JD JH JS"], discard="QD",
        stock_top="AH AD AC", turn=0)
    game.apply(DrawStock(0))
    [out] = [a for a in game.legal_actions(0) if isinstance(a, GoOut)]
    assert out.discard is not None and out.discard.face == (1, "H")
    game.apply(out)
    for seat, ace in ((1, "AD"), (2, "AC")):
        game.apply(DrawStock(seat))
        game.apply(Discard(seat, card(game, seat, ace)))
    assert game.results[-1].points == (0, 0, 0)
    assert game.phase == "game_over"
    assert game.winners == (1, 2)
