"""The rules of one rummy game as data.

The engine knows no game by name: every difference between Three Thirteen, Contract Rummy,
Liverpool and any house variation is a field here, read from a YAML ruleset by
`tui.engine.ruleset.loader`.  Defaults make a short YAML file a full ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from .cards import ACE, HIGH_ACE, JOKER_RANK, RANK_NAMES

AceRule = Literal["low", "high", "both"]
DiscardRule = Literal["required", "optional", "forbidden"]
DrawDiscard = Literal["top", "deep", "none"]
SameSuitRuns = Literal["allowed", "separate", "forbidden"]
StockOut = Literal["reshuffle", "end_round"]
Winner = Literal["lowest", "highest"]
DealerRule = Literal["random", "lowest_card", "highest_card"]
DealerAce = Literal["ranks", "low", "high"]
StockRebuild = Literal["shuffle", "turn_over"]
TieBreak = Literal["share", "last_round", "most_outs"]
BuyPriority = Literal["nearest", "first_to_ask"]
JokerSwapWhen = Literal["after_contract", "before_contract", "any"]
LayOffWhen = Literal["never", "after_contract", "after_contract_turn", "always"]
LayOffOnto = Literal["any", "own"]
WildUnmelded = Literal["face", "fixed"]
MeldedScore = Literal["none", "plus"]
Progression = Literal["schedule", "per_player"]


@dataclass(frozen=True)
class DeckSpec:
    """Decks and jokers used from `players` players upward (until the next spec)."""

    players: int
    decks: int
    jokers: int = 0


@dataclass(frozen=True)
class Contract:
    """The meld pattern a player must lay down first.  Zero and zero means no contract.

    `set_sizes` / `run_sizes`, when given (one entry per set / run), are each meld's
    smallest size in this contract instead of `melds.set.min` / `melds.run.min`.
    `set_ranks`, when given (one entry per set, in the order of `set_sizes`), is the rank
    each set must be of ("a pair of aces"), None for a set of any rank.
    `alternatives`: other patterns any one of which may be laid down instead of this one
    (`contract.any_of`; this one is the first).
    `colours` / `colour_sizes`: groups of one colour in any ranks ("7 cards of one
    colour", `contract.colours`), sized as sets and runs are."""

    sets: int = 0
    runs: int = 0
    set_sizes: tuple[int, ...] = ()
    run_sizes: tuple[int, ...] = ()
    colours: int = 0
    colour_sizes: tuple[int, ...] = ()
    set_ranks: tuple[int | None, ...] = ()
    alternatives: tuple[Contract, ...] = ()
    exact_size: bool | None = None  # this round's `contract.exact_size` (None: the game's)

    def options(self) -> tuple[Contract, ...]:
        """Every pattern that makes the contract: this one, then its alternatives."""
        if not self.alternatives:
            return (self,)
        return (replace(self, alternatives=()),
                *(replace(a, exact_size=self.exact_size) for a in self.alternatives))

    @property
    def required(self) -> bool:
        return self.sets + self.runs + self.colours > 0

    def count(self, kind: str) -> int:
        """How many melds of `kind` ("set", "run", "colour") the contract asks for."""
        return self.sets if kind == "set" else self.runs if kind == "run" else self.colours

    def sizes(self, kind: str, default: int) -> tuple[int, ...]:
        """The smallest size of each meld of `kind` in the contract, largest first."""
        given = self.set_sizes if kind == "set" else self.run_sizes if kind == "run" \
            else self.colour_sizes
        return tuple(sorted(given, reverse=True)) if given else (default,) * self.count(kind)

    def set_slots(self, default: int) -> tuple[tuple[int, int | None], ...]:
        """(smallest size, rank or None) of each set of the contract, largest first (sets
        of a fixed rank before those of any rank of the same size)."""
        sizes = self.set_sizes or (default,) * self.sets
        ranks = self.set_ranks or (None,) * len(sizes)
        return tuple(sorted(zip(sizes, ranks, strict=True),
                            key=lambda slot: (-slot[0], slot[1] is None, slot[1] or 0)))

    def describe(self) -> str:
        if self.alternatives:
            return ", or ".join(option.describe() for option in self.options())
        parts = []
        if self.set_ranks:
            for size, rank in self.set_slots(0):
                of = f" {RANK_NAMES[rank]}s" if rank is not None else ""
                parts.append(f"1 set of {size}{of}")  # 1 set of 2 As
        for kind, count, given in (("set", 0 if self.set_ranks else self.sets,
                                    self.set_sizes),
                                   ("run", self.runs, self.run_sizes)):
            if given and count:
                for size in sorted(set(given), reverse=True):
                    k = given.count(size)
                    parts.append(f"{k} {kind}{'s' if k > 1 else ''} of {size}")
            elif count:
                parts.append(f"{count} {kind}" + ("s" if count > 1 else ""))
        if self.colour_sizes:  # 7 cards of one colour
            parts += [f"{size} cards of one colour"
                      for size in sorted(self.colour_sizes, reverse=True)]
        elif self.colours:
            parts.append(f"{self.colours} group{'s' if self.colours > 1 else ''} of one colour")
        return " + ".join(parts) if parts else "no contract"


@dataclass(frozen=True)
class Round:
    """One round of the schedule: a row of `rounds` in the YAML, which a deal plays by."""

    cards: int
    wild: tuple[int, ...] = ()
    # (players, cards) from that many players upward; empty: `cards` for every count
    cards_by_players: tuple[tuple[int, int], ...] = ()
    contract: Contract = field(default_factory=Contract)
    all_at_once: bool = False
    going_out_discard: DiscardRule | None = None  # None: the ruleset's going_out.discard
    melds: MeldRules | None = None  # this round's meld rules (None: the ruleset's `melds`)

    def cards_for(self, players: int) -> int:
        """Cards dealt to each of `players` players this round."""
        chosen = self.cards
        for start, cards in self.cards_by_players:
            if start <= players:
                chosen = cards
        return chosen

    def label_wild(self) -> str:
        if not self.wild:
            return ""
        return ", ".join(f"{RANK_NAMES[r]}s" for r in self.wild) + " wild"


@dataclass(frozen=True)
class SetRule:
    min: int = 3
    max: int | None = None
    distinct_suits: bool = False
    allowed: bool = True  # False: no sets at all (a round of runs only)
    one_colour: bool = False  # every natural card red (hearts, diamonds) or every one black


@dataclass(frozen=True)
class RunRule:
    min: int = 3
    max: int | None = None
    lowest: int | None = None  # lowest run position (A low = 1); None: as the ace allows
    highest: int | None = None  # highest run position (A high = 14); None: as the ace allows
    same_suit: bool = True  # False: runs may mix suits
    allowed: bool = True  # False: no runs at all (a round of sets only)
    one_colour: bool = False  # with mixed suits: every natural card of one colour


@dataclass(frozen=True)
class ColourRule:
    """Groups of one colour in any ranks, as a contract asks (`contract.colours`)."""

    min: int = 3
    max: int | None = None


@dataclass(frozen=True)
class MeldRules:
    set: SetRule = field(default_factory=SetRule)
    run: RunRule = field(default_factory=RunRule)
    colour: ColourRule = field(default_factory=ColourRule)
    min_natural: int = 1
    wilds_may_outnumber_naturals: bool = True
    wild_rank_natural: bool = True  # a wild-rank card may stand for itself as a natural
    wild_ratio_on_lay_off: bool = True  # the outnumber rule also holds when laying off
    max_wilds: int | None = None  # most cards standing in as wilds in one meld (None: any)


@dataclass(frozen=True)
class ContractRules:
    """How the melds of one contract relate to each other."""

    runs_same_suit: SameSuitRuns = "forbidden"
    sets_same_rank: bool = False
    same_suit_gap: int = 1  # with `separate`: fewest empty places between two such runs
    exact_size: bool = False  # contract melds are laid down at exactly their smallest size


@dataclass(frozen=True)
class DrawRules:
    discard: DrawDiscard = "top"
    deep_must_meld: bool = True
    no_immediate_rediscard: bool = False
    rediscard_to_go_out: bool = False  # the card just taken may be the last discard
    stock_only_after_contract: bool = False


@dataclass(frozen=True)
class BuyingRules:
    enabled: bool = False
    penalty_cards: int = 1
    limit_per_deal: int | None = 3
    priority: BuyPriority = "nearest"
    after_contract: bool = True  # a player whose contract is down may still buy


@dataclass(frozen=True)
class LayOffRules:
    when: LayOffWhen = "never"
    onto: LayOffOnto = "any"
    onto_knocker: bool = False  # at the end, the others lay off onto a knocker's melds


@dataclass(frozen=True)
class JokerSwapRules:
    enabled: bool = False
    runs_only: bool = True
    contract_on_earlier_turn: bool = True
    play_same_turn: bool = True
    when: JokerSwapWhen = "after_contract"


@dataclass(frozen=True)
class GoingOutRules:
    """`melding: false` is the Three Thirteen way: nothing is laid down during play; a player
    goes out by declaring the whole hand (but the discard) as melds."""

    melding_during_play: bool = True
    discard: DiscardRule = "optional"
    final_turns: bool = False
    final_turns_from_stock: bool = False  # a final turn draws from the stock only
    bonus: int = 0
    one_turn_bonus: int = 0  # added when the whole hand was melded in one turn ("rummy")
    deadwood_limit: int = 0  # points a player may keep unmelded when going out
    # going out in one turn multiplies the others' hand points ("going rummy" pays double)
    one_turn_multiplier: int = 1
    gin_bonus: int = 0  # knocking: going out keeping nothing unmelded
    big_gin_bonus: int | None = None  # instead of gin_bonus: every card melded, no discard


@dataclass(frozen=True)
class StockRules:
    when_empty: StockOut = "reshuffle"
    max_rebuilds: int | None = 2  # None: no limit
    rebuild: StockRebuild = "shuffle"

    @property
    def stocks(self) -> int | None:
        """How many stocks a deal may draw from: the first and every rebuild allowed
        (None: no limit)."""
        if self.when_empty != "reshuffle":
            return 1
        return None if self.max_rebuilds is None else self.max_rebuilds + 1


@dataclass(frozen=True)
class ScoringRules:
    values: dict[int, int] = field(default_factory=dict)  # rank (0 = joker) -> points
    wild_unmelded: WildUnmelded = "face"
    wild_value: int = 0  # with wild_unmelded: fixed
    score_best_arrangement: bool = False  # arrange hands to minimum penalty at round end
    out_player_collects: bool = False  # the others' points go to the player who went out
    melded: MeldedScore = "none"  # "plus": cards put on the table score for who played them
    low_ace_value: int | None = None  # with melded plus: an ace melded low in a run (A-2-3)
    undercut_bonus: int | None = None  # knocking: a defender holding no more than the knocker

    def __hash__(self) -> int:  # dict field: hash by content
        return hash(tuple(sorted(self.values.items())))


@dataclass(frozen=True)
class EndRules:
    """The game ends after the last round, or, with a point limit, once a total reaches it
    (the round schedule then repeats, up to `max_rounds`)."""

    point_limit: int | None = None
    max_rounds: int = 100
    winner: Winner = "lowest"
    tie_break: TieBreak = "share"


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
    dealer_ace: DealerAce = "ranks"  # how an ace counts when cutting for the deal
    # "per_player": the rounds are phases, each player on their own (Phase 10)
    progression: Progression = "schedule"
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

    @property
    def per_player(self) -> bool:
        """Each player moves through the rounds as phases of their own
        (`progression: per_player`)."""
        return self.progression == "per_player"

    def melds_for(self, number: int) -> MeldRules:
        """The meld rules of round `number`: its own `melds` if it sets any, else the
        ruleset's."""
        return self.round(number).melds or self.melds

    def exact_size(self, number: int) -> bool:
        """Whether round `number`'s contract melds go down at exactly their size: its own
        `contract.exact_size` if it sets one, else the game's."""
        own = self.round(number).contract.exact_size
        return self.contract.exact_size if own is None else own

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
        return tuple(p for p, ok in ((1, self.ace_low), (HIGH_ACE, self.ace_high)) if ok)


STANDARD_VALUES: dict[int, int] = {1: 1, **{n: n for n in range(2, 11)}, 11: 10, 12: 10, 13: 10}
