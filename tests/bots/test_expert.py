"""`expert`: legal over whole games of every ruleset, honest bookkeeping of the cards it
imagines, a step budget it keeps to, and a decision rule that does not chase noise.

Every search here runs on a step budget (a count of playouts, no clock), so the tests
play the same on any machine; the CPU-time cap is measured by `tests/bench/strength.py`.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from table_rig import fast_bot, goto_deal, new_game

from tui.bots import LEVELS, make_bot
from tui.bots.arena import play_game
from tui.bots.budget import Budget
from tui.bots.expert import DECLARE_MIN_HAND, MIN_DEALS, ExpertBot, Option, verdict
from tui.bots.hard import HardBot
from tui.bots.judgement import Judgement, pace_curve
from tui.bots.tactics import evaluator_for
from tui.engine.game import Game
from tui.engine.rules import Ruleset
from tui.engine.ruleset.loader import load_ruleset

REPO = Path(__file__).resolve().parents[2]
RULESET_FILES = sorted((REPO / "rulesets").glob("*.yaml")) + \
    sorted((REPO / "rulesets" / "cookbook").glob("*.yaml"))
STEPS = 14  # playouts a decision: enough for the search to run, few enough to be quick


def expert(seed: int = 0, steps: int = STEPS) -> ExpertBot:
    bot = fast_bot("expert", seed, steps)
    assert isinstance(bot, ExpertBot)
    return bot


def rules_of(path: Path) -> Ruleset:
    return load_ruleset(str(path))


def play_deals(game: Game, bots: list, deals: int) -> int:
    """Play `deals` deals (or to the game's end); every action goes through the engine,
    which refuses an illegal one.  Returns the expert decisions made."""
    decisions = 0
    start = game.round.number
    while game.phase != "game_over":
        if game.phase == "round_over":
            if game.round.number - start + 1 >= deals:
                break
            game.next_round()
            continue
        seat = game.actor
        view = game.view(seat)
        action = bots[seat].choose(view)
        if isinstance(bots[seat], ExpertBot):
            decisions += 1
            assert action.seat == seat
        game.apply(action)
    game.check_conservation()
    return decisions


def test_expert_is_a_level_everywhere_levels_are_chosen() -> None:
    import argparse

    from tui.commands.play import check_request
    from tui.service.lobby import bot_levels

    assert "expert" in LEVELS
    assert make_bot("expert").level == "expert"
    assert "expert" in bot_levels()  # the new-game screen and SSH tables offer these
    play = argparse.Namespace(bots="medium,expert", rules="three_thirteen", players=3)
    assert check_request(play) is None  # `rummy play --bots`; `rummy simulate` reads LEVELS


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_expert_plays_a_deal_of_every_ruleset(path: Path) -> None:
    """A quick pass over every bundled and cookbook ruleset: the first deal, searched
    (contracts, buying, lay-offs and joker swaps included)."""
    rules = rules_of(path)
    players = min(3, rules.players_max)
    game = Game(rules, [f"p{i}" for i in range(players)], 7)
    bots = [expert(s, steps=6) if s % 2 == 0 else fast_bot("medium", s)
            for s in range(players)]
    assert play_deals(game, bots, 1) > 0


@pytest.mark.slow
@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_expert_plays_the_biggest_deal_of_every_ruleset(path: Path) -> None:
    rules = rules_of(path)
    players = min(4, rules.players_max)
    game = Game(rules, [f"p{i}" for i in range(players)], 9)
    goto_deal(game, len(rules.rounds))
    bots = [expert(s) if s % 2 == 0 else fast_bot("hard", s) for s in range(players)]
    assert play_deals(game, bots, 1) > 0


@pytest.mark.slow
@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_expert_plays_whole_games_of_every_ruleset(path: Path) -> None:
    rules = rules_of(path)
    players = min(4, rules.players_max)
    bots = [expert(s, steps=8) if s % 2 == 0 else fast_bot("medium", s)
            for s in range(players)]
    game = play_game(rules, bots, 3)  # an illegal action would raise
    assert game.phase == "game_over"
    game.check_conservation()


# --------------------------------------------------------------------------- bookkeeping


def hidden_faces(game: Game, me: int) -> Counter:
    """Faces the seat cannot see, in the real game: the stock and the other hands."""
    st = game.round
    faces = Counter(c.face for c in st.stock)
    for seat, hand in enumerate(st.hands):
        if seat != me:
            faces.update(c.face for c in hand)
    return faces


class Auditor:
    """Wraps an expert; at every decision it checks what the bot knows and every deal it
    imagined against the real game."""

    def __init__(self, bot: ExpertBot, game: Game) -> None:
        self.bot = bot
        self.level = bot.level
        self.game = game
        self.worlds = 0
        bot.keep_worlds = True

    def choose(self, view):
        action = self.bot.choose(view)
        know = self.bot.last_knowledge
        if know is None or not self.bot.last_worlds:
            return action
        self.bot.last_knowledge = None
        game, me = self.game, view.seat
        hidden = hidden_faces(game, me)
        held = Counter()
        for seat, faces in know.held.items():
            real = Counter(c.face for c in game.round.hands[seat])
            assert not faces - real, f"seat {seat} is thought to hold {faces - real}"
            held += faces
        # unseen + known-held is exactly what the seat cannot see, card for card
        assert know.unseen + held == hidden
        for world in self.bot.last_worlds:
            self.worlds += 1
            imagined = Counter(c.face for c in world.stock)
            for seat, hand in enumerate(world.hands):
                if seat == me:
                    assert hand == list(view.hand)
                    continue
                assert len(hand) == len(game.round.hands[seat])
                assert not know.held[seat] - Counter(c.face for c in hand)
                imagined.update(c.face for c in hand)
            # nothing imagined that the seat has seen elsewhere; nothing left out
            assert imagined == hidden
        return action


# Contract games imagine no deals (`contract_expert` judges them without a search); their
# bookkeeping of unseen cards is checked in test_contract_expert.
@pytest.mark.parametrize(("key", "players", "deal"), [
    ("three_thirteen", 2, 6), ("three_thirteen_jokers", 2, 6)])
def test_imagined_deals_only_hold_cards_the_seat_has_not_seen(key: str, players: int,
                                                              deal: int) -> None:
    game = new_game(key, players, seed=11)
    goto_deal(game, deal)
    auditors = [Auditor(expert(s, steps=4), game) for s in range(players)]
    play_deals(game, auditors, 1)
    assert sum(a.worlds for a in auditors) > 0


@pytest.mark.slow
@pytest.mark.parametrize(("key", "players"), [
    ("three_thirteen", 2), ("three_thirteen", 4), ("three_thirteen_jokers", 3)])
def test_imagined_deals_hold_only_unseen_cards_over_whole_games(key: str,
                                                                players: int) -> None:
    game = new_game(key, players, seed=12)
    auditors = [Auditor(expert(s, steps=6), game) for s in range(players)]
    play_deals(game, auditors, len(game.rules.rounds))
    assert game.phase == "game_over"


# --------------------------------------------------------------------------- budget


def test_a_step_budget_counts_work_not_time() -> None:
    budget = Budget(None, 3).start()
    assert [budget.more() for _ in range(5)] == [True, True, True, False, False]
    assert budget.used == 3
    assert Budget(0.0).start().more() is False  # no time at all: no work at all


def test_expert_keeps_to_its_step_budget_and_decides_the_same_way_twice() -> None:
    game = new_game("three_thirteen", 2, seed=5)
    goto_deal(game, 6)
    searched = 0
    for _ in range(16):
        view = game.view(game.actor)
        first, second = expert(3, steps=10), expert(3, steps=10)
        action = first.choose(view)
        assert second.choose(view) == action
        assert first._whole.used <= 10
        if first.last.deals:
            searched += 1
            options = 1 + len([o for o in first.last.options[1:] if o.diffs])
            assert first.last.deals * options <= 10
        game.apply(action)
        if game.phase != "draw" and game.phase != "play":
            break
    assert searched > 0


def searched_view(deal: int = 8):
    """A view in Three Thirteen where expert searches: a discard from a long hand."""
    game = new_game("three_thirteen", 2, seed=5)
    goto_deal(game, deal)
    while game.view(game.actor).phase != "play":
        game.apply(HardBot(0).choose(game.view(game.actor)))
    return game.view(game.actor)


TICK = 0.001  # the fake clock's step: one millisecond at every reading


def ticking_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Make the bots' CPU clock a fake one that moves on by `TICK` at every reading (no
    real time in a test); returns the one-element list holding its time."""
    from tui.bots import budget

    now = [0.0]

    def fake_clock() -> float:
        now[0] += TICK
        return now[0]

    monkeypatch.setattr(budget, "clock", fake_clock)
    return now


def test_the_time_budget_is_a_cap_checked_inside_the_playouts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The CPU-time cap with a fake clock that ticks a millisecond at every reading (no
    real time in the test): the decision ends within a few readings of its budget, even
    a budget shorter than one imagined deal (so a playout that ran on without asking the
    clock fails, as does a search that ignored it); and a larger budget buys more deals."""
    view = searched_view()
    pace_curve(view, evaluator_for(view))  # (learnt: the judgement's own part is tested below)
    now = ticking_clock(monkeypatch)
    deals = []
    for seconds in (0.02, 0.15, 0.6):
        bot = ExpertBot(seed=1, budget=seconds)
        started = now[0]
        bot.choose(view)
        assert now[0] - started <= seconds + 4 * TICK
        deals.append(bot.last.deals)
    assert deals[0] == 0 < deals[1] < deals[2]


def test_options_not_trending_better_are_dropped_and_the_search_stops() -> None:
    """Early stop: after `MIN_DEALS` deals an option no better on average than the
    policy move is dropped (it would not win), and with none left the search ends."""
    from tui.bots.expert import FUTILE_GAIN

    level = option([0.5, -0.5, 0.4, -0.3, 0.2, 0.1])  # mean +0.07: not better
    assert level.mean >= -FUTILE_GAIN
    better = option([-1.0, -3.0, 0.5, -2.0, -1.5, -0.5])  # trending better, not yet sure
    policy = option([])
    assert ExpertBot._prune([policy, level, better], MIN_DEALS) is True
    assert not level.alive and better.alive
    assert ExpertBot._prune([policy, better, option([0.0] * 6)], MIN_DEALS - 1) is True
    assert ExpertBot._prune([policy, option([1.0, 0.0, 0.5, 0.2, 0.0, 0.3])],
                            MIN_DEALS) is False


def test_with_no_budget_left_expert_plays_the_policy_move() -> None:
    """No search at all: the judgement's move (whose feeding charge reads the opponent
    model; its draws are hard's)."""
    game = new_game("three_thirteen", 2, seed=8)
    goto_deal(game, 10)
    for _ in range(12):
        view = game.view(game.actor)
        bot = expert(1, steps=0)
        action = bot.choose(view)
        assert bot.last.deals == 0
        assert action == expert(1, steps=0).choose(view)
        if view.phase == "draw":
            assert action == HardBot(1).choose(view)  # hard with its own fixed work
        game.apply(action)
        if game.phase not in ("draw", "play"):
            break


# --------------------------------------------------------------------------- decision rule


def option(diffs: list[float]) -> Option:
    return Option(action=None, label="x", play=lambda deal: None, diffs=diffs)  # type: ignore[arg-type]


def test_the_policy_move_is_left_only_for_a_clear_gain() -> None:
    policy = option([])
    steady = option([-3.0, -2.5, -3.5, -3.0, -2.8, -3.2, -3.1, -2.9])  # better, little noise
    noisy = option([-30.0, 20.0, -25.0, 18.0, -22.0, 15.0, -28.0, 16.0])  # mean -7, wild
    assert verdict([policy, noisy], 8) is None
    assert verdict([policy, steady, noisy], 8) is steady
    assert verdict([policy, steady], MIN_DEALS - 1) is None  # too few deals yet
    tiny = option([-0.2, -0.3, -0.2, -0.25, -0.2, -0.3, -0.2, -0.25])  # sure, but too small
    assert verdict([policy, tiny], 8) is None


def test_expert_explains_its_move_in_one_sentence() -> None:
    game = new_game("three_thirteen", 2, seed=2)
    goto_deal(game, 11)
    line = expert(0, steps=30).explain(game.view(game.actor))
    assert line and "\n" not in line


def test_in_declare_games_only_the_discards_of_long_hands_are_searched() -> None:
    """Measured (docs/performance.md): searching draws, and the discards of hands under
    `DECLARE_MIN_HAND` cards, did worse than hard's own moves; expert plays those by its
    judgement without search (`judgement.Judgement`)."""
    for deal, searched_wanted in ((3, False), (DECLARE_MIN_HAND - 2, True)):
        game = new_game("three_thirteen", 2, seed=4)
        goto_deal(game, deal)  # deal n holds n + 2 cards
        searched = 0
        for _ in range(14):
            view = game.view(game.actor)
            bot = expert(2, steps=20)
            action = bot.choose(view)
            if view.phase == "draw" or len(view.hand) - 1 < DECLARE_MIN_HAND:
                assert bot.last.deals == 0
                assert action == expert(2, steps=0).choose(view)  # the policy move
                if view.phase == "draw":
                    assert action == Judgement(2).choose(view)
            searched += bot.last.deals > 0
            game.apply(action)
            if game.phase not in ("draw", "play"):
                break
        assert (searched > 0) == searched_wanted


def test_in_declare_games_the_feeding_charge_reads_the_opponent_model(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """hard's charge for what a discard gives the next player is taken over hands the
    opponent model imagines for that player (one model a decision, shared with the search)."""
    from tui.bots import opponents
    from tui.bots.hard import FEED_SAMPLES

    imagined: list[int] = []
    models: set[int] = set()
    real = opponents.OpponentModel.imagine

    def counting(self, rng):
        imagined.append(1)
        models.add(id(self))
        return real(self, rng)

    monkeypatch.setattr(opponents.OpponentModel, "imagine", counting)
    game = new_game("three_thirteen", 2, seed=6)
    goto_deal(game, 3)  # short hands: no search, so every imagined hand is the feeder's
    while game.view(game.actor).phase != "play":
        game.apply(HardBot(0).choose(game.view(game.actor)))
    bot = expert(0, steps=0)
    bot.choose(game.view(game.actor))
    assert len(imagined) == FEED_SAMPLES and len(models) == 1


def test_in_declare_games_a_table_of_several_opponents_is_not_searched() -> None:
    """Measured (expert's docstring): at four players the search lost to hard."""
    from tui.bots.expert import DECLARE_MAX_OPPONENTS

    game = new_game("three_thirteen", DECLARE_MAX_OPPONENTS + 2, seed=4)
    goto_deal(game, DECLARE_MIN_HAND)
    for _ in range(12):
        view = game.view(game.actor)
        bot = expert(2, steps=20)
        game.apply(bot.choose(view))
        assert bot.last.deals == 0
        if game.phase not in ("draw", "play"):
            break


def test_the_judgement_expert_starts_from_keeps_to_the_budget_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug that was: learning a deal's pace (hundreds of solitaire play-outs, once a
    process) and valuing the discards by the race ran inside a decision whatever its
    budget (measured up to 0.5 s at a 0.3 s budget).  With a fake clock that ticks at
    every reading, a small budget now stops the learning part-way, the decision ends
    within a few ticks of its budget, the learning goes on at the next decisions, and the
    curve it ends with is the one learnt at once."""
    from tui.bots import judgement

    view = searched_view()
    ev = evaluator_for(view)
    key = (id(view.rules), view.schedule_round, len(view.players))
    judgement._CURVES.pop(key, None)
    whole = judgement.pace_curve(view, ev)  # learnt at once, no budget
    judgement._CURVES.pop(key, None)
    now = ticking_clock(monkeypatch)
    seconds = 0.06
    for decision in range(100):
        started = now[0]
        ExpertBot(seed=1, budget=seconds).choose(view)
        assert now[0] - started <= seconds + 4 * TICK
        learning = judgement._CURVES[key]
        if decision == 0:
            assert isinstance(learning, judgement.PaceLearning)
            assert 0 < learning.hands < judgement.PACE_HANDS
        if isinstance(learning, judgement.PaceCurve):
            break
    assert judgement._CURVES[key] == whole
    assert decision > 1
