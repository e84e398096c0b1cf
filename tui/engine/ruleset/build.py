"""Turn checked ruleset data (plain dicts from YAML) into the `Ruleset` dataclasses.

Keys left out take the dataclass defaults, so a short file is a full ruleset.  The data is
assumed to have passed the JSON Schema; rank names are resolved here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...terminal_text import printable
from ..cards import HIGH_ACE, JOKER_RANK, RANK_NAMES
from ..rules import (
    STANDARD_VALUES,
    BuyingRules,
    ColourRule,
    Contract,
    ContractRules,
    DeckSpec,
    DrawRules,
    EndRules,
    GoingOutRules,
    JokerSwapRules,
    LayOffRules,
    MeldRules,
    Round,
    Ruleset,
    RunRule,
    ScoringRules,
    SetRule,
    StockRules,
)
from .marked_yaml import deep_merge

# Card value keys as written in YAML: A, 2 ... 10, J, Q, K and JK for the joker.
VALUE_KEYS: dict[str, int] = {RANK_NAMES[rank]: rank for rank in range(1, 14)} | {"JK": JOKER_RANK}
DEFAULT_VALUES: dict[int, int] = STANDARD_VALUES | {JOKER_RANK: 0}


def rank_of(value: Any) -> int | None:
    """A wild rank as written (3, "3", "10", "J", "q", "A", "T") to its number, or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value in RANK_NAMES else None
    if isinstance(value, str):
        text = value.strip().upper()
        if text == "T":
            return 10
        return VALUE_KEYS.get(text) if text != "JK" else None
    return None


def expanded_rounds(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each round entry with `round_defaults` merged under it."""
    defaults = data.get("round_defaults") or {}
    return [deep_merge(defaults, entry) for entry in data.get("rounds", [])]


def _section(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _pick(section: dict[str, Any], *names: str) -> dict[str, Any]:
    """The given keys that are present, for `Dataclass(**...)` so absent ones default."""
    return {name: section[name] for name in names if name in section}


def _contract(section: dict[str, Any]) -> Contract:
    """`sets` / `runs` as a count, or as a list of sizes (one per meld); a set's entry may
    be `{size: N, rank: R}` for a set that must be of rank R.  With `any_of`, each entry
    is one more pattern that makes the contract (the first pattern is the contract's own
    `sets` / `runs` if it gives any, else the first entry)."""
    own = replace(_one_contract(section), exact_size=section.get("exact_size"))
    entries = section.get("any_of")
    if not isinstance(entries, list) or not entries:
        return own
    options = [own] if own.required else []
    options += [_one_contract(entry) for entry in entries if isinstance(entry, dict)]
    options = [option for option in options if option.required] or [own]
    return replace(options[0], alternatives=tuple(options[1:]), exact_size=own.exact_size)


def _one_contract(section: dict[str, Any]) -> Contract:
    counts: dict[str, Any] = {}
    for key in ("sets", "runs", "colours"):
        value = section.get(key, 0)
        if isinstance(value, list):
            counts[key] = len(value)
            counts[f"{key[:-1]}_sizes"] = tuple(
                entry["size"] if isinstance(entry, dict) else entry for entry in value)
            ranks = tuple(rank_of(entry["rank"]) if isinstance(entry, dict) else None
                          for entry in value)
            if key == "sets" and any(rank is not None for rank in ranks):
                counts["set_ranks"] = ranks
        else:
            counts[key] = value
    return Contract(**counts)


def build_melds(melds: dict[str, Any]) -> MeldRules:
    """`melds` (the game's, or a round's merged over the game's) as `MeldRules`."""
    return MeldRules(
        set=SetRule(**_pick(_section(melds, "set"), "min", "max", "distinct_suits", "allowed",
                           "one_colour")),
        colour=ColourRule(**_pick(_section(melds, "colour"), "min", "max")),
        run=RunRule(
            lowest=run_bound(_section(melds, "run").get("lowest"), "lowest"),
            highest=run_bound(_section(melds, "run").get("highest"), "highest"),
            **_pick(_section(melds, "run"), "min", "max", "same_suit", "allowed", "one_colour"),
        ),
        **_pick(
            melds,
            "min_natural",
            "wilds_may_outnumber_naturals",
            "wild_rank_natural",
            "wild_ratio_on_lay_off",
            "max_wilds",
        ),
    )


def build_round(entry: dict[str, Any], game_melds: dict[str, Any] | None = None) -> Round:
    """One round; its own `melds`, if any, are merged over the game's `game_melds`."""
    cards = entry["cards"]
    by_players: tuple[tuple[int, int], ...] = ()
    if isinstance(cards, list):
        by_players = tuple(sorted((e["players"], e["cards"]) for e in cards))
        cards = by_players[0][1]
    return Round(
        cards=cards,
        wild=tuple(sorted({r for r in (rank_of(w) for w in entry.get("wild", [])) if r})),
        cards_by_players=by_players,
        contract=_contract(_section(entry, "contract")),
        melds=(build_melds(deep_merge(game_melds or {}, entry["melds"]))
               if isinstance(entry.get("melds"), dict) else None),
        **_pick(entry, "all_at_once", "going_out_discard"),
    )


def run_bound(value: Any, end: str) -> int | None:
    """`melds.run.lowest` / `highest` as a run position: an ace is 1 low, 14 high."""
    rank = rank_of(value) if value is not None else None
    if rank is None:
        return None
    return HIGH_ACE if rank == 1 and end == "highest" else rank


def build_ruleset(data: dict[str, Any], key: str = "", source: str = "") -> Ruleset:
    """The `Ruleset` for schema-valid, merged data."""
    players = _section(data, "players")
    ranks = _section(data, "ranks")
    melds = _section(data, "melds")
    scoring = _section(data, "scoring")
    values = dict(DEFAULT_VALUES)
    for name, points in _section(scoring, "values").items():
        values[VALUE_KEYS[name]] = points
    decks = sorted(
        (DeckSpec(**_pick(spec, "players", "decks", "jokers")) for spec in data["decks"]),
        key=lambda spec: spec.players,
    )
    return Ruleset(
        # Shown on terminals: an escape sequence in the file is kept as visible text.
        name=printable(data["name"]),
        description=printable(" ".join(str(data.get("description", "")).split())),
        players_min=players["min"],
        players_max=players["max"],
        decks=tuple(decks),
        ace=ranks.get("ace", "low"),
        wrap=ranks.get("wrap", False),
        jokers_wild=data.get("jokers_wild", True),
        dealer=data.get("dealer", "random"),
        dealer_ace=data.get("dealer_ace", "ranks"),
        progression=data.get("progression", "schedule"),
        rounds=tuple(build_round(entry, melds) for entry in expanded_rounds(data)),
        melds=build_melds(melds),
        contract=ContractRules(
            **_pick(
                _section(data, "contract"),
                "runs_same_suit",
                "sets_same_rank",
                "same_suit_gap",
                "exact_size",
            )
        ),
        draw=DrawRules(
            **_pick(
                _section(data, "draw"),
                "discard",
                "deep_must_meld",
                "no_immediate_rediscard",
                "stock_only_after_contract",
                "rediscard_to_go_out",
            )
        ),
        buying=BuyingRules(
            **_pick(
                _section(data, "buying"),
                "enabled",
                "penalty_cards",
                "limit_per_deal",
                "priority",
                "after_contract",
            )
        ),
        lay_off=LayOffRules(**_pick(_section(data, "lay_off"), "when", "onto", "onto_knocker")),
        joker_swap=JokerSwapRules(
            **_pick(
                _section(data, "joker_swap"),
                "enabled",
                "runs_only",
                "contract_on_earlier_turn",
                "play_same_turn",
                "when",
            )
        ),
        going_out=GoingOutRules(
            **_pick(
                _section(data, "going_out"),
                "melding_during_play",
                "discard",
                "final_turns",
                "final_turns_from_stock",
                "bonus",
                "one_turn_bonus",
                "deadwood_limit",
                "one_turn_multiplier",
                "gin_bonus",
                "big_gin_bonus",
            )
        ),
        stock=StockRules(
            **_pick(_section(data, "stock"), "when_empty", "max_rebuilds", "rebuild")
        ),
        scoring=ScoringRules(
            values=values,
            **_pick(
                scoring,
                "wild_unmelded",
                "wild_value",
                "score_best_arrangement",
                "out_player_collects",
                "melded",
                "low_ace_value",
                "undercut_bonus",
            ),
        ),
        end=EndRules(
            **_pick(_section(data, "end"), "point_limit", "max_rounds", "winner", "tie_break")
        ),
        key=key,
        source=source,
    )
