"""Write a `Ruleset` back out as YAML: a self-contained copy, or a commented starter file.

A ruleset made with ``extends`` keeps only its own text in `Ruleset.source`; records and
replays that must not depend on other files use `standalone_yaml`, which loads back to the
same rules.  `starter_yaml` writes the file `rummy rules new` gives a player to edit.
"""

from __future__ import annotations

import textwrap
from typing import Any

import yaml

from ...terminal_text import printable
from ..cards import HIGH_ACE, JOKER_RANK, RANK_NAMES
from ..rules import Contract, MeldRules, Round, Ruleset
from .build import DEFAULT_VALUES, VALUE_KEYS
from .schema import rules_schema


def _rank_out(rank: int) -> int | str:
    """Ranks 2-10 as numbers, A/J/Q/K as letters, the way players write them."""
    name = RANK_NAMES[rank]
    return int(name) if name.isdigit() else name


def _bound_out(position: int | None) -> int | str | None:
    """A run bound back as a rank (positions 1 and 14 are both the ace)."""
    return None if position is None else _rank_out(1 if position == HIGH_ACE else position)


def _melds_out(m: MeldRules) -> dict[str, Any]:
    return {
        "set": {
            "min": m.set.min,
            "max": m.set.max,
            "distinct_suits": m.set.distinct_suits,
            "allowed": m.set.allowed,
            "one_colour": m.set.one_colour,
        },
        "run": {
            "min": m.run.min,
            "max": m.run.max,
            "lowest": _bound_out(m.run.lowest),
            "highest": _bound_out(m.run.highest),
            "same_suit": m.run.same_suit,
            "allowed": m.run.allowed,
            "one_colour": m.run.one_colour,
        },
        "colour": {"min": m.colour.min, "max": m.colour.max},
        "min_natural": m.min_natural,
        "wilds_may_outnumber_naturals": m.wilds_may_outnumber_naturals,
        "wild_rank_natural": m.wild_rank_natural,
        "wild_ratio_on_lay_off": m.wild_ratio_on_lay_off,
        "max_wilds": m.max_wilds,
    }


def _changes(base: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
    """The keys of `mine` that differ from `base` (mappings compared key by key)."""
    out: dict[str, Any] = {}
    for key, value in mine.items():
        if isinstance(value, dict):
            inner = _changes(base.get(key, {}), value)
            if inner:
                out[key] = inner
        elif base.get(key) != value:
            out[key] = value
    return out


def _contract_out(c: Contract) -> dict[str, Any]:
    sets: Any = list(c.set_sizes) if c.set_sizes else c.sets
    if c.set_ranks:
        sets = [size if rank is None else {"size": size, "rank": _rank_out(rank)}
                for size, rank in zip(c.set_sizes, c.set_ranks, strict=True)]
    out = {"sets": sets, "runs": list(c.run_sizes) if c.run_sizes else c.runs}
    if c.colours:
        out["colours"] = list(c.colour_sizes) if c.colour_sizes else c.colours
    return out


def _round_out(rnd: Round, game_melds: MeldRules | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": rnd.cards}
    if rnd.cards_by_players:
        out["cards"] = [{"players": p, "cards": n} for p, n in rnd.cards_by_players]
    if rnd.wild:
        out["wild"] = [_rank_out(rank) for rank in rnd.wild]
    if rnd.contract.required:
        out["contract"] = _contract_out(rnd.contract)
        if rnd.contract.alternatives:
            out["contract"]["any_of"] = [_contract_out(c) for c in rnd.contract.alternatives]
        if rnd.contract.exact_size is not None:
            out["contract"]["exact_size"] = rnd.contract.exact_size
    if rnd.all_at_once:
        out["all_at_once"] = True
    if rnd.going_out_discard is not None:
        out["going_out_discard"] = rnd.going_out_discard
    if rnd.melds is not None:  # only what the round changes from the game's melds
        base = _melds_out(game_melds) if game_melds is not None else {}
        out["melds"] = _changes(base, _melds_out(rnd.melds)) or None
    return out


def ruleset_data(ruleset: Ruleset) -> dict[str, Any]:
    """Every key of the ruleset as YAML-shaped data (the inverse of loading)."""
    r = ruleset
    values = {
        ("JK" if rank == JOKER_RANK else RANK_NAMES[rank]): points
        for rank, points in sorted(r.scoring.values.items(), key=lambda kv: (kv[0] == 0, kv[0]))
    }
    return {
        "name": r.name,
        "description": r.description,
        "players": {"min": r.players_min, "max": r.players_max},
        "decks": [{"players": d.players, "decks": d.decks, "jokers": d.jokers} for d in r.decks],
        "ranks": {"ace": r.ace, "wrap": r.wrap},
        "jokers_wild": r.jokers_wild,
        "dealer": r.dealer,
        "dealer_ace": r.dealer_ace,
        "progression": r.progression,
        "rounds": [_round_out(rnd, r.melds) for rnd in r.rounds],
        "melds": _melds_out(r.melds),
        "contract": {
            "runs_same_suit": r.contract.runs_same_suit,
            "sets_same_rank": r.contract.sets_same_rank,
            "same_suit_gap": r.contract.same_suit_gap,
            "exact_size": r.contract.exact_size,
        },
        "draw": {
            "discard": r.draw.discard,
            "deep_must_meld": r.draw.deep_must_meld,
            "no_immediate_rediscard": r.draw.no_immediate_rediscard,
            "rediscard_to_go_out": r.draw.rediscard_to_go_out,
            "stock_only_after_contract": r.draw.stock_only_after_contract,
        },
        "buying": {
            "enabled": r.buying.enabled,
            "penalty_cards": r.buying.penalty_cards,
            "limit_per_deal": r.buying.limit_per_deal,
            "priority": r.buying.priority,
            "after_contract": r.buying.after_contract,
        },
        "lay_off": {"when": r.lay_off.when, "onto": r.lay_off.onto,
                    "onto_knocker": r.lay_off.onto_knocker},
        "joker_swap": {
            "enabled": r.joker_swap.enabled,
            "runs_only": r.joker_swap.runs_only,
            "contract_on_earlier_turn": r.joker_swap.contract_on_earlier_turn,
            "play_same_turn": r.joker_swap.play_same_turn,
            "when": r.joker_swap.when,
        },
        "going_out": {
            "melding_during_play": r.going_out.melding_during_play,
            "discard": r.going_out.discard,
            "final_turns": r.going_out.final_turns,
            "final_turns_from_stock": r.going_out.final_turns_from_stock,
            "bonus": r.going_out.bonus,
            "one_turn_bonus": r.going_out.one_turn_bonus,
            "deadwood_limit": r.going_out.deadwood_limit,
            "one_turn_multiplier": r.going_out.one_turn_multiplier,
            "gin_bonus": r.going_out.gin_bonus,
            "big_gin_bonus": r.going_out.big_gin_bonus,
        },
        "stock": {
            "when_empty": r.stock.when_empty,
            "max_rebuilds": r.stock.max_rebuilds,
            "rebuild": r.stock.rebuild,
        },
        "scoring": {
            "values": values,
            "wild_unmelded": r.scoring.wild_unmelded,
            "wild_value": r.scoring.wild_value,
            "score_best_arrangement": r.scoring.score_best_arrangement,
            "out_player_collects": r.scoring.out_player_collects,
            "melded": r.scoring.melded,
            "low_ace_value": r.scoring.low_ace_value,
            "undercut_bonus": r.scoring.undercut_bonus,
        },
        "end": {
            "point_limit": r.end.point_limit,
            "max_rounds": r.end.max_rounds,
            "winner": r.end.winner,
            "tie_break": r.end.tie_break,
        },
    }


class _Dumper(yaml.SafeDumper):
    """Block style for sections, flow style for the small mappings inside lists."""


def _flow(value: Any) -> str:
    text: str = yaml.dump(value, Dumper=_Dumper, default_flow_style=True, sort_keys=False,
                          width=10**6)
    return text.strip().removesuffix("...").strip()


def _lines(key: str, value: Any, schema: dict[str, Any], indent: str) -> list[str]:
    """YAML lines for one key, with the allowed values of an enum as a trailing comment."""
    props = schema.get("properties", {})
    if isinstance(value, dict) and props and key != "values":
        lines = [f"{indent}{key}:"]
        for child, child_value in value.items():
            lines += _lines(child, child_value, props.get(child, {}), indent + "  ")
        return lines
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return [f"{indent}{key}:"] + [f"{indent}  - {_flow(item)}" for item in value]
    line = f"{indent}{key}: {_flow(value)}"
    options = [str(v) for v in schema.get("enum", []) if v is not None]
    if options:
        line = f"{line:<40} # {' | '.join(options)}"
    return [line]


def _comment(text: str, width: int = 90) -> list[str]:
    return [f"# {line}" for line in textwrap.wrap(text, width - 2)]


def standalone_yaml(ruleset: Ruleset) -> str:
    """A self-contained YAML file with every key, loading back to an equal `Ruleset`."""
    schema = rules_schema()["properties"]
    lines = [
        f"# {ruleset.name}: every rule written out (made from `{ruleset.key or 'a ruleset'}`).",
        "",
    ]
    for key, value in ruleset_data(ruleset).items():
        lines += _lines(key, value, schema.get(key, {}), "")
    return "\n".join(lines) + "\n"


SCHEMA_FILE_NAME = "ruleset.schema.json"

_STARTER_DEFAULTS: dict[str, Any] = {
    "players": {"min": 2, "max": 4},
    "decks": [{"players": 2, "decks": 1, "jokers": 0}, {"players": 3, "decks": 2, "jokers": 0}],
    "rounds": [{"cards": 7}, {"cards": 7}, {"cards": 7}],
}


def starter_yaml(name: str, base: Ruleset | None = None, base_ref: str = "") -> str:
    """The commented file `rummy rules new` writes.

    With a `base` it ``extends`` `base_ref` and shows every key of the base commented out,
    ready to uncomment and change; without one it is a complete small game with every key
    written, each explained.
    """
    schema = rules_schema()
    props = schema["properties"]
    lines = [f"# yaml-language-server: $schema=./{SCHEMA_FILE_NAME}"]
    lines += _comment(
        f"{name}: a rummy ruleset.  Check it with `rummy rules check <this file>`, read the "
        "rules it makes with `rummy rules show <this file>`, and see every key explained with "
        "`rummy rules schema`."
    )
    if base is not None:
        # `base_ref` is a file's name, anything its author chose: quoted and escaped as
        # YAML, and shown in the comment with its control characters as visible escapes
        lines += _comment(
            f"It starts from `{printable(base_ref)}` ({base.name}): only the keys written "
            "here change the game.  Every other key is shown commented out with the value it "
            "has now; "
            "uncomment a key and change its value.  Lists (rounds, decks) replace the whole "
            "inherited list; mappings change only the keys you write."
        )
        lines += ["", f"extends: {_flow(base_ref)}", "", f"name: {_flow(name)}"]
        description = f"{base.name} with house rules."
        lines += [f"description: {_flow(description)}"]
        data = ruleset_data(base)
    else:
        lines += ["", f"name: {_flow(name)}", "description: My own rummy game."]
        data = _starter_data()
    for key, value in data.items():
        if key in ("name", "description"):
            continue
        lines.append("")
        lines += _comment(props[key]["description"])
        block = _lines(key, value, props[key], "")
        lines += [f"# {line}" for line in block] if base is not None else block
    return "\n".join(lines) + "\n"


def _starter_data() -> dict[str, Any]:
    """A small complete game: every key at its schema default."""
    props = rules_schema()["properties"]
    data: dict[str, Any] = {}
    for key, schema in props.items():
        if key in ("extends", "round_defaults"):
            continue
        if key in _STARTER_DEFAULTS:
            data[key] = _STARTER_DEFAULTS[key]
        elif "properties" in schema and key != "name":
            data[key] = {
                child: _default(child_schema)
                for child, child_schema in schema["properties"].items()
                if "default" in child_schema or "properties" in child_schema
            }
        elif "default" in schema:
            data[key] = schema["default"]
    standard = {name: DEFAULT_VALUES[rank] for name, rank in VALUE_KEYS.items()}
    data["scoring"]["values"] = standard  # written out so players see what to change
    return data


def _default(schema: dict[str, Any]) -> Any:
    if "properties" in schema and "default" not in schema:
        return {k: _default(v) for k, v in schema["properties"].items() if "default" in v}
    return schema.get("default")
