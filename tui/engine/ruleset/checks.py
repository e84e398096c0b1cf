"""Rule consistency checks the JSON Schema cannot express, each located in the file.

The schema knows each key alone; these checks look at keys together: a deal must fit the
deck for every allowed player count, contracts need melding, bounds must be in order, and
so on.  A ruleset that passes can be played to the end of every round.
"""

from __future__ import annotations

from typing import Any

from ..cards import HIGH_ACE
from ..rules import Contract
from .build import expanded_rounds, rank_of
from .checks_melds import meld_errors
from .checks_progression import progression_errors
from .checks_scoring import scoring_errors
from .errors import LocatedError
from .marked_yaml import KeyPath, LocatedDoc, get_key

MAX_RUN = 13  # an ace may not be both ends of a run, so 13 ranks at most
MAX_PLAYERS_CHECKED = 64  # player counts checked one by one (the schema allows fewer)
SUIT_COUNT = 4
RANK_COUNT = 13


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def meld_count(value: Any) -> int:
    """A contract's `sets` / `runs`: a count, or a list of sizes (one per meld)."""
    return len(value) if isinstance(value, list) else value if isinstance(value, int) else 0


def _size(entry: Any) -> Any:
    """A contract meld's size as written: a number, or a set's `{size: N, rank: R}`."""
    return entry.get("size") if isinstance(entry, dict) else entry


def meld_sizes(value: Any, default: int) -> list[int]:
    """The sizes of a contract's sets or runs: each as written, or `default` for each counted."""
    if isinstance(value, list):
        return [size for size in map(_size, value) if isinstance(size, int)]
    return [default] * meld_count(value)


class _Checker:
    def __init__(self, doc: LocatedDoc, data: dict[str, Any], pruned: set[KeyPath]) -> None:
        self.doc = doc
        self.data = data
        self.pruned = pruned  # values the schema rejected: unknown here, so not "missing"
        self.errors: list[LocatedError] = []
        rounds = data.get("rounds") if isinstance(data.get("rounds"), list) else []
        self.rounds: list[dict[str, Any] | None] = [
            entry if isinstance(entry, dict) else None
            for entry in expanded_rounds({**data, "rounds": rounds})
        ]
        listed = data.get("decks")
        decks: list[Any] = listed if isinstance(listed, list) else []
        self.decks_specs: dict[int, dict[str, Any]] = {
            index: spec
            for index, spec in enumerate(decks)
            if isinstance(spec, dict) and "players" in spec and "decks" in spec
        }

    def error(self, message: str, *paths: KeyPath, key: bool = False) -> None:
        loc = self.doc.key_loc(*paths) if key else self.doc.value_loc(*paths)
        self.errors.append(loc.error(message))

    def round_path(self, index: int, *keys: str) -> tuple[KeyPath, ...]:
        """Where a round's key is written: in the round, else in `round_defaults`."""
        entry = self.data["rounds"][index]
        if keys and isinstance(entry, dict) and keys[0] in entry:
            return (("rounds", index, *keys),)
        return (("round_defaults", *keys), ("rounds", index))

    # --- the checks ------------------------------------------------------------------

    def bounds(self) -> None:
        """Every min/max pair in order, and runs no longer than the ranks allow."""
        for section in (("players",), ("melds", "set"), ("melds", "run"), ("melds", "colour")):
            low = get_key(self.data, *section, "min")
            high = get_key(self.data, *section, "max")
            if low is not None and high is not None and low > high:
                name = ".".join(section)
                self.error(
                    f"`{name}.min` ({low}) is greater than `{name}.max` ({high})",
                    (*section, "min"),
                )
        run_min = get_key(self.data, "melds", "run", "min")
        if run_min is not None and run_min > MAX_RUN:
            self.error(
                f"`melds.run.min` is {run_min}, but a run has at most {MAX_RUN} cards "
                "(an ace is never both ends of one run)",
                ("melds", "run", "min"),
            )

    def rounds_content(self) -> None:
        melding = get_key(self.data, "going_out", "melding_during_play", default=True)
        set_min = get_key(self.data, "melds", "set", "min", default=3)
        run_min = get_key(self.data, "melds", "run", "min", default=3)
        same_suit = get_key(self.data, "contract", "runs_same_suit", default="forbidden")
        bad_defaults: set[str] = set()  # a bad `round_defaults.wild` is reported once
        for index, entry in enumerate(self.rounds):
            number = index + 1
            if entry is None:
                continue
            raw = self.data["rounds"][index]
            inherited = not (isinstance(raw, dict) and "wild" in raw)
            rejected = {("rounds", index), ("rounds", index, "cards"), ("round_defaults", "cards")}
            if "cards" not in entry and not rejected & self.pruned:
                self.error(
                    f"round {number} has no `cards` (write it in the round or in `round_defaults`)",
                    ("rounds", index),
                )
            for position, wild in enumerate(entry.get("wild", [])):
                if wild is not None and rank_of(wild) is None:
                    hint = (
                        "jokers are wild by `jokers_wild`"
                        if str(wild).strip().upper() in ("JK", "JOKER")
                        else "use 2-10, A, J, Q or K"
                    )
                    paths = self.round_path(index, "wild")
                    if inherited and str(wild) in bad_defaults:
                        continue
                    if inherited:
                        bad_defaults.add(str(wild))
                    where = "`round_defaults`" if inherited else f"round {number}"
                    self.error(
                        f"wild rank {wild!r} in {where} does not exist: {hint}",
                        *((*p, position) for p in paths if p[-1] == "wild"),
                        *paths,
                    )
            written_sets = get_key(entry, "contract", "sets", default=0)
            written_runs = get_key(entry, "contract", "runs", default=0)
            written_colours = get_key(entry, "contract", "colours", default=0)
            sets, runs = meld_count(written_sets), meld_count(written_runs)
            colours = meld_count(written_colours)
            if not sets + runs + colours:
                continue
            contract_at = self.round_path(index, "contract")
            if not melding:
                self.error(
                    f"round {number} has a contract "
                    f"({Contract(sets, runs, colours=colours).describe()}) but "
                    "`going_out.melding_during_play` is false, so nothing can be laid down",
                    *contract_at,
                )
                continue
            colour_min = get_key(entry, "melds", "colour", "min",
                                 default=get_key(self.data, "melds", "colour", "min", default=3))
            sizes = meld_sizes(written_sets, set_min) + meld_sizes(written_runs, run_min) \
                + meld_sizes(written_colours, colour_min)
            needed = sum(sizes)
            cards = entry.get("cards")
            if isinstance(cards, list):
                counts = [e.get("cards") for e in cards if isinstance(e, dict)]
                cards = max((c for c in counts if isinstance(c, int)), default=None)
            most, grows = self.hand_limit(cards) if isinstance(cards, int) else (None, "")
            if most is not None and needed > most:
                self.error(
                    f"round {number}'s contract needs at least {needed} cards "
                    f"({' + '.join(map(str, sizes))}) but a hand holds at most "
                    f"{most} (the {cards} dealt plus one drawn{grows})",
                    *contract_at,
                )
            if same_suit == "forbidden" and runs > SUIT_COUNT:
                self.error(
                    f"round {number}'s contract has {runs} runs but `contract.runs_same_suit`"
                    f" is forbidden and there are only {SUIT_COUNT} suits",
                    *contract_at,
                )

    def hand_limit(self, cards: int) -> tuple[int | None, str]:
        """The most cards a hand of `cards` dealt can hold on a turn: plus one drawn, plus
        what buys bring (None: no limit), and those words for a message."""
        buying = get_key(self.data, "buying", default={})
        if not isinstance(buying, dict) or not buying.get("enabled", False):
            return cards + 1, ""
        limit = buying.get("limit_per_deal", 3)
        penalty = buying.get("penalty_cards", 1)
        if limit is None:
            return None, ""
        if not isinstance(limit, int) or not isinstance(penalty, int):
            return cards + 1, ""
        extra = limit * (1 + penalty)
        return cards + 1 + extra, f", plus {extra} from {_plural(limit, 'buy')}"

    def run_bounds(self) -> None:
        """`melds.run.lowest` / `highest` name ranks, in order, with room for a run."""
        run = get_key(self.data, "melds", "run", default={})
        if not isinstance(run, dict):
            return
        bounds = {}
        for end in ("lowest", "highest"):
            value = run.get(end)
            if value is None:
                continue
            rank = rank_of(value)
            if rank is None:
                self.error(
                    f"`melds.run.{end}` is {value!r}, which is no rank: use 2-10, A, J, Q or K",
                    ("melds", "run", end),
                )
                continue
            bounds[end] = HIGH_ACE if rank == 1 and end == "highest" else rank
            if get_key(self.data, "ranks", "wrap", default=False):
                self.error(
                    f"`melds.run.{end}` cannot be used with `ranks.wrap`: runs that turn the "
                    "corner have no lowest or highest rank",
                    ("melds", "run", end),
                )
        if len(bounds) == 2:
            room = bounds["highest"] - bounds["lowest"] + 1
            least = run.get("min", 3)
            if isinstance(least, int) and room < least:
                self.error(
                    f"runs may only use {max(room, 0)} ranks (`melds.run.lowest` to `highest`) "
                    f"but need at least {least} cards (`melds.run.min`)",
                    ("melds", "run", "lowest"),
                )

    def contract_sizes(self) -> None:
        """A size given per contract meld fits the meld rules' largest meld."""
        set_max = get_key(self.data, "melds", "set", "max")
        if get_key(self.data, "melds", "set", "distinct_suits", default=False):
            set_max = min(set_max or SUIT_COUNT, SUIT_COUNT)
        run_max = get_key(self.data, "melds", "run", "max") or MAX_RUN
        for index, entry in enumerate(self.rounds):
            if entry is None:
                continue
            colour_max = get_key(entry, "melds", "colour", "max",
                                 default=get_key(self.data, "melds", "colour", "max"))
            for key, most in (("sets", set_max), ("runs", run_max), ("colours", colour_max)):
                sizes = get_key(entry, "contract", key)
                if not isinstance(sizes, list) or most is None:
                    continue
                for size in map(_size, sizes):
                    if isinstance(size, int) and size > most:
                        what = "group of one colour" if key == "colours" else key[:-1]
                        self.error(
                            f"round {index + 1}'s contract asks for a {what} of {size} "
                            f"cards, but a {what} has at most {most}"
                            + (" (`melds.colour.max`)" if key == "colours" else ""),
                            *self.round_path(index, "contract", key),
                            *self.round_path(index, "contract"),
                        )

    def contract_ranks(self) -> None:
        """A contract set's `rank` names a rank, and (with `contract.sets_same_rank` false)
        no two sets of one contract must be of the same rank."""
        same_rank = get_key(self.data, "contract", "sets_same_rank", default=False)
        for index, entry in enumerate(self.rounds):
            sets = get_key(entry or {}, "contract", "sets")
            if not isinstance(sets, list):
                continue
            seen: set[int] = set()
            for position, item in enumerate(sets):
                if not isinstance(item, dict) or "rank" not in item:
                    continue
                where = [(*p, "sets", position, "rank")
                         for p in self.round_path(index, "contract") if p[-1] == "contract"]
                where += list(self.round_path(index, "contract"))
                rank = rank_of(item["rank"])
                if rank is None:
                    self.error(
                        f"round {index + 1}'s contract asks for a set of rank "
                        f"{item['rank']!r}, which is no rank: use 2-10, A, J, Q or K",
                        *where,
                    )
                elif rank in seen and not same_rank:
                    self.error(
                        f"round {index + 1}'s contract asks for two sets of rank "
                        f"{item['rank']!r}, but `contract.sets_same_rank` is false",
                        *where,
                    )
                else:
                    seen.add(rank)

    def deal_by_players(self) -> None:
        """A round dealing by player count fits the deck at every count it deals to."""
        low = get_key(self.data, "players", "min")
        high = get_key(self.data, "players", "max")
        specs = sorted(self.decks_specs.values(), key=lambda spec: spec["players"])
        if not isinstance(low, int) or not isinstance(high, int) or not specs:
            return
        for index, entry in enumerate(self.rounds):
            cards = entry.get("cards") if entry is not None else None
            if not isinstance(cards, list):
                continue
            table = sorted((e["players"], e["cards"]) for e in cards
                           if isinstance(e, dict) and {"players", "cards"} <= set(e))
            if not table:
                continue
            for count in range(low, min(high, MAX_PLAYERS_CHECKED) + 1):
                dealt = next((n for p, n in reversed(table) if p <= count), table[0][1])
                spec = next((s for s in reversed(specs) if s["players"] <= count), specs[0])
                total = spec["decks"] * 52 + spec.get("jokers", 0)
                if count * dealt + 2 > total:
                    self.error(
                        f"round {index + 1} deals {dealt} cards to {count} players: with one "
                        f"turned up and one for the stock that needs {count * dealt + 2} "
                        f"cards, but there are only {total}",
                        *self.round_path(index, "cards"),
                    )
                    break

    def going_out_limits(self) -> None:
        limit = get_key(self.data, "going_out", "deadwood_limit", default=0)
        melding = get_key(self.data, "going_out", "melding_during_play", default=True)
        if isinstance(limit, int) and limit > 0 and melding:
            self.error(
                "`going_out.deadwood_limit` needs `going_out.melding_during_play: false`: "
                "with melding during play a player goes out by playing every card",
                ("going_out", "deadwood_limit"),
            )

    def decks(self) -> None:
        """Decks cover every player count and hold the largest deal of each."""
        specs = self.decks_specs
        if not specs:
            return
        players_min = get_key(self.data, "players", "min")
        players_max = get_key(self.data, "players", "max")
        seen: dict[int, int] = {}
        for index, spec in specs.items():
            if spec["players"] in seen:
                self.error(
                    f"two `decks` entries start at {spec['players']} players "
                    f"(entries {seen[spec['players']] + 1} and {index + 1})",
                    ("decks", index, "players"),
                )
            seen.setdefault(spec["players"], index)
        order = sorted(specs, key=lambda i: specs[i]["players"])
        first = order[0]
        if players_min is not None and specs[first]["players"] > players_min:
            self.error(
                f"no `decks` entry covers {players_min} players (`players.min`): the first "
                f"entry starts at {specs[first]['players']} players",
                ("decks", first, "players"),
            )
        sized = [
            (i, e["cards"])
            for i, e in enumerate(self.rounds)
            if e is not None and isinstance(e.get("cards"), int)
        ]
        if players_min is None or players_max is None or not sized:
            return
        biggest_round, most = max(sized, key=lambda pair: (pair[1], -pair[0]))
        if most <= 0:
            return
        # Each entry is in force from its `players` up to the next entry's (the first one
        # also below its own start; of two entries with one start, the later one).  More
        # players need more cards, so the short counts of a range are the top of it.
        # Worked out per entry, not per count: `players.max` may be huge.
        lowest = max(players_min, 1)
        ranges: list[tuple[int, int, int]] = []  # (entry, first count, last count)
        head = specs[first]["players"]
        if lowest < head:
            ranges.append((first, lowest, min(head - 1, players_max)))
        for position, index in enumerate(order):
            start = specs[index]["players"]
            following = [specs[i]["players"] for i in order[position + 1 :]]
            if following and following[0] == start:
                continue
            stop = following[0] - 1 if following else players_max
            ranges.append((index, max(start, lowest), min(stop, players_max)))
        short: dict[int, list[int]] = {}
        for index, low, high in ranges:
            spec = specs[index]
            total = spec["decks"] * 52 + spec.get("jokers", 0)
            first_short = max(low, (total - 2) // most + 1)
            if first_short <= high:
                was = short.get(index, [first_short, high])
                short[index] = [min(was[0], first_short), max(was[-1], high)]
        short = {i: ([a] if a == b else [a, b]) for i, (a, b) in short.items()}
        for index, counts in short.items():
            spec = specs[index]
            jokers = spec.get("jokers", 0)
            total = spec["decks"] * 52 + jokers
            count = counts[-1]
            cards = _plural(spec["decks"], "deck") + (
                f" + {_plural(jokers, 'joker')}" if jokers else ""
            )
            who = f"{counts[0]} players" if len(counts) == 1 else f"{counts[0]}-{count} players"
            self.error(
                f"the deal does not fit the deck for {who}: {count} players × {most} cards "
                f"(round {biggest_round + 1}) + 1 turned up + 1 for the stock need "
                f"{count * most + 2} cards, but there are only {total} ({cards}); add a "
                "`decks` entry or lower `players.max`",
                ("decks", index),
            )

    def play_options(self) -> None:
        """Options that need melding, jokers or a discard pile to mean anything."""
        melding = get_key(self.data, "going_out", "melding_during_play", default=True)
        lay_off = get_key(self.data, "lay_off", "when", default="never")
        if not melding and lay_off != "never":
            self.error(
                f"`lay_off.when` is {lay_off}, but `going_out.melding_during_play` is false, "
                "so there are no melds on the table to lay off onto",
                ("lay_off", "when"),
            )
        if get_key(self.data, "joker_swap", "enabled", default=False):
            if not melding:
                self.error(
                    "`joker_swap.enabled` is true, but `going_out.melding_during_play` is "
                    "false, so no joker is ever on the table to swap",
                    ("joker_swap", "enabled"),
                )
            elif self.decks_specs and not any(
                spec.get("jokers", 0) for spec in self.decks_specs.values()
            ):
                self.error(
                    "`joker_swap.enabled` is true, but no `decks` entry has jokers",
                    ("joker_swap", "enabled"),
                )
            elif not get_key(self.data, "jokers_wild", default=True):
                self.error(
                    "`joker_swap.enabled` is true, but `jokers_wild` is false",
                    ("joker_swap", "enabled"),
                )
        if get_key(self.data, "buying", "enabled", default=False):
            if get_key(self.data, "draw", "discard", default="top") == "none":
                self.error(
                    "`buying.enabled` is true, but `draw.discard` is none: nobody may take "
                    "the discard, so there is nothing to buy",
                    ("buying", "enabled"),
                )


def semantic_errors(
    doc: LocatedDoc, data: dict[str, Any], pruned: set[KeyPath] | None = None
) -> list[LocatedError]:
    """Every rule inconsistency in `data`, located through `doc`.

    `data` is schema-valid except that values listed in `pruned` were removed for being
    invalid (see `ruleset_schema.prune_invalid`); checks needing them are skipped.
    """
    checker = _Checker(doc, data, pruned or set())
    checker.bounds()
    checker.rounds_content()
    checker.decks()
    checker.play_options()
    checker.run_bounds()
    checker.contract_sizes()
    checker.contract_ranks()
    checker.deal_by_players()
    checker.going_out_limits()
    scoring_errors(data, checker.error)
    meld_errors(data, checker.error, checker.round_path, checker.hand_limit)
    progression_errors(data, checker.error, checker.round_path)
    return checker.errors
