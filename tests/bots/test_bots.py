"""Bot levels: whole games by every bundled ruleset, fair play, and the choices each level
is meant to make in crafted positions."""

from __future__ import annotations

import re

import pytest
from table_rig import fast_bot, goto_deal, new_game, rig

from tui.bots import LEVELS, Bot, available_levels, make_bot
from tui.bots.arena import play_game, run_pairing
from tui.engine.actions import Action, Discard, DrawStock, GoOut, TakeDiscard
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.view import SeatView

BUNDLED = ["three_thirteen", "contract_rummy", "liverpool", "three_thirteen_jokers"]
LEVELS_UNDER_TEST = ["easy", "medium", "hard"]
TT = "three_thirteen"



def test_levels_are_registered() -> None:
    assert set(LEVELS_UNDER_TEST) <= set(available_levels())
    assert set(LEVELS_UNDER_TEST) <= set(LEVELS)


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2))])
@pytest.mark.parametrize("key", BUNDLED)
@pytest.mark.parametrize("level", LEVELS_UNDER_TEST)
def test_level_plays_whole_games_legally(key: str, level: str, seed: int) -> None:
    """One whole game a level and ruleset every run, two more, other seats, in the slow tier."""
    rules = load_ruleset(key)
    players = min(4, rules.players_max)
    others = ["medium", "easy", "hard"]
    bots = [fast_bot(level, seed)] + [
        fast_bot(others[(seed + i) % 3], seed + i) for i in range(players - 1)]
    game = play_game(rules, bots, seed)  # an illegal action would raise
    assert game.phase == "game_over"
    assert len(game.scores) >= 1
    game.check_conservation()


class _Spy:
    """Wraps a bot and records the type of everything it is handed."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.level = bot.level
        self.seen: set[type] = set()

    def choose(self, view):
        self.seen.add(type(view))
        return self.bot.choose(view)


@pytest.mark.parametrize("level", LEVELS_UNDER_TEST)
def test_bots_are_only_given_their_seat_view(level: str) -> None:
    rules = load_ruleset(TT)
    spies = [_Spy(fast_bot(level, s)) for s in range(3)]
    game = Game(rules, ["a", "b", "c"], 4)
    for _ in range(60):
        if game.phase not in ("draw", "play", "buy"):
            break
        seat = game.actor
        view = game.view(seat)
        assert view.seat == seat
        assert len(view.hand) == len(game.round.hands[seat])
        game.apply(spies[seat].choose(view))
    assert set().union(*(s.seen for s in spies)) == {SeatView}


def _two_deals(key: str, seat_hand: str, others_a: list[str], others_b: list[str],
               discard: str, number: int, players: int) -> tuple[Game, Game]:
    games = []
    for others in (others_a, others_b):
        game = new_game(key, players, seed=11)
        goto_deal(game, number)
        rig(game, [seat_hand, *others], discard=discard, turn=0)
        games.append(game)
    return games[0], games[1]


@pytest.mark.parametrize("level", LEVELS_UNDER_TEST)
def test_same_view_same_decision_whatever_the_hidden_cards(level: str) -> None:
    a, b = _two_deals(TT, "4H 5H 9C KD QS", ["2C 2D 7S 8S JH", "AC 3C 10D 10H QD"],
                      ["KC KH 6D 6S 9H", "2H 4S 8D JC JD"], "QC", 3, 3)
    for step in range(4):
        va, vb = a.view(0), b.view(0)
        assert va == vb  # nothing of the other hands shows
        choice_a = fast_bot(level, 5).choose(va)
        choice_b = fast_bot(level, 5).choose(vb)
        assert choice_a == choice_b
        if va.phase == "draw":
            # keep the two deals' stocks alike for seat 0: draw from the pile
            action = next((x for x in va.legal if isinstance(x, TakeDiscard)), choice_a)
        else:
            action = choice_a
        a.apply(action)
        b.apply(action)
        if a.actor != 0 or step == 1:
            break


def test_medium_discards_the_card_leaving_the_least_penalty() -> None:
    # Round 3: fives are wild.  9H 10H JH is a run and JH JD JC a set; they share JH.
    # Keeping the run leaves JD JC 2S (22) less the discard; keeping the set leaves
    # 9H 10H 2S: throwing 10H leaves 11, the least.
    game = new_game(TT, 2)
    goto_deal(game, 3)
    rig(game, ["9H 10H JH JD JC", "2C 3C 4D 8S KH"], discard="KD", stock_top="2S", turn=0)
    game.apply(DrawStock(0))
    choice = make_bot("medium").choose(game.view(0))
    assert isinstance(choice, Discard) and str(choice.card) == "10H"


def test_medium_takes_the_discard_that_completes_a_meld_and_goes_out() -> None:
    game = new_game(TT, 2)
    rig(game, ["7H 7D KS", "2C 8D 9S"], discard="7C", turn=0)  # round 1: threes wild
    bot = make_bot("medium")
    assert bot.choose(game.view(0)) == TakeDiscard(0, 0)
    game.apply(TakeDiscard(0, 0))
    out = bot.choose(game.view(0))
    assert isinstance(out, GoOut) and str(out.discard) == "KS"


def test_medium_leaves_a_discard_that_does_not_help() -> None:
    game = new_game(TT, 2)
    rig(game, ["7H 7D 2S", "2C 8D 9S"], discard="KC", turn=0)
    assert make_bot("medium").choose(game.view(0)) == DrawStock(0)


def test_hard_does_not_feed_the_next_player_a_match_for_what_they_took() -> None:
    # Seat 1 (next after seat 0) took KD from the pile.  Seat 0 then holds a set of
    # threes and KS, QD, AS: KS and QD score the same, but KS goes with seat 1's king.
    game = new_game(TT, 2)
    goto_deal(game, 3)  # fives wild
    rig(game, ["3C 3D 3H KS QD", "KH KC 9D 8S 2H"], discard="KD", stock_top="AS", turn=1)
    game.apply(TakeDiscard(1, 0))
    game.apply(Discard(1, next(c for c in game.round.hands[1] if str(c) == "2H")))
    game.apply(DrawStock(0))
    view = game.view(0)
    medium_choice = make_bot("medium").choose(view)
    assert isinstance(medium_choice, Discard)
    hard = make_bot("hard", 3)
    choice = hard.choose(view)
    assert isinstance(choice, Discard) and str(choice.card) == "QD"


@pytest.mark.parametrize("level", LEVELS_UNDER_TEST)
def test_explain_is_one_line_naming_the_move_and_why(level: str) -> None:
    game = new_game(TT, 2)
    goto_deal(game, 3)
    rig(game, ["9H 10H JH JD JC", "2C 3C 4D 8S KH"], discard="KD", stock_top="2S", turn=0)
    game.apply(DrawStock(0))
    line = fast_bot(level).explain(game.view(0))
    assert "\n" not in line
    assert re.match(r"^discard [0-9JQKA]+[CDHS]: \S", line), line


def test_explain_says_what_stays_and_the_penalty() -> None:
    game = new_game(TT, 2)
    goto_deal(game, 3)
    rig(game, ["9H 10H JH JD JC", "2C 3C 4D 8S KH"], discard="KD", stock_top="2S", turn=0)
    game.apply(DrawStock(0))
    line = make_bot("medium").explain(game.view(0))
    assert line == "discard 10H: keeps the JC-JD-JH set, lowest penalty 11"


def test_hard_explains_with_expected_penalty() -> None:
    game = new_game(TT, 2)
    goto_deal(game, 3)
    rig(game, ["9H 10H JH JD JC", "2C 3C 4D 8S KH"], discard="KD", stock_top="2S", turn=0)
    game.apply(DrawStock(0))
    line = make_bot("hard").explain(game.view(0))
    assert re.match(r"^discard \w+: keeps .+, lowest expected penalty \d+\.\d", line), line


def test_medium_beats_easy_over_a_few_mirrored_deals() -> None:
    result = run_pairing(load_ruleset(TT), "medium", "easy", deals=3, seed=1)
    assert result.games == 6
    assert len(result.margins) == 3
    assert result.margin > 0  # medium scores less


def test_a_timed_pairing_tells_the_collectors_pauses_from_the_bots_own_work() -> None:
    result = run_pairing(load_ruleset(TT), "medium", "easy", deals=1, seed=2, players=2,
                         timed=True)
    for level in ("medium", "easy"):
        assert len(result.collector[level]) == len(result.cpu[level]) > 0
        assert all(0.0 <= gc_ <= cpu for gc_, cpu in zip(result.collector[level],
                                                         result.cpu[level], strict=True))


def test_a_collection_inside_a_decision_is_counted_as_the_collectors() -> None:
    import gc

    from tui.bots.arena import TimedBot

    class Collecting(Bot):
        level = "collecting"

        def choose(self, view: SeatView) -> Action:
            junk = [[i] for i in range(200_000)]  # a heap worth walking
            gc.collect()
            del junk
            return view.legal[0]

    game = new_game(TT, 2)
    cpu: list[float] = []
    wall: list[float] = []
    collected: list[float] = []
    watchers = list(gc.callbacks)
    TimedBot(Collecting(), cpu, wall, collected).choose(game.view(game.actor))
    assert 0.0 < collected[0] <= cpu[0]
    assert gc.callbacks == watchers  # the watcher leaves with the decision


def test_table_hint_says_what_the_advisor_would_do_and_why() -> None:
    from tui.service.interface import SeatSpec
    from tui.service.table import Table

    table = Table(load_ruleset(TT), [SeatSpec("me"), SeatSpec("bot", "medium")], seed=3)
    game = table.game
    goto_deal(game, 3)
    rig(game, ["9H 10H JH JD JC", "2C 3C 4D 8S KH"], discard="KD", stock_top="2S", turn=0)
    game.apply(DrawStock(0))
    hint = table.hint(0)
    # expert's judgement ("expected points by the end"), or hard's ("expected penalty")
    # while the deal's pace is still being learnt within the hint's time
    assert hint.startswith("discard ") and "keeps the 9H-10H-JH run, " in hint, hint
    assert "expected points by the end" in hint or "expected penalty" in hint, hint
    assert table.hint(1) == "Nothing to do: it is not your move."
