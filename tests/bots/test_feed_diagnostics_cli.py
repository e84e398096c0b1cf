"""`tests/bench/feed_diagnostics.py` refuses flags that would measure nothing, with a usage
error naming the flag, before it plays a deal (a share of 3, `--blind` without the
judgement, error knobs the judgement does not have)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "feed_diagnostics.py"


def load_script():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("feed_diagnostics", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("flags", "said"), [
    (["--miss", "3"], "3 is not a share between 0 and 1"),
    (["--false", "-0.1"], "-0.1 is not a share between 0 and 1"),
    (["--blind"], "--blind goes with --judged"),
    (["--judged", "--miss", "0.5"], "--miss and --false make hard's peek err"),
])
def test_flags_that_measure_nothing_are_refused(flags: list[str], said: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    with pytest.raises(SystemExit) as stop:
        script.main(["oracle", "--deals", "1", *flags])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_sight_refuses_a_search_expert_does_not_run(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    with pytest.raises(SystemExit) as stop:
        script.main(["sight", "--deals", "1", "--players", "4", "--told", "search"])
    assert stop.value.code == 2
    assert "does not search at more than 2 players" in capsys.readouterr().err


def test_sighted_expert_searches_the_real_deal_and_feeds_by_the_real_hand() -> None:
    """The yardstick must see what it says it sees: every deal its search plays holds the
    real hands and a shuffle of the real stock, and its feeder reads the next player's
    real hand; told the whole deal, the stock comes in its real order; told nothing, it
    imagines deals as expert does."""
    from table_rig import goto_deal, new_game

    from tui.bots.hard import FEED_SAMPLES, HardBot

    script = load_script()
    game = new_game("three_thirteen", 2, seed=4)
    goto_deal(game, 9)  # 11 cards: the discards are searched
    while game.view(game.actor).phase != "play":
        game.apply(HardBot(0).choose(game.view(game.actor)))
    view = game.view(game.actor)
    real = [sorted(c.uid for c in hand) for hand in game.round.hands]
    stock = sorted(c.uid for c in game.round.stock)
    order = [c.uid for c in game.round.stock]
    for told in ("both", "deal", "nothing"):
        what = script.TOLD[told]
        bot = script.SightedExpert(0, game, what)
        bot.budget, bot.steps, bot.keep_worlds = None, 40, True
        bot.choose(view)
        assert bot.last_worlds
        for world in bot.last_worlds:
            hands = [sorted(c.uid for c in hand) for hand in world.hands]
            assert (hands == real and sorted(c.uid for c in world.stock) == stock) == \
                what.search
            assert ([c.uid for c in world.stock] == order) == what.foresee
        ev = script.evaluator_for(view)
        feeder = bot._feeder(view, ev, script.read_knowledge(view))
        theirs = ev.layout(list(game.round.hands[1 - view.seat]))
        if what.feed:
            assert [(o.penalty, o.melds) for o in feeder.outs] == \
                [(theirs.penalty, theirs.melds)]
        else:
            assert len(feeder.outs) == FEED_SAMPLES


def test_a_wide_sighted_expert_searches_the_draws_and_short_hands_expert_leaves() -> None:
    """`--told wide` must search what expert's own scope leaves to the judgement: the draw,
    and the discards of a short hand."""
    from table_rig import goto_deal, new_game

    script = load_script()
    game = new_game("three_thirteen", 2, seed=4)
    goto_deal(game, 2)  # 5 cards: expert searches none of this deal's decisions
    searched = {False: 0, True: 0}
    kinds: set[str] = set()
    for _ in range(6):
        view = game.view(game.actor)
        if view.phase not in ("draw", "play"):
            break
        for wide in (False, True):
            bot = script.SightedExpert(0, game, script.TOLD["wide" if wide else "search"])
            bot.budget, bot.steps = None, 12
            action = bot.choose(view)
            if bot.last.deals:
                searched[wide] += 1
                kinds.add(view.phase)
        game.apply(action)
    assert searched[False] == 0
    assert searched[True] >= 4 and kinds == {"draw", "play"}
