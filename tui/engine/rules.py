"""The rules of one rummy game as data.

The engine knows no game by name: every difference between Three Thirteen, Contract Rummy,
Liverpool and any house variation is a field here, read from a YAML ruleset by
`tui.engine.ruleset.loader`.  Defaults make a short YAML file a full ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .cards import ACE, JOKER_RANK, RANK_NAMES

AceRule = Literal["low", "high", "both"]
DiscardRule = Literal["required", "optional", "forbidden"]
DrawDiscard = Literal["top", "deep", "none"]
SameSuitRuns = Literal["allowed", "separate", "forbidden"]
StockOut = Literal["reshuffle", "end_round"]
Winner = Literal["lowest", "highest"]
DealerRule = Literal["random", "lowest_card"]
LayOffWhen = Literal["never", "after_contract", "after_contract_turn"]
LayOffOnto = Literal["any", "own"]
WildUnmelded = Literal["face", "fixed"]


@dataclass(frozen=True)
class DeckSpec:
    """Decks and jokers used from `players` players upward (until the next spec)."""

    players: int
    decks: int
    jokers: int = 0


@dataclass(frozen=True)
class Contract:
    """The meld pattern a player must lay down first.  Zero and zero means no contract."""

    sets: int = 0
    runs: int = 0

    @property
    def required(self) -> bool:
        return self.sets + self.runs > 0

    def describe(self) -> str:
        parts = []
        if self.sets:
            parts.append(f"{self.sets} set" + ("s" if self.sets > 1 else ""))
        if self.runs:
            parts.append(f"{self.runs} run" + ("s" if self.runs > 1 else ""))
        return " + ".join(parts) if parts else "no contract"


@dataclass(frozen=True)
class Round:
    """One round of the schedule: a row of `rounds` in the YAML, which a deal plays by."""

    cards: int
    wild: tuple[int, ...] = ()
    contract: Contract = field(default_factory=Contract)
    all_at_once: bool = False
    going_out_discard: DiscardRule | None = None  # None: the ruleset's going_out.discard

    def label_wild(self) -> str:
        if not self.wild:
            return ""
        return ", ".join(f"{RANK_NAMES[r]}s" for r in self.wild) + " wild"


@dataclass(frozen=True)
class SetRule:
    min: int = 3
    max: int | None = None
    distinct_suits: bool = False


@dataclass(frozen=True)
class RunRule:
    min: int = 3
    max: int | None = None


@dataclass(frozen=True)
class MeldRules:
    set: SetRule = field(default_factory=SetRule)
    run: RunRule = field(default_factory=RunRule)
    min_natural: int = 1
    wilds_may_outnumber_naturals: bool = True


@dataclass(frozen=True)
class ContractRules:
    """How the melds of one contract relate to each other."""

    runs_same_suit: SameSuitRuns = "forbidden"
    sets_same_rank: bool = False


@dataclass(frozen=True)
class DrawRules:
    discard: DrawDiscard = "top"
    deep_must_meld: bool = True
    no_immediate_rediscard: bool = False
    rediscard_to_go_out: bool = False  # the card just taken may be the last discard


@dataclass(frozen=True)
class BuyingRules:
    enabled: bool = False
    penalty_cards: int = 1
    limit_per_deal: int | None = 3


@dataclass(frozen=True)
class LayOffRules:
    when: LayOffWhen = "never"
    onto: LayOffOnto = "any"


@dataclass(frozen=True)
class JokerSwapRules:
    enabled: bool = False
    runs_only: bool = True
    contract_on_earlier_turn: bool = True
    play_same_turn: bool = True


@dataclass(frozen=True)
class GoingOutRules:
    """`melding: false` is the Three Thirteen way: nothing is laid down during play; a player
    goes out by declaring the whole hand (but the discard) as melds."""

    melding_during_play: bool = True
    discard: DiscardRule = "optional"
    final_turns: bool = False
    bonus: int = 0


@dataclass(frozen=True)
class StockRules:
    when_empty: StockOut = "reshuffle"
    max_rebuilds: int = 2


@dataclass(frozen=True)
class ScoringRules:
    values: dict[int, int] = field(default_factory=dict)  # rank (0 = joker) -> points
    wild_unmelded: WildUnmelded = "face"
    wild_value: int = 0  # with wild_unmelded: fixed
    score_best_arrangement: bool = False  # arrange hands to minimum penalty at round end

    def __hash__(self) -> int:  # dict field: hash by content
        return hash(tuple(sorted(self.values.items())))


@dataclass(frozen=True)
class EndRules:
    """The game ends after the last round, or, with a point limit, once a total reaches it
    (the round schedule then repeats, up to `max_rounds`)."""

    point_limit: int | None = None
    max_rounds: int = 100
    winner: Winner = "lowest"


@dataclass(frozen=True)
class Ruleset:
    name: str
    description: str
    players_min: int
    players_max: int
    decks: tuple[DeckSpec, ...]
    ace: AceRule
    wrap: bool
    jokers_wild: bool
    dealer: DealerRule
    rounds: tuple[Round, ...]
    melds: MeldRules
    contract: ContractRules
    draw: DrawRules
    buying: BuyingRules
    lay_off: LayOffRules
    joker_swap: JokerSwapRules
    going_out: GoingOutRules
    stock: StockRules
    scoring: ScoringRules
    end: EndRules
    key: str = ""  # the name it was loaded by (file stem), for records and `extends`
    # The YAML text of its own file.  A file using `extends` holds only changes: for a
    # self-contained copy (records, replays) use `ruleset_dump.standalone_yaml`.
    source: str = ""

    def deck_for(self, players: int) -> DeckSpec:
        """The deck spec in force for `players` players: the last one starting at or below."""
        chosen = self.decks[0]
        for spec in self.decks:
            if spec.players <= players:
                chosen = spec
        return chosen

    def round(self, number: int) -> Round:
        """Round `number` of the schedule, counted from 1."""
        return self.rounds[number - 1]

    def schedule_round(self, deal: int) -> int:
        """The round of the schedule deal `deal` plays by (both from 1): the schedule
        repeats from its start once a point-limit game has played every row."""
        return (deal - 1) % len(self.rounds) + 1

    def going_out_discard(self, number: int) -> DiscardRule:
        return self.round(number).going_out_discard or self.going_out.discard

    def value(self, rank: int) -> int:
        return self.scoring.values.get(rank, 0)

    def is_wild(self, rank: int, number: int) -> bool:
        """Whether a card of `rank` is wild in round `number` (jokers by `jokers_wild`)."""
        if rank == JOKER_RANK:
            return self.jokers_wild
        return rank in self.round(number).wild

    @property
    def ace_high(self) -> bool:
        return self.ace in ("high", "both")

    @property
    def ace_low(self) -> bool:
        return self.ace in ("low", "both")

    def run_positions(self, rank: int) -> tuple[int, ...]:
        """Positions a natural card of `rank` can take in a run (ace: 1 and/or 14)."""
        if rank != ACE:
            return (rank,)
        return tuple(p for p, ok in ((1, self.ace_low), (14, self.ace_high)) if ok)


STANDARD_VALUES: dict[int, int] = {1: 1, **{n: n for n in range(2, 11)}, 11: 10, 12: 10, 13: 10}
