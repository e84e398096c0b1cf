"""Warnings for a ruleset that is legal but almost certainly not what its author meant.

A default that is right for one game can quietly ruin another: a contract game written
without `lay_off.when` is playable, but nobody can ever lay off.  These checks look at the
merged ruleset (after `extends`) and name the key to write; `rummy rules check` prints them
as `FILE:LINE:COL: warning: ...` and still exits 0.
"""

from __future__ import annotations

from typing import Any

from .checks import MAX_RUN, meld_count, meld_sizes
from .checks_scoring import scoring_warnings
from .errors import LocatedError
from .marked_yaml import KeyPath, LocatedDoc, get_key

SUIT_COUNT = 4
DEFAULT_MAX_ROUNDS = 100



def footgun_warnings(doc: LocatedDoc) -> list[LocatedError]:
    """Every footgun in the merged, already valid ruleset `doc`."""
    return _Footguns(doc).run()


class _Footguns:
    def __init__(self, doc: LocatedDoc) -> None:
        self.doc = doc
        self.data: dict[str, Any] = doc.data if isinstance(doc.data, dict) else {}
        self.found: list[LocatedError] = []
        rounds = self.data.get("rounds")
        self.rounds: list[dict[str, Any]] = [
            r for r in rounds if isinstance(r, dict)] if isinstance(rounds, list) else []
        defaults = self.data.get("round_defaults")
        self.defaults: dict[str, Any] = defaults if isinstance(defaults, dict) else {}

    def warn(self, message: str, *paths: KeyPath) -> None:
        loc = self.doc.key_loc(*paths) if paths else self.doc.start()
        self.found.append(loc.error(f"warning: {message}"))

    def has(self, *keys: str) -> bool:
        return get_key(self.data, *keys, default=None) is not None

    def round_key(self, entry: dict[str, Any], key: str) -> Any:
        return entry.get(key, self.defaults.get(key))

    def contracts(self) -> bool:
        for entry in self.rounds:
            contract = self.round_key(entry, "contract")
            if isinstance(contract, dict) and any(contract.get(k) for k in ("sets", "runs")):
                return True
        return False

    def run(self) -> list[LocatedError]:
        melding = get_key(self.data, "going_out", "melding_during_play", default=True)
        contracts = self.contracts()
        if contracts and melding and not self.has("lay_off", "when"):
            self.warn("the rounds have contracts but `lay_off.when` is not written: it "
                      "defaults to never, so nobody can ever lay off (write `lay_off.when: "
                      "never` if that is meant)", ("lay_off",))
        if not melding and not self.has("scoring", "score_best_arrangement"):
            self.warn("hands are melded only when going out, but "
                      "`scoring.score_best_arrangement` is not written: it defaults to false, "
                      "so the other players' melds still score as deadwood", ("scoring",))
        jokers = any(isinstance(d, dict) and d.get("jokers") for d in self.data.get("decks", []))
        if jokers and not self.has("scoring", "values", "JK"):
            self.warn("the decks have jokers but `scoring.values.JK` is not written: a joker "
                      "left in hand scores 0", ("scoring", "values"), ("scoring",))
        if get_key(self.data, "scoring", "wild_unmelded") == "fixed" and not self.has(
                "scoring", "wild_value"):
            self.warn("`scoring.wild_unmelded: fixed` without `scoring.wild_value`: wilds "
                      "left in hand score 0", ("scoring", "wild_unmelded"))
        if self.has("end", "point_limit") and not self.has("end", "max_rounds"):
            self.warn("with `end.point_limit` the schedule of rounds repeats until a total "
                      f"reaches it, up to {DEFAULT_MAX_ROUNDS} deals: write `end.max_rounds` "
                      "to say how many", ("end", "point_limit"))
        most = get_key(self.data, "melds", "set", "max")
        if isinstance(most, int) and most > SUIT_COUNT and get_key(
                self.data, "melds", "set", "distinct_suits", default=False):
            self.warn(f"`melds.set.max: {most}` with `melds.set.distinct_suits`: a set "
                      f"of distinct suits holds at most {SUIT_COUNT} cards",
                      ("melds", "set", "max"))
        if get_key(self.data, "melds", "run", "one_colour", default=False) and get_key(
                self.data, "melds", "run", "same_suit", default=True):
            self.warn("`melds.run.one_colour` with runs of one suit does nothing: a run of "
                      "one suit is always of one colour (add `same_suit: false` for runs "
                      "mixing the suits of one colour)", ("melds", "run", "one_colour"))
        self.all_at_once_discards()
        self.never_out()
        self.unmeetable_set()
        self.exact_all_at_once()
        self.shadowed_defaults()
        scoring_warnings(self.data, self.warn)
        return self.found

    def never_out(self) -> None:
        """A contract round with no laying off: going out means laying the whole hand (but
        a discard) down in the contract, which its melds may be too small to hold."""
        if get_key(self.data, "lay_off", "when", default="never") != "never":
            return
        overall = get_key(self.data, "going_out", "discard", default="optional")
        set_max = get_key(self.data, "melds", "set", "max", default=None)
        run_max = get_key(self.data, "melds", "run", "max", default=None) or MAX_RUN
        for index, entry in enumerate(self.rounds):
            contract = self.round_key(entry, "contract")
            cards = self.round_key(entry, "cards")
            if not isinstance(contract, dict) or not isinstance(cards, int):
                continue
            sets, runs = (meld_count(contract.get(k)) for k in ("sets", "runs"))
            if not sets + runs or (sets and set_max is None):
                continue
            rule = self.round_key(entry, "going_out_discard") or overall
            need = cards + (1 if rule == "forbidden" else 0)  # after the draw, less a discard
            room = (sets * set_max if sets else 0) + runs * min(run_max, MAX_RUN)
            if room < need:
                self.warn(f"round {index + 1} can never be gone out on: with no laying off "
                          f"the contract must hold {need} cards, and its melds hold at most "
                          f"{room} (set `lay_off.when`)", ("rounds", index))

    def unmeetable_set(self) -> None:
        """A set of distinct suits holds at most four cards: a larger minimum can never be
        met (nobody can ever make a set)."""
        least = get_key(self.data, "melds", "set", "min")
        most = get_key(self.data, "melds", "set", "max")
        if (isinstance(least, int) and least > SUIT_COUNT
                and get_key(self.data, "melds", "set", "distinct_suits", default=False)
                and not (isinstance(most, int) and most < least)):
            self.warn(f"`melds.set.min: {least}` with `melds.set.distinct_suits`: a set of "
                      f"distinct suits holds at most {SUIT_COUNT} cards, so no set can ever "
                      "be made", ("melds", "set", "min"))

    def exact_all_at_once(self) -> None:
        """With `contract.exact_size`, an `all_at_once` round whose hand is longer than its
        contract's melds can never be gone out on (the whole hand must go down in them)."""
        game_exact = get_key(self.data, "contract", "exact_size", default=False)
        overall = get_key(self.data, "going_out", "discard", default="optional")
        set_min = get_key(self.data, "melds", "set", "min", default=3)
        run_min = get_key(self.data, "melds", "run", "min", default=3)
        for index, entry in enumerate(self.rounds):
            contract = self.round_key(entry, "contract")
            cards = self.round_key(entry, "cards")
            if (not self.round_key(entry, "all_at_once") or not isinstance(contract, dict)
                    or not isinstance(cards, int)):
                continue
            own = contract.get("exact_size")  # (`rounds[].contract.exact_size`)
            if not (game_exact if own is None else own):
                continue
            room = sum(meld_sizes(contract.get("sets"), set_min)) + sum(
                meld_sizes(contract.get("runs"), run_min))
            rule = self.round_key(entry, "going_out_discard") or overall
            need = cards + (1 if rule == "forbidden" else 0)  # after the draw, less a discard
            if room and need > room:
                self.warn(f"round {index + 1} can never be gone out on: it is `all_at_once`, "
                          f"so its {need} cards must all go down in the contract, and with "
                          f"`contract.exact_size` its melds hold exactly {room} (write "
                          "`exact_size: false` in that round's contract)",
                          ("rounds", index, "contract", "exact_size") if own is not None
                          else ("contract", "exact_size"))

    def shadowed_defaults(self) -> None:
        """A `round_defaults` key that every round writes for itself never applies (and so
        is never checked either): almost surely meant for the rounds."""
        if not self.rounds:
            return
        for key in self.defaults:
            if all(key in entry for entry in self.rounds):
                self.warn(f"`round_defaults.{key}` never applies: every round sets its own "
                          f"`{key}` (write it in the rounds instead)", ("round_defaults", key))

    def all_at_once_discards(self) -> None:
        overall = get_key(self.data, "going_out", "discard", default="optional")
        for index, entry in enumerate(self.rounds):
            if not self.round_key(entry, "all_at_once"):
                continue
            rule = self.round_key(entry, "going_out_discard") or overall
            if rule == "optional":
                self.warn(f"round {index + 1} is `all_at_once` with an optional discard: the "
                          "whole hand is laid down and nothing is discarded (write "
                          "`going_out_discard: forbidden`, or `required` to keep one card to "
                          "discard)", ("rounds", index))
