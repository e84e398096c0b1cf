"""The house-rules cookbook: every recipe is a real ruleset file that loads, plays whole
games with random bots, and changes the game the way docs/cookbook.md says it does.

Random-bot games are few and for three players: contract-style games are slow to search.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from bot_games import play_out

from tui.bots import make_bot
from tui.bots.arena import run_match
from tui.engine.actions import Buy
from tui.engine.cards import JOKER_RANK
from tui.engine.game import Game
from tui.engine.meld_rules import card_penalty
from tui.engine.rules import Ruleset
from tui.engine.ruleset.loader import bundled_rulesets_dir, list_rulesets, load_ruleset

REPO = Path(__file__).resolve().parents[2]
COOKBOOK_DIR = REPO / "rulesets" / "cookbook"
COOKBOOK_DOC = REPO / "docs" / "cookbook.md"
PLAYERS = 3
GAMES = 2

Observer = Callable[[Game, object, Game], None]


def recipe_files() -> list[Path]:
    """Every file the cookbook names, in the order it names them."""
    names = re.findall(r"^File: `([^`]+\.yaml)`", COOKBOOK_DOC.read_text(encoding="utf-8"), re.M)
    return [REPO / name for name in names]


def play_observed(rules: Ruleset, seed: int, watch: Callable[[Game, object], None]) -> Game:
    """One random-bot game to the end, calling `watch(game, action)` after every action."""
    bots = [make_bot("random", seed * 10 + s) for s in range(PLAYERS)]
    game = Game(rules, [f"p{s}" for s in range(PLAYERS)], seed)
    return play_out(game, bots, after=watch, actions=100_000, label=f"seed {seed}: ")


# --- every recipe ------------------------------------------------------------------------


def test_the_cookbook_names_every_cookbook_file() -> None:
    named = {path.resolve() for path in recipe_files()}
    assert {p.resolve() for p in COOKBOOK_DIR.glob("*.yaml")} <= named
    assert all(path.is_file() for path in named), named
    assert len(named) >= 7


@pytest.mark.parametrize("path", recipe_files(), ids=lambda p: p.stem)
def test_recipe_loads_and_plays_whole_games(path: Path) -> None:
    rules = load_ruleset(path)
    players = min(PLAYERS, rules.players_max)  # Gin is for two
    result = run_match(rules, ["random"] * players, games=GAMES, seed=11)
    assert result.games == GAMES
    assert sum(entry.wins for entry in result.entries) >= GAMES  # every game had a winner


@pytest.mark.parametrize("path", sorted(COOKBOOK_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_recipe_extends_a_bundled_ruleset_by_key(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    [base] = re.findall(r"^extends: (\w+)$", text, re.M)
    assert (bundled_rulesets_dir() / f"{base}.yaml").is_file()


def test_cookbook_files_are_not_offered_as_rulesets() -> None:
    keys = {info.key for info in list_rulesets()}
    assert not keys & {p.stem for p in COOKBOOK_DIR.glob("*.yaml")}


def test_the_cookbook_shows_each_recipe_as_it_is_in_its_file() -> None:
    """The YAML quoted under "File: `…`" is the file's text from `extends:` on."""
    doc = COOKBOOK_DOC.read_text(encoding="utf-8")
    quoted = re.findall(r"^File: `([^`]+)`\n\n```yaml\n(.*?)```", doc, re.M | re.S)
    assert len(quoted) == len(recipe_files())
    for name, block in quoted:
        text = (REPO / name).read_text(encoding="utf-8")
        assert text[text.index("extends:"):] == block, name


# --- each recipe does what it says -------------------------------------------------------


def test_wild_twos_makes_every_two_wild_and_costly() -> None:
    rules = load_ruleset(COOKBOOK_DIR / "wild_twos.yaml")
    base = load_ruleset("contract_rummy")
    assert [r.contract for r in rules.rounds] == [r.contract for r in base.rounds]
    for number in range(1, len(rules.rounds) + 1):
        assert rules.is_wild(2, number) and rules.is_wild(JOKER_RANK, number)
        assert not base.is_wild(2, number)
    scored_twos = 0
    for seed in (1, 2):
        game = play_observed(rules, seed, lambda game, action: None)
        for result in game.results:
            for seat, cards in enumerate(result.deadwood):
                if seat == result.went_out:
                    continue
                assert result.points[seat] == sum(
                    card_penalty(c, rules, rules.schedule_round(result.deal)) for c in cards)
                scored_twos += sum(1 for c in cards if c.rank == 2)
                if any(c.rank == 2 for c in cards):
                    assert result.points[seat] >= 20
    assert scored_twos > 0


def test_buying_limits_allow_one_buy_with_two_penalty_cards() -> None:
    rules = load_ruleset(COOKBOOK_DIR / "buying_limits.yaml")
    assert (rules.buying.limit_per_deal, rules.buying.penalty_cards) == (1, 2)
    buys = 0
    sizes: dict[int, int] = {}  # hand sizes after the last action

    def watch(game: Game, action: object) -> None:
        nonlocal buys
        assert max(game.round.buys) <= 1
        if isinstance(action, Buy):
            buys += 1
            if game.round.stock:  # (an exhausted stock gives fewer penalty cards)
                # the discard and two penalty cards from the stock
                assert len(game.round.hands[action.seat]) == sizes[action.seat] + 3
        sizes.update({s: len(h) for s, h in enumerate(game.round.hands)})

    for seed in (1, 2):
        play_observed(rules, seed, watch)
    assert buys > 0


def test_runs_of_four_never_put_a_shorter_run_on_the_table() -> None:
    rules = load_ruleset(COOKBOOK_DIR / "runs_of_four.yaml")
    assert rules.melds.run.min == 4 and rules.melds.set.min == 3
    runs: list[int] = []

    def watch(game: Game, action: object) -> None:
        for meld in game.round.table:
            if meld.kind == "run":
                assert len(meld.cards) >= 4
                runs.append(len(meld.cards))

    for seed in (1, 2):
        play_observed(rules, seed, watch)
    assert runs


def test_jokers_in_three_thirteen_shuffle_in_jokers_as_extra_wilds() -> None:
    rules = load_ruleset("three_thirteen_jokers")
    game = play_observed(rules, 3, lambda game, action: None)
    assert sum(1 for c in game.shoe if c.rank == JOKER_RANK) == 4  # 3 players: 2 decks
    assert all(rules.is_wild(JOKER_RANK, n) for n in range(1, 12))
    assert rules.melds.min_natural == 0


def test_shorter_game_ends_after_five_rounds() -> None:
    rules = load_ruleset(COOKBOOK_DIR / "short_three_thirteen.yaml")
    for seed in (1, 2):
        game = play_observed(rules, seed, lambda game, action: None)
        assert [r.deal for r in game.results] == [1, 2, 3, 4, 5]
        assert game.winners


def test_point_limit_repeats_the_deal_until_someone_reaches_100() -> None:
    rules = load_ruleset(COOKBOOK_DIR / "rummy_to_100.yaml")
    assert (rules.end.point_limit, rules.end.max_rounds, len(rules.rounds)) == (100, 30, 1)
    for seed in (1, 2, 3):
        game = play_observed(rules, seed, lambda game, action: None)
        running = [0] * PLAYERS
        for index, result in enumerate(game.results):
            running = [t + p for t, p in zip(running, result.points, strict=True)]
            last = index == len(game.results) - 1
            assert (max(running) >= 100 or index + 1 == 30) == last
        assert len(game.results) > 1 and running == game.totals
        assert set(game.winners) == {s for s, t in enumerate(running) if t == min(running)}


def test_going_out_bonus_scores_minus_ten_for_going_out() -> None:
    rules = load_ruleset(COOKBOOK_DIR / "going_out_bonus.yaml")
    went_out = 0
    for seed in (1, 2):
        game = play_observed(rules, seed, lambda game, action: None)
        for result in game.results:
            if result.went_out >= 0:
                went_out += 1
                assert result.points[result.went_out] == -10
    assert went_out > 0


# --- the family games: played to the end at their fewest and most players ----------------


def play_full(rules: Ruleset, players: int, seed: int,
              watch: Callable[[Game, object], None]) -> Game:
    """One game of medium bots to the end (they lay contracts down and go out, as people
    do), calling `watch(game, action)` before every action is applied."""
    bots = [make_bot("medium", seed * 10 + s) for s in range(players)]
    for bot in bots:
        if hasattr(bot, "budget"):
            bot.budget = 0.02
    game = Game(rules, [f"p{s}" for s in range(players)], seed)
    return play_out(game, bots, before=watch, actions=100_000, label=f"seed {seed}: ")


FEWEST_AND_MOST = ["fewest", "most"]


def _players(rules: Ruleset, end: str) -> int:
    return rules.players_min if end == "fewest" else rules.players_max


@pytest.mark.parametrize("end", FEWEST_AND_MOST)
def test_may_i_buys_as_often_as_wanted_until_the_contract_is_down(end: str) -> None:
    rules = load_ruleset(COOKBOOK_DIR / "may_i.yaml")
    assert rules.buying.limit_per_deal is None and not rules.buying.after_contract
    buys = 0

    def watch(game: Game, action: object) -> None:
        nonlocal buys
        if game.phase == "buy":
            assert not game.contract_down(game.actor)  # never asked once down
        if isinstance(action, Buy):
            buys += 1

    game = play_full(rules, _players(rules, end), 2, watch)
    assert len(game.results) == 7 and game.winners
    assert buys > 0


@pytest.mark.parametrize("end", FEWEST_AND_MOST)
def test_shanghai_plays_its_eleven_contracts_with_buying(end: str) -> None:
    rules = load_ruleset(COOKBOOK_DIR / "shanghai.yaml")
    assert len(rules.rounds) == 11 and rules.buying.enabled
    biggest = rules.round(11).contract
    assert (biggest.sets, biggest.runs) == (1, 3)
    assert sum(biggest.sizes("set", 3) + biggest.sizes("run", 3)) > rules.round(11).cards + 1
    laid: list[int] = []
    buys = 0

    def watch(game: Game, action: object) -> None:
        nonlocal buys
        buys += isinstance(action, Buy)
        if action.kind != "lay_down":
            return
        contract = game.round_rules.contract
        melds = action.melds  # the sizes of the contract's sets and runs, largest first
        sizes = sorted((len(m.cards) for m in melds), reverse=True)
        wanted = sorted(contract.sizes("set", 3) + contract.sizes("run", 3), reverse=True)
        assert all(s >= w for s, w in zip(sizes, wanted, strict=True))
        laid.append(game.rules_round)

    game = play_full(rules, _players(rules, end), 4, watch)
    assert [r.deal for r in game.results] == list(range(1, 12)) and game.winners
    assert buys > 0 and max(laid) >= 10  # the deals needing bought cards were made too


@pytest.mark.parametrize("end", FEWEST_AND_MOST)
def test_three_thirteen_out_player_collects_under_a_laying_down_limit(end: str) -> None:
    rules = load_ruleset(COOKBOOK_DIR / "three_thirteen_collect.yaml")
    assert rules.going_out.deadwood_limit == 5 and rules.scoring.out_player_collects
    kept_some = 0
    game = play_full(rules, _players(rules, end), 3, lambda game, action: None)
    for result in game.results:
        out = result.went_out
        if out < 0:
            assert set(result.points) == {0}
            continue
        kept = sum(card_penalty(c, rules, result.deal) for c in result.deadwood[out])
        assert kept <= 5
        kept_some += kept > 0
        others = sum(card_penalty(c, rules, result.deal)
                     for seat, cards in enumerate(result.deadwood) if seat != out
                     for c in cards)
        assert result.points[out] == others - kept
        assert all(p == 0 for seat, p in enumerate(result.points) if seat != out)
    assert set(game.winners) <= {s for s, t in enumerate(game.totals)
                                 if t == max(game.totals)}
    assert kept_some > 0


def test_every_shipped_ruleset_passes_rules_check_without_a_warning(
        capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    files = sorted(bundled_rulesets_dir().glob("*.yaml")) + sorted(COOKBOOK_DIR.glob("*.yaml"))
    assert main(["rules", "check", *map(str, files)]) == 0
    out = capsys.readouterr()
    assert "warning" not in (out.out + out.err).lower()
    assert out.out.count(": ok (") == len(files)
