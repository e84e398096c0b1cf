"""`judgement`: Three Thirteen play for the race to go out (`tui.bots.judgement`).

The pieces are checked on crafted hands (solitaire steps, the pace of a deal, the value of
a hand in the race), then the bot's choices in positions where the race decides, and
legality over whole games.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from table_rig import goto_deal, new_game, rig

from tui.bots.arena import play_game
from tui.bots.hard import HardBot
from tui.bots.judgement import (
    ExactRace,
    Judgement,
    Odds,
    Solitaire,
    pace_curve,
    race_odds,
)
from tui.bots.lookahead import Feeder, Lookahead
from tui.bots.memory import read_knowledge
from tui.bots.tactics import evaluator_for
from tui.engine.actions import Discard, DrawStock
from tui.engine.cards import parse_card
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.solver import best_arrangement

REPO = Path(__file__).resolve().parents[2]
RULESET_FILES = sorted((REPO / "rulesets").glob("*.yaml")) + \
    sorted((REPO / "rulesets" / "cookbook").glob("*.yaml"))
TT = "three_thirteen"


def hand(text: str) -> list:
    return [parse_card(t, i) for i, t in enumerate(text.split())]


def test_a_solitaire_step_goes_out_keeps_a_helping_card_and_throws_back_the_rest() -> None:
    game = new_game(TT, 2)
    goto_deal(game, 2)  # four cards, fours wild
    view = game.view(game.round.in_turn)
    play = Solitaire(evaluator_for(view))
    node = play.node(hand("7H 8H 9H KS"))
    assert play.step(node, parse_card("10H"))[0] is None  # 7-10 of hearts: out, KS goes
    same, final = play.step(node, parse_card("KD"))
    assert same is node and final == 10  # a king helps nothing: thrown back, KS scores
    lower, final = play.step(node, parse_card("2C"))
    assert lower is not None and lower.penalty == 2 and final == 2  # kept in place of KS


def test_the_pace_of_a_deal_follows_what_its_hand_size_asks() -> None:
    """Three cards need one 3-card meld; five need one 5-card meld: the pace curve, learnt
    from solitaire hands of the deal's size, has the first go out far sooner."""
    game = new_game(TT, 2)
    three = game.view(game.round.in_turn)
    goto_deal(game, 3)
    five = game.view(game.round.in_turn)
    soon = sum(pace_curve(three, evaluator_for(three)).hazard[:6])
    late = sum(pace_curve(five, evaluator_for(five)).hazard[:6])
    assert soon > 2 * late


def test_an_opponent_who_took_from_the_pile_is_nearer_going_out() -> None:
    game = new_game(TT, 2)
    goto_deal(game, 8)
    view = game.view(game.round.in_turn)
    ev = evaluator_for(view)
    other = 1 - view.seat
    blind = race_odds(view, ev, {})
    took = race_odds(view, ev, {other: [parse_card("7H"), parse_card("8D")]})
    assert all(t >= b for t, b in zip(took.ends, blind.ends, strict=True))
    assert sum(took.ends) > 1.5 * sum(blind.ends)
    assert all(0.0 <= e < 1.0 for e in took.ends)


def test_judgement_keeps_a_pair_that_can_go_out_where_hard_sheds_points() -> None:
    """Three cards, threes wild: after drawing 5D, hard throws an 8 (fewest points after one
    more draw); the race keeps the pair of eights, which goes out on either other 8 or any
    3, and throws the 5D."""
    game = new_game(TT, 2)
    rig(game, ["8C 8D 4S", "KH QC 9S"], discard="JD", stock_top="5D", turn=0)
    game.apply(DrawStock(0))
    view = game.view(0)
    hard = HardBot(1).choose(view)
    assert isinstance(hard, Discard) and hard.card.rank == 8
    choice = Judgement(1).choose(view)
    assert isinstance(choice, Discard) and str(choice.card) == "5D"


def test_hard_plans_with_the_look_ahead_it_is_given() -> None:
    """The same position, but a hard whose look-ahead draws only eights and threes (every
    draw makes the pair a set): it keeps the pair.  The look-ahead is what the dead-card
    yardstick (`feed_diagnostics.py dead-cards`) replaces: if hard stopped planning with
    it, that yardstick would measure nothing."""

    class SureOfTheEights(HardBot):
        def _lookahead(self, view, ev, know):  # type: ignore[no-untyped-def]
            pool = Counter({face: n for face, n in know.unseen.items() if face[0] in (3, 8)})
            return Lookahead(ev, pool)

    game = new_game(TT, 2)
    rig(game, ["8C 8D 4S", "KH QC 9S"], discard="JD", stock_top="5D", turn=0)
    game.apply(DrawStock(0))
    choice = SureOfTheEights(1).choose(game.view(0))
    assert isinstance(choice, Discard) and choice.card.rank != 8


def test_judgement_races_by_the_odds_it_is_given() -> None:
    """The same position, but a judgement told the deal ends before its next draw: the
    next draw is its last, so it sheds points as hard does and throws an eight.  The odds
    are what the hazard yardstick (`feed_diagnostics.py hazard`) replaces."""

    class LastDraw(Judgement):
        def _race_odds(self, view, ev, know):  # type: ignore[no-untyped-def]
            return Odds((1.0, 1.0), (0.0, 0.0))

    game = new_game(TT, 2)
    rig(game, ["8C 8D 4S", "KH QC 9S"], discard="JD", stock_top="5D", turn=0)
    game.apply(DrawStock(0))
    choice = LastDraw(1).choose(game.view(0))
    assert isinstance(choice, Discard) and choice.card.rank == 8


def test_judgement_explains_its_discard_with_the_race_value() -> None:
    game = new_game(TT, 2)
    rig(game, ["8C 8D 4S", "KH QC 9S"], discard="JD", stock_top="5D", turn=0)
    game.apply(DrawStock(0))
    line = Judgement(1).explain(game.view(0))
    assert line.startswith("discard 5D") and "expected points by the end" in line
    assert "\n" not in line


def test_in_contract_games_judgement_plays_as_hard() -> None:
    rules = load_ruleset("contract_rummy")
    game = Game(rules, ["P0", "P1", "P2"], 3)
    bots = [Judgement(5), HardBot(6), HardBot(7)]
    twin = HardBot(5)
    compared = 0
    while game.phase == "play" or game.phase == "draw" or game.phase == "buy":
        seat = game.actor
        view = game.view(seat)
        action = bots[seat].choose(view)
        if seat == 0:
            assert action == twin.choose(view)
            compared += 1
        game.apply(action)
        if compared >= 30:
            break
    assert compared >= 10


def _play_whole_game(path: Path, players: int, seed: int) -> None:
    rules = load_ruleset(str(path))
    players = max(rules.players_min, min(players, rules.players_max))
    bots = [Judgement(seed + s) if s % 2 == 0 else HardBot(seed + s) for s in range(players)]
    game = play_game(rules, bots, seed)  # an illegal action would raise
    assert game.phase == "game_over"
    game.check_conservation()


def test_judgement_plays_the_first_deals_of_three_thirteen_legally() -> None:
    game = new_game(TT, 3, seed=4)
    bots = [Judgement(1), HardBot(2), Judgement(3)]
    while game.round.number < 3 and game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
            continue
        seat = game.actor
        game.apply(bots[seat].choose(game.view(seat)))  # an illegal action would raise
        game.check_conservation()
    assert game.round.number == 3


@pytest.mark.slow
@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_judgement_plays_whole_games_of_every_ruleset(path: Path) -> None:
    _play_whole_game(path, 2, 2)  # as few players as the ruleset allows
    _play_whole_game(path, 4, 3)


def test_a_layout_without_a_left_over_card_is_the_solvers_own() -> None:
    game = new_game(TT, 2)
    goto_deal(game, 5)  # sevens wild
    view = game.view(game.round.in_turn)
    ev = evaluator_for(view)
    cards = hand("3H 4H 5H 9C 9D KS 2S 7C")
    whole = ev.layout(cards)
    assert len(whole.deadwood) >= 2
    for card in whole.deadwood:
        rest = [c for c in cards if c.uid != card.uid]
        derived = ev.layout_without(cards, card)
        solved = best_arrangement(rest, view.rules, view.schedule_round)
        assert derived.penalty == solved.penalty == whole.penalty - ev.value(card)
        assert sorted(c.uid for c in derived.deadwood) == \
            sorted(c.uid for c in whole.deadwood if c.uid != card.uid)


def test_cards_drawn_in_a_play_out_never_share_a_uid_with_the_hand() -> None:
    """The solver tells cards apart by uid; unseen faces all come as uid -1 copies, so a
    hand that draws two of them must give the second one a uid of its own."""
    game = new_game(TT, 2)
    goto_deal(game, 2)  # fours wild
    view = game.view(game.round.in_turn)
    play = Solitaire(evaluator_for(view))
    node = play.node(hand("7H 8H KS QD"))
    first, _ = play.step(node, parse_card("2C"))  # kept in place of KS
    assert first is not None and first is not node
    second, _ = play.step(first, parse_card("AC"))  # kept in place of QD
    assert second is not None and second is not first
    uids = [c.uid for c in second.cards]
    assert len(set(uids)) == len(uids)


def test_the_feeder_reads_which_discard_lets_the_next_player_go_out() -> None:
    """Three cards, threes wild: the next player holds QC QD 9D (here told to the feeder as
    its reading of the hand), so QH or any three lets it go out and 2S does not."""
    game = new_game(TT, 2)
    rig(game, ["7C 7D QH 2S", "QC QD 9D"], discard="JD", turn=0)
    view = game.view(0)
    ev = evaluator_for(view)
    know = read_knowledge(view)
    theirs = list(game.round.hands[1])
    feeder = Feeder(view, ev, know, 1, 4, lambda rng, seat: theirs)
    assert feeder.out_chance(parse_card("QH")) == 1.0
    assert feeder.out_chance(parse_card("3S")) == 1.0
    assert feeder.out_chance(parse_card("2S")) == 0.0


def test_a_hand_whose_deal_ends_now_is_worth_what_it_keeps_after_one_last_draw() -> None:
    game = new_game(TT, 2)
    goto_deal(game, 2)  # four cards, fours wild
    view = game.view(game.round.in_turn)
    ev = evaluator_for(view)
    know = read_knowledge(view)
    race = ExactRace(ev, know.unseen, race_odds(view, ev, {}))
    cards = hand("7H 8H KS 2C")
    last = Lookahead(ev, know.unseen).expect(cards)
    assert race.value(cards, end=1.0) == pytest.approx(last)
    assert race.value(cards, end=0.0) < race.value(cards, end=1.0)  # it may still go out
