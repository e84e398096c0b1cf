"""`rummy solve`: the best arrangement of a hand, whether it can go out, and its contract.

    rummy solve --rules three_thirteen --round 11 5H 6H 7H KS 9C 9D 9S 2C
    rummy solve --rules contract_rummy --round 5 --json 7C 7D 7S ...
    rummy solve --rules three_thirteen --round 11 --jsonl < hands.txt

The answer is the engine's own exact solver, so this is also how to check a scoring
dispute or a house ruleset.  `--jsonl` reads one hand per line and writes one JSON object
per line; a bad line gets an object with "error" and the rest go on.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from tui.engine.cards import RANK_NAMES, CardError, parse_card
from tui.engine.rules import Ruleset


class SolveError(Exception):
    """A mistake in what the user asked for: reported as one clean line, exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", required=True, metavar="RULES",
                        help="ruleset key (e.g. three_thirteen) or path to a YAML file")
    parser.add_argument("--round", required=True, type=int, metavar="N", dest="round_no",
                        help="round (deal) number, counted from 1")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--jsonl", action="store_true",
                     help="read hands from standard input, one per line (cards separated by "
                          "spaces); write one JSON object per line")
    parser.add_argument("cards", nargs="*", metavar="CARD",
                        help="cards such as 10H QS AC JK (not with --jsonl)")


def run(args: argparse.Namespace) -> int:
    try:
        rules = _load(args.rules)
        _check_round(rules, args.round_no)
        if args.jsonl:
            if args.cards:
                raise SolveError("give cards either as arguments or with --jsonl, not both")
            return _run_jsonl(rules, args.round_no)
        hand = _parse_hand(args.cards, rules)
        result = solve_hand(hand, rules, args.round_no)
    except SolveError as exc:
        print(f"rummy solve: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(_public(result)))
    else:
        print(_text(result, rules))
    return 0


def _load(name: str) -> Ruleset:
    from tui.engine.ruleset import RulesetError, load_ruleset

    try:
        return load_ruleset(name)
    except RulesetError as exc:
        text = str(exc)
        if "\n" in text:
            text = f"ruleset {name!r} does not load:\n{text}"
        raise SolveError(text) from None
    except (OSError, ValueError, LookupError) as exc:
        raise SolveError(f"no ruleset {name!r}: {exc}") from None


def _check_round(rules: Ruleset, round_no: int) -> None:
    if not 1 <= round_no <= len(rules.rounds):
        raise SolveError(f"there is no round {round_no}: {rules.name} has rounds 1 to "
                         f"{len(rules.rounds)}")


def _parse_hand(tokens: list[str], rules: Ruleset) -> list[Any]:
    hand = []
    for uid, token in enumerate(tokens):
        try:
            hand.append(parse_card(token, uid=uid))
        except CardError as exc:
            raise SolveError(str(exc)) from None
    decks = max(spec.decks for spec in rules.decks)
    jokers = max(spec.jokers for spec in rules.decks)
    for face, n in Counter(card.face for card in hand).items():
        limit = jokers if face[0] == 0 else decks
        if n > limit:
            name = "JK" if face[0] == 0 else f"{RANK_NAMES[face[0]]}{face[1]}"
            held = f"{limit} joker{'s' if limit != 1 else ''}" if face[0] == 0 else \
                f"{limit} deck{'s' if limit != 1 else ''}"
            raise SolveError(f"{n} copies of {name}, but {rules.name} plays with at most "
                             f"{held}")
    return hand


def solve_hand(hand: list[Any], rules: Ruleset, round_no: int) -> dict[str, Any]:
    """The JSON answer for one hand (see the module notes for the fields)."""
    from tui.engine.solver import best_arrangement, find_contract, going_out

    rnd = rules.round(round_no)
    lay = None
    arrangement = best_arrangement(hand, rules, round_no)
    dealt = next((n for _, n in rnd.cards_by_players if n + 1 == len(hand)), rnd.cards)
    size_ok = _may_go_out_with(len(hand), rules, dealt)
    out = going_out(hand, rules, round_no, arrangement) if size_ok else None
    wild = [RANK_NAMES[r] for r in rnd.wild] + (["JK"] if _jokers_wild(rules) else [])
    result: dict[str, Any] = {
        "round": round_no,
        "hand_size": dealt,
        "wild": wild,
        "hand": [str(c) for c in hand],
        "penalty": arrangement.penalty,
        "melds": [[str(c) for c in meld.cards] for meld in arrangement.melds],
        "deadwood": [str(c) for c in arrangement.deadwood],
        "go_out": out is not None,
        "discard": str(out[1]) if out is not None and out[1] is not None else None,
        "contract": None,
    }
    if rnd.contract.required:
        lay = find_contract(hand, rules, round_no, whole_hand=rnd.all_at_once)
        result["contract"] = {
            "required": {"sets": rnd.contract.sets, "runs": rnd.contract.runs},
            "met": lay is not None,
            "melds": [] if lay is None else [[str(c) for c in m.cards] for m in lay.melds],
        }
    # shown in text output only: what each wild stands for, why a hand cannot go out
    result["_shown"] = [meld.describe() for meld in arrangement.melds]
    result["_size"] = "" if size_ok else (
        f"a hand of {len(hand)} cards cannot: this round goes out from {dealt + 1} "
        f"(the {dealt} dealt and the card drawn)")
    result["_contract_shown"] = [] if lay is None else [m.describe() for m in lay.melds]
    return result


def _may_go_out_with(size: int, rules: Ruleset, dealt: int) -> bool:
    """Whether a hand of `size` cards is one that goes out: where a whole hand is declared
    (no melding during play) only the dealt cards and the card drawn, `dealt + 1`; where
    players meld as they go a hand of any size may be the last cards."""
    return rules.going_out.melding_during_play or size == dealt + 1


def _jokers_wild(rules: Ruleset) -> bool:
    """Jokers are wild and some deck has them (a ruleset dealing none just says so)."""
    return rules.jokers_wild and any(spec.jokers for spec in rules.decks)


def _public(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if not k.startswith("_")}


def _text(result: dict[str, Any], rules: Ruleset) -> str:
    rnd = rules.round(result["round"])
    wild = rnd.label_wild() or "no wild ranks"
    if _jokers_wild(rules):
        wild += ", jokers wild"
    lines = [
        f"{rules.name}, round {result['round']} ({rnd.cards} cards; {wild})",
        f"hand:      {' '.join(result['hand']) or '(empty)'}",
    ]
    if result["_shown"]:
        lines.append("melds:")
        lines += [f"  {shown}" for shown in result["_shown"]]
    else:
        lines.append("melds:     none")
    lines.append(f"deadwood:  {' '.join(result['deadwood']) or 'none'}")
    lines.append(f"penalty:   {result['penalty']}")
    if result["go_out"]:
        how = f"yes, discarding {result['discard']}" if result["discard"] else \
            "yes, with no discard"
    else:
        how = f"no ({result['_size']})" if result["_size"] else "no"
    lines.append(f"go out:    {how}")
    contract = result["contract"]
    if contract is not None:
        want = rnd.contract.describe()
        if contract["met"]:
            lines.append(f"contract:  {want}: " + " | ".join(result["_contract_shown"]))
        else:
            lines.append(f"contract:  {want}: not in this hand")
    return "\n".join(lines)


def _run_jsonl(rules: Ruleset, round_no: int) -> int:
    write = sys.stdout.write
    for number, line in enumerate(sys.stdin, start=1):
        try:
            hand = _parse_hand(line.replace(",", " ").split(), rules)
            result = _public(solve_hand(hand, rules, round_no))
        except SolveError as exc:
            result = {"line": number, "error": str(exc)}
        write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0
