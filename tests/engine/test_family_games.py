"""The rummy family's other games as cookbook recipes (#32): each played to the end by
bots at its fewest and most players, every meld on the table held to the round's own meld
rules while it plays."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_games import play_out

from tui.bots import make_bot
from tui.engine.game import Game
from tui.engine.meld_rules import make_meld
from tui.engine.rules import Ruleset
from tui.engine.ruleset.loader import load_ruleset

COOKBOOK = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook"
ENDS = ["fewest", "most"]


def wilds_in(meld, rules: Ruleset, round_no: int) -> int:
    """Cards of a meld standing in for another card (a wild-rank card as itself is not)."""
    return sum(1 for card, face in zip(meld.cards, meld.stands_for, strict=True)
               if rules.is_wild(card.rank, round_no) and (card.is_joker or face[0] != card.rank
                                                         or face[1] not in ("", card.suit)))


def play(rules: Ruleset, players: int, seed: int, level: str = "medium",
         watch=None) -> Game:  # noqa: ANN001 - a callable(game)
    """One game to the end; `watch(game)` after every action."""
    bots = [make_bot(level, seed * 10 + s) for s in range(players)]
    game = Game(rules, [f"p{s}" for s in range(players)], seed)
    return play_out(game, bots, after=None if watch is None else lambda g, _action: watch(g))


@pytest.mark.parametrize("end", ENDS)
def test_carioca_plays_to_the_end_each_deal_by_its_own_meld_rules(end: str) -> None:
    rules = load_ruleset(COOKBOOK / "carioca.yaml")
    players = rules.players_min if end == "fewest" else rules.players_max
    seen: dict[int, int] = {}  # round -> most wilds in one meld on the table
    mixed = 0

    def watch(game: Game) -> None:
        nonlocal mixed
        number = game.rules_round
        melds = rules.melds_for(number)
        for meld in game.round.table:
            most = wilds_in(meld, rules, number)
            seen[number] = max(seen.get(number, 0), most)
            assert most <= melds.max_wilds, (number, meld.describe())
            if meld.kind == "run" and len({c.suit for c in meld.cards if not c.is_joker}) > 1:
                assert not melds.run.same_suit, (number, meld.describe())
                mixed += 1
            make_meld(meld.cards, rules, number,  # still a legal meld of this round
                      {c.uid: f for c, f in zip(meld.cards, meld.stands_for, strict=True)},
                      kind=meld.kind, use="lay_off")

    game = play(rules, players, 5, watch=watch)
    assert len(game.results) == 8 and game.winners
    assert seen.get(8, 0) == 0  # the last deal: no wild in any meld
    assert max(seen.values()) == 1  # one wild a meld, and wilds were melded
    assert mixed > 0  # deal 7's runs of mixed suits were laid down
    assert any(went.went_out >= 0 for went in game.results)


@pytest.mark.parametrize("end", ENDS)
def test_continental_goes_out_all_at_once_in_one_of_its_patterns(end: str) -> None:
    rules = load_ruleset(COOKBOOK / "continental.yaml")
    players = rules.players_min if end == "fewest" else rules.players_max
    patterns = {(c.runs, tuple(sorted(c.run_sizes))) for c in rules.round(1).contract.options()}
    outs: list[tuple[int, tuple[int, ...]]] = []

    def watch(game: Game) -> None:
        if game.phase not in ("round_over", "game_over") or len(outs) == len(game.results):
            return
        table = game.round.table
        assert all(meld.kind == "run" for meld in table)  # runs only: never a set
        lengths = tuple(sorted(len(meld.cards) for meld in table))
        outs.append((len(table), lengths))
        assert sum(lengths) == 15  # all fifteen at once, the sixteenth discarded
        assert any(len(lengths) == runs and all(a >= b for a, b in
                                                zip(lengths, sizes, strict=True))
                   for runs, sizes in patterns), lengths

    game = play(rules, players, 3, watch=watch)
    assert game.winners and len(game.results) >= 1
    assert all(result.went_out >= 0 for result in game.results)
    assert len(outs) == len(game.results)


def test_where_no_meld_may_hold_a_wild_the_bot_throws_its_joker() -> None:
    """Carioca's last deal (`max_wilds: 0`): a joker is only 30 points there, so hard
    throws it before its contract is down, where elsewhere it keeps jokers."""
    rules = load_ruleset(COOKBOOK / "carioca.yaml")
    thrown = {}
    for number in (7, 8):
        game = Game(rules, ["a", "b"], 1)
        shoe = sorted(game.shoe, key=lambda c: c.uid)
        joker = next(c for c in shoe if c.is_joker)
        hand = [joker] + [c for c in shoe if c.suit == "H" and c.rank in (2, 3, 4, 5, 9, 10)][:6]
        hand += [c for c in shoe if c.suit == "S" and c.rank in (6, 7, 8, 11, 12)][:5]
        mine = {c.uid for c in hand}
        rest = [c for c in shoe if c.uid not in mine]
        other, discard, stock = rest[:12], rest[12:13], rest[13:]
        game.stack_deal([hand, other], stock, discard, turn=0, number=number)
        bot = make_bot("hard", 3)
        game.apply(bot.choose(game.view(0)))  # the draw
        action = bot.choose(game.view(0))
        thrown[number] = getattr(action, "card", None)
    assert thrown[8] is not None and thrown[8].is_joker, thrown
    assert thrown[7] is None or not thrown[7].is_joker, thrown
