"""Bundled rulesets follow docs/rules.md; loading, extends, user folder and round trips."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from rulesets_helpers import MINIMAL, write

from tui import paths
from tui.engine.cards import JACK, JOKER_RANK, KING, QUEEN
from tui.engine.ruleset.dump import standalone_yaml
from tui.engine.ruleset.loader import (
    RulesetError,
    bundled_rulesets_dir,
    list_rulesets,
    load_ruleset,
    load_ruleset_text,
)

BUNDLED = ["contract_rummy", "liverpool", "three_thirteen", "three_thirteen_jokers"]
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("key", BUNDLED)
def test_bundled_ruleset_loads_with_key_and_source(key: str) -> None:
    ruleset = load_ruleset(key)
    path = REPO / "rulesets" / f"{key}.yaml"
    assert ruleset.key == key
    assert ruleset.source == path.read_text(encoding="utf-8")
    assert load_ruleset(str(path)) == ruleset


def test_bundled_rulesets_are_listed_without_errors() -> None:
    infos = {info.key: info for info in list_rulesets()}
    assert sorted(infos) == BUNDLED
    for info in infos.values():
        assert info.bundled and info.error is None
        assert info.path.parent == bundled_rulesets_dir()
        assert info.description
    assert infos["liverpool"].name == "Liverpool"


def test_three_thirteen_follows_the_rules() -> None:
    r = load_ruleset("three_thirteen")
    assert [rnd.cards for rnd in r.rounds] == list(range(3, 14))
    # the wild rank is the rank whose number is the hand size: 3s ... 10s, J, Q, K
    assert [rnd.wild for rnd in r.rounds] == [(n,) for n in range(3, 14)]
    assert (r.players_min, r.players_max) == (2, 8)
    for players in range(2, 9):
        spec = r.deck_for(players)
        assert spec.decks == math.ceil(players / 2) and spec.jokers == 0
    assert r.ace == "low" and not r.wrap and r.dealer == "random"
    assert r.melds.min_natural == 1 and r.melds.set.max is None
    assert not r.melds.set.distinct_suits
    assert r.lay_off.when == "never"
    g = r.going_out
    assert not g.melding_during_play and g.discard == "required" and g.final_turns
    assert r.scoring.score_best_arrangement
    assert r.scoring.values == {0: 0, 1: 1, **{n: n for n in range(2, 11)}, 11: 10, 12: 10, 13: 10}
    assert r.end.winner == "lowest" and r.end.point_limit is None
    assert r.stock.when_empty == "reshuffle"
    assert not any(rnd.contract.required for rnd in r.rounds)


def test_contract_rummy_follows_the_rules() -> None:
    r = load_ruleset("contract_rummy")
    table = [(rnd.cards, rnd.contract.sets, rnd.contract.runs) for rnd in r.rounds]
    assert table == [
        (10, 2, 0),
        (10, 1, 1),
        (10, 0, 2),
        (10, 3, 0),
        (12, 2, 1),
        (12, 1, 2),
        (12, 0, 3),
    ]
    assert [rnd.all_at_once for rnd in r.rounds] == [False] * 6 + [True]
    assert r.going_out_discard(7) == "forbidden" and r.going_out_discard(1) == "optional"
    assert (r.players_min, r.players_max) == (3, 5)
    assert (r.deck_for(3).decks, r.deck_for(3).jokers) == (1, 1)
    assert (r.deck_for(4).decks, r.deck_for(4).jokers) == (2, 2)
    assert (r.deck_for(5).decks, r.deck_for(5).jokers) == (2, 2)
    assert r.ace == "both" and not r.wrap and r.dealer == "lowest_card"
    assert (r.melds.set.min, r.melds.set.max, r.melds.set.distinct_suits) == (3, 4, True)
    assert r.melds.run.min == 3
    assert r.contract.runs_same_suit == "forbidden" and not r.contract.sets_same_rank
    assert r.draw.discard == "deep" and r.draw.deep_must_meld and r.draw.no_immediate_rediscard
    assert (r.lay_off.when, r.lay_off.onto) == ("after_contract", "any")
    s = r.joker_swap
    assert s.enabled and s.runs_only and s.contract_on_earlier_turn and s.play_same_turn
    assert r.jokers_wild and not any(rnd.wild for rnd in r.rounds)
    assert r.value(1) == 15 and r.value(JOKER_RANK) == 15
    assert [r.value(n) for n in range(2, 14)] == [*range(2, 11), 10, 10, 10]
    assert not r.buying.enabled and not r.going_out.final_turns


def test_liverpool_changes_only_its_differences_from_contract_rummy() -> None:
    base = load_ruleset("contract_rummy")
    r = load_ruleset("liverpool")
    assert (r.players_min, r.players_max) == (3, 8)
    for players in range(3, 9):
        assert (r.deck_for(players).decks, r.deck_for(players).jokers) == (2, players - 1)
    assert r.melds.run.min == 4
    assert (r.melds.set.min, r.melds.set.max, r.melds.set.distinct_suits) == (3, None, False)
    assert r.draw.discard == "top"
    assert r.contract.runs_same_suit == "separate"
    assert (r.buying.enabled, r.buying.penalty_cards, r.buying.limit_per_deal) == (True, 1, 3)
    # everything else is inherited
    assert r.rounds == base.rounds and r.rounds[6].all_at_once
    assert r.scoring == base.scoring and r.joker_swap == base.joker_swap
    assert r.lay_off == base.lay_off and r.ace == base.ace and r.dealer == base.dealer


def test_three_thirteen_jokers_is_three_thirteen_plus_jokers() -> None:
    base = load_ruleset("three_thirteen")
    r = load_ruleset("three_thirteen_jokers")
    assert r.melds.min_natural == 0
    assert (r.value(JACK), r.value(QUEEN), r.value(KING)) == (11, 12, 13)
    assert r.value(JOKER_RANK) > 13 and r.value(1) == 1
    assert all(spec.jokers > 0 for spec in r.decks) and r.jokers_wild
    assert [s.decks for s in r.decks] == [s.decks for s in base.decks]
    same = replace(
        r,
        name=base.name,
        description=base.description,
        decks=base.decks,
        melds=base.melds,
        scoring=base.scoring,
        key=base.key,
        source=base.source,
    )
    assert same == base


def test_extends_child_changes_one_key(tmp_path: Path) -> None:
    child = write(tmp_path, "longer_runs.yaml", "extends: three_thirteen\nmelds: {run: {min: 4}}\n")
    base = load_ruleset("three_thirteen")
    r = load_ruleset(str(child))
    assert r.melds.run.min == 4
    assert r.key == "longer_runs" and r.name == base.name
    assert replace(r, melds=base.melds, key=base.key, source=base.source) == base
    assert r.melds.set == base.melds.set and r.melds.min_natural == base.melds.min_natural


def test_extends_by_relative_path_and_lists_replace(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path, "base.yaml", MINIMAL.replace("max: 4", "max: 3"))
    child = write(
        tmp_path / "sub",
        "child.yaml",
        "extends: ../base.yaml\nname: Child\nrounds:\n  - {cards: 5}\n  - {cards: 6}\n",
    )
    r = load_ruleset(str(child))
    assert [rnd.cards for rnd in r.rounds] == [5, 6]
    assert r.players_max == 3 and r.name == "Child"


def test_round_defaults_merge_into_every_round(tmp_path: Path) -> None:
    base = write(
        tmp_path,
        "base.yaml",
        MINIMAL.replace(
            "rounds:\n  - {cards: 7}\n",
            "round_defaults: {cards: 6, wild: [2]}\nrounds:\n  - {}\n  - {cards: 5, wild: [K]}\n",
        ),
    )
    r = load_ruleset(str(base))
    assert [(rnd.cards, rnd.wild) for rnd in r.rounds] == [(6, (2,)), (5, (13,))]
    child = write(tmp_path, "child.yaml", "extends: base.yaml\nround_defaults: {wild: [A]}\n")
    assert [rnd.wild for rnd in load_ruleset(str(child)).rounds] == [(1,), (13,)]


def test_wild_ranks_accept_numbers_and_names(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "w.yaml",
        MINIMAL.replace("{cards: 7}", '{cards: 7, wild: [3, "4", J, q, A, "10", T]}'),
    )
    assert load_ruleset(str(path)).rounds[0].wild == (1, 3, 4, 10, 11, 12)


def test_defaults_fill_a_short_file(tmp_path: Path) -> None:
    r = load_ruleset(str(write(tmp_path, "short.yaml", MINIMAL)))
    assert r.melds.set.min == 3 and r.lay_off.when == "never" and r.jokers_wild
    assert r.value(KING) == 10 and r.value(JOKER_RANK) == 0
    assert r.description == "" and r.end.max_rounds == 100


def test_user_folder_is_searched_after_bundled(home: Path) -> None:
    folder = paths.user_rulesets_dir()
    assert folder == home / "config" / "rulesets"
    folder.mkdir(parents=True)
    write(folder, "house.yaml", "extends: contract_rummy\nname: House\nbuying: {enabled: true}\n")
    write(folder, "three_thirteen.yaml", MINIMAL)  # same key as a bundled one
    write(folder, "broken.yaml", "name: [unclosed\n")
    infos = {(i.key, i.origin): i for i in list_rulesets()}
    assert infos["house", "user"].name == "House" and not infos["house", "user"].bundled
    assert infos["broken", "user"].error and "broken.yaml:" in infos["broken", "user"].error
    assert infos["three_thirteen", "user"].shadowed
    assert not infos["three_thirteen", "bundled"].shadowed
    assert load_ruleset("house").buying.enabled
    assert load_ruleset("three_thirteen").name == "Three Thirteen"  # bundled wins
    keys = [i.key for i in list_rulesets()]
    assert keys.index("house") > keys.index("three_thirteen_jokers")  # user ones listed last


def test_user_ruleset_may_extend_another_user_ruleset(home: Path) -> None:
    folder = paths.user_rulesets_dir()
    folder.mkdir(parents=True)
    write(folder, "a.yaml", MINIMAL)
    write(folder, "b.yaml", "extends: a\ndealer: lowest_card\n")
    assert load_ruleset("b").dealer == "lowest_card"


def test_paths_without_rummy_home_use_platform_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RUMMY_HOME", raising=False)
    for folder in (paths.user_config_dir(), paths.user_data_dir(), paths.user_cache_dir()):
        assert "rummy-tui" in str(folder)
    assert paths.user_rulesets_dir().parent == paths.user_config_dir()


def test_unknown_key_lists_known_rulesets() -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset("no_such_game")
    assert "three_thirteen" in str(caught.value) and "no_such_game" in str(caught.value)


@pytest.mark.parametrize("key", BUNDLED)
def test_standalone_yaml_loads_back_equal(key: str) -> None:
    r = load_ruleset(key)
    text = standalone_yaml(r)
    assert "extends" not in text
    again = load_ruleset_text(text)
    assert replace(again, key=r.key, source=r.source) == r


def test_installed_layout_finds_bundled_rulesets(tmp_path: Path) -> None:
    """After `pip install .` the YAML files are package data of `tui.rulesets`."""
    import shutil
    import subprocess
    import sys

    site = tmp_path / "site"
    shutil.copytree(REPO / "tui", site / "tui", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "rulesets", site / "tui" / "rulesets")
    code = (
        "from tui.engine.ruleset.loader import bundled_rulesets_dir, load_ruleset;"
        "print(bundled_rulesets_dir()); print(load_ruleset('liverpool').name)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(site), "RUMMY_HOME": str(tmp_path / "h"), "PATH": ""},
        check=True,
    ).stdout.splitlines()
    assert out == [str(site / "tui" / "rulesets"), "Liverpool"]


def test_a_checkout_reads_its_own_bundled_rulesets() -> None:
    """From a source checkout the bundled files are the checkout's own, not those of
    whichever copy of the package happens to be installed."""
    from tui.engine.ruleset.loader import bundled_rulesets_dir

    assert bundled_rulesets_dir() == REPO / "rulesets"
