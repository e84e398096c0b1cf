"""The game service's wire protocol: what SSH session workers and the service say.

One JSON object per line over a local Unix socket, or TCP with TLS from a worker
machine (`tui.net.tls_link`; see docs/service-protocol.md): the same bytes either way.
Every object has a type `t`.

Workers → service (requests, each checked as untrusted input by `check_request`):
`hello`, `enter`, `exit`, `create`, `join`, `watch`, `start`, `leave`, `act`, `ready`,
`hint`, `say`, `bye` (the worker retires, with no session left), and the door's:
`door` (a connection opened: may it try to log in?), `settled` (it logged in or ended)
and `failed` (a login failed: the reply says how long to wait before answering it),
counted over every worker.  Every request but `hello`, `bye` and the door's names a
session `s` the worker opened with `enter`; those that are answered carry a request
number `q`.

Service → workers: `reply` (to a numbered request), `lobby` (the list of tables),
`place` (where one session sits, its rejoin code, the seat waiting for it), `rules` (a
table's ruleset, once per table), `view` (one seat's view, with only the log lines the
session has not had yet), `chat`, and `replaced` (the same player sat down from a newer
session: close this one), and `evict` (close the door's connection `conn`: the oldest
past a cap of logins in progress).

A line is refused (`WireError`) past `MAX_LINE` bytes, with a number longer than
`MAX_DIGITS` or not finite, or nested deeper than `MAX_DEPTH`: reading such a line is
what could otherwise take the process down.

A worker is only ever sent the views of its own sessions' seats (or a spectator's view,
which has no hand), so it cannot hold another player's cards.  The codecs here turn
engine values into plain JSON and back; `WireError` is raised for anything malformed.
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from tui.engine.actions import ACTION_TYPES, Action, MeldSpec
from tui.engine.cards import JOKER_RANK, JOKER_SUIT, SUITS, Card
from tui.engine.meld import MELD_KINDS, Meld
from tui.engine.rules import Ruleset
from tui.engine.view import Event, LogSoFar, PlayerInfo, RoundResult, SeatView
from tui.service.door_keeper import OUTCOMES

MAX_LINE = 1 << 20
"""Longest message accepted, in bytes (a ruleset file brought by a player fits)."""
MAX_DIGITS = 40
"""Longest number accepted, in characters (Python refuses to read past 4,300 digits,
and a number that long is never a card, a seat or a request)."""
MAX_DEPTH = 32
"""Deepest nesting of lists and objects accepted (a view or a ruleset is under 10)."""
MAX_TEXT = 400
MAX_RULES_TEXT = 256 * 1024
MAX_CARDS = 216
MAX_MELDS = 32

REQUESTS = ("hello", "enter", "exit", "create", "join", "watch", "start", "leave", "act",
            "ready", "hint", "say", "door", "settled", "failed", "bye")
SESSIONLESS = ("hello", "door", "settled", "failed", "bye")
"""Requests about the worker itself, not one of its sessions (no `s`)."""
UPDATES = ("reply", "lobby", "place", "rules", "view", "chat", "replaced", "evict")
KEEPALIVE_IDLE = 5
KEEPALIVE_INTERVAL = 3
KEEPALIVE_COUNT = 3
"""TCP keepalive of a link between machines: a peer that vanished without closing is
noticed after about 5 + 3 x 3 = 14 seconds of silence."""



class WireError(ValueError):
    """A message that does not follow the protocol; the text says what is wrong."""


# ---------------------------------------------------------------------- framing

def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one line of compact JSON."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def keep_alive(writer: asyncio.StreamWriter) -> None:
    """Probe an idle TCP link, so a machine that vanished is noticed (a Unix socket
    needs none: its peer's end is closed by the kernel)."""
    sock = writer.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for option, value in (("TCP_KEEPIDLE", KEEPALIVE_IDLE),
                          ("TCP_KEEPINTVL", KEEPALIVE_INTERVAL),
                          ("TCP_KEEPCNT", KEEPALIVE_COUNT)):
        if hasattr(socket, option):
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)


def peer_name(writer: asyncio.StreamWriter) -> str:
    """The common name of the certificate the other end of a TLS link showed ("" if
    none): a worker machine's name."""
    cert = writer.get_extra_info("peercert") or {}
    for rdn in cert.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                return str(value)[:64]
    return ""


def _number(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        if len(text) > MAX_DIGITS:
            raise WireError(f"a number of {len(text)} characters (at most {MAX_DIGITS})")
        return kind(text)
    return read


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise WireError(f"{text[:20]} is not a finite number")
    return number


def _not_a_number(text: str) -> Any:
    raise WireError(f"{text} is not a number here")


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in `value` (without recursing)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack.extend((inner, depth + 1) for inner in item)
    return deepest


def decode(line: bytes) -> dict[str, Any]:
    """One line back to a message with a known type; `WireError` if it is not one (too
    long, a number too long, nested too deeply, not JSON, not a message)."""
    if len(line) > MAX_LINE:
        raise WireError(f"message of {len(line)} bytes (at most {MAX_LINE})")
    try:
        message = json.loads(line, parse_int=_number(int), parse_float=_number(_finite),
                             parse_constant=_not_a_number)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WireError(f"not JSON: {exc}") from None
    except RecursionError:
        raise WireError(f"nested more than {MAX_DEPTH} deep") from None
    if _depth(message) > MAX_DEPTH:
        raise WireError(f"nested more than {MAX_DEPTH} deep")
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise WireError("not a message (an object with a type `t`)")
    if message["t"] not in REQUESTS + UPDATES:
        raise WireError(f"unknown message type {message['t'][:40]!r}")
    return message


# ---------------------------------------------------------------------- checks

def _int(value: Any, what: str, low: int = -(2**31), high: int = 2**31) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise WireError(f"{what} must be a whole number from {low} to {high}")
    return value


def _str(value: Any, what: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise WireError(f"{what} must be text of at most {limit} characters")
    return value


def _list(value: Any, what: str, limit: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > limit:
        raise WireError(f"{what} must be a list of at most {limit} items")
    return value


def _outcome(value: Any) -> str:
    if value not in OUTCOMES:
        raise WireError(f"outcome must be one of {', '.join(OUTCOMES)}")
    return str(value)


_REQUEST_FIELDS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "hello": {"worker": lambda v: _int(v, "worker", 0, 4096)},
    "bye": {},
    "enter": {"q": lambda v: _int(v, "q", 0), "name": lambda v: _str(v, "name", 64),
              "key": lambda v: _str(v, "key", 200)},
    "exit": {},
    "create": {"q": lambda v: _int(v, "q", 0), "rules_key": lambda v: _str(v, "rules_key", 80),
               "seats": lambda v: _int(v, "seats", 1, 16), "fill": lambda v: _str(v, "fill", 40),
               "rules_text": lambda v: None if v is None else _str(v, "rules_text",
                                                                   MAX_RULES_TEXT)},
    "join": {"q": lambda v: _int(v, "q", 0), "table": lambda v: _int(v, "table", 0),
             "code": lambda v: _str(v, "code", 20)},
    "watch": {"q": lambda v: _int(v, "q", 0), "table": lambda v: _int(v, "table", 0)},
    "start": {"q": lambda v: _int(v, "q", 0)},
    "leave": {"q": lambda v: _int(v, "q", 0)},
    "act": {"q": lambda v: _int(v, "q", 0), "action": lambda v: action_from_wire(v)},
    "ready": {},
    "hint": {"q": lambda v: _int(v, "q", 0)},
    "say": {"q": lambda v: _int(v, "q", 0), "text": lambda v: _str(v, "text", MAX_TEXT)},
    "door": {"q": lambda v: _int(v, "q", 0), "conn": lambda v: _int(v, "conn", 0),
             "address": lambda v: _str(v, "address", 64)},
    "settled": {"conn": lambda v: _int(v, "conn", 0), "outcome": _outcome},
    "failed": {"q": lambda v: _int(v, "q", 0), "conn": lambda v: _int(v, "conn", 0),
               "address": lambda v: _str(v, "address", 64),
               "user": lambda v: _str(v, "user", 64), "method": lambda v: _str(v, "method", 20)},
}


def check_request(message: Mapping[str, Any]) -> dict[str, Any]:
    """A request from a worker with every field checked (and `action` decoded);
    `WireError` naming the first problem, for anything missing, extra or malformed."""
    kind = message.get("t")
    spec = _REQUEST_FIELDS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise WireError(f"not a request: {str(kind)[:40]!r}")
    wanted = set(spec) | ({"t"} if kind in SESSIONLESS else {"t", "s"})
    extra = set(message) - wanted
    if extra:
        raise WireError(f"{kind}: unexpected field(s) {', '.join(sorted(extra))[:80]}")
    out: dict[str, Any] = {"t": kind}
    if kind not in SESSIONLESS:
        out["s"] = _int(message.get("s"), "s (session)", 0)
    for name, check in spec.items():
        if name not in message:
            raise WireError(f"{kind}: missing {name}")
        out[name] = check(message[name])
    return out


# ---------------------------------------------------------------------- cards

def card_to_wire(card: Card) -> list[Any]:
    return [card.rank, card.suit, card.uid]


def card_from_wire(value: Any) -> Card:
    if not isinstance(value, list) or len(value) != 3:
        raise WireError("a card is [rank, suit, uid]")
    rank = _int(value[0], "card rank", 0, 13)
    suit = _str(value[1], "card suit", 1)
    uid = _int(value[2], "card uid", 0, 10_000)
    if (rank == JOKER_RANK) != (suit == JOKER_SUIT) or (suit not in SUITS and
                                                         suit != JOKER_SUIT):
        raise WireError(f"no such card: rank {rank}, suit {suit!r}")
    return Card(rank, suit, uid)


def cards_to_wire(cards: Sequence[Card]) -> list[list[Any]]:
    return [[c.rank, c.suit, c.uid] for c in cards]


def cards_from_wire(value: Any, what: str = "cards") -> tuple[Card, ...]:
    return tuple(card_from_wire(c) for c in _list(value, what, MAX_CARDS))


def _face(value: Any) -> tuple[int, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise WireError("a face is [rank, suit]")
    return _int(value[0], "face rank", 0, 15), _str(value[1], "face suit", 1)


# ---------------------------------------------------------------------- actions

def action_to_wire(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": action.kind}
    for f in fields(action):
        value = getattr(action, f.name)
        if isinstance(value, Card):
            value = card_to_wire(value)
        elif f.name == "cards":
            value = cards_to_wire(value)
        elif f.name == "melds":
            value = [{"cards": cards_to_wire(m.cards),
                      "declare": [[uid, list(face)] for uid, face in m.declare],
                      "kind": m.kind}
                     for m in value]
        out[f.name] = value
    return out


def _meld_spec(value: Any) -> MeldSpec:
    if not isinstance(value, dict) or set(value) - {"cards", "declare", "kind"}:
        raise WireError("a meld is {cards, declare, kind}")
    kind = value.get("kind", "")
    if kind not in ("", "set", "run"):
        raise WireError("a meld is a set or a run")
    declare = tuple((_int(d[0], "declared card", 0, 10_000), _face(d[1]))
                    if isinstance(d, list) and len(d) == 2 else _bad("a declaration")
                    for d in _list(value.get("declare", []), "declare", MAX_CARDS))
    return MeldSpec(cards_from_wire(value.get("cards"), "meld cards"), declare, kind)


def _bad(what: str) -> Any:
    raise WireError(f"malformed {what}")


_ACTION_FIELDS: dict[str, Callable[[Any], Any]] = {
    "seat": lambda v: _int(v, "seat", -1, 16),
    "depth": lambda v: _int(v, "depth", 0, MAX_CARDS),
    "meld_id": lambda v: _int(v, "meld_id", -1, 10_000),
    "end": lambda v: v if v in ("", "low", "high") else _bad("end (low/high)"),
    "card": lambda v: None if v is None else card_from_wire(v),
    "discard": lambda v: None if v is None else card_from_wire(v),
    "cards": cards_from_wire,
    "melds": lambda v: tuple(_meld_spec(m) for m in _list(v, "melds", MAX_MELDS)),
}


def action_from_wire(value: Any) -> Action:
    """An action from a worker, every field type-checked; `WireError` if malformed."""
    if not isinstance(value, dict):
        raise WireError("an action is an object")
    kind = value.get("kind")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise WireError(f"unknown action kind {str(value.get('kind'))[:40]!r}")
    names = {f.name for f in fields(cls)}
    extra = set(value) - names - {"kind"}
    if extra:
        raise WireError(f"{cls.kind}: unexpected field(s) {', '.join(sorted(extra))[:80]}")
    if "seat" not in value:
        raise WireError(f"{cls.kind}: missing seat")
    return cls(**{name: _ACTION_FIELDS[name](value[name]) for name in names if name in value})


# ---------------------------------------------------------------------- views

def _meld_to_wire(meld: Meld) -> list[Any]:
    return [meld.kind, cards_to_wire(meld.cards), [list(f) for f in meld.stands_for],
            meld.owner, meld.id]


def _meld_from_wire(value: Any) -> Meld:
    kind, cards, faces, owner, meld_id = value
    if kind not in MELD_KINDS:
        raise WireError("a meld is a set, a run or a group of one colour")
    return Meld(kind, cards_from_wire(cards), tuple(_face(f) for f in faces),
                _int(owner, "meld owner", -1, 16), _int(meld_id, "meld id", -1, 10_000))


def event_to_wire(event: Event) -> list[Any]:
    return [event.seat, event.text, event.kind, event.deal, cards_to_wire(event.cards)]


def event_from_wire(value: Any) -> Event:
    seat, text, kind, number, cards = value
    return Event(_int(seat, "event seat", -1, 16), _str(text, "event text", 1000),
                 _str(kind, "event kind", 40), _int(number, "event deal", 0, 1000),
                 cards_from_wire(cards))


def view_to_wire(view: SeatView, log_from: int) -> dict[str, Any]:
    """`view` as JSON, with only the log lines from `log_from` on (the worker keeps the
    earlier ones: the log only grows)."""
    return {
        "seat": view.seat, "sr": view.schedule_round,
        "n": view.deal, "phase": view.phase, "turn": view.turn,
        "dealer": view.dealer, "players": [list(p) for p in view.players],
        "hand": cards_to_wire(view.hand), "stock": view.stock_count,
        "discard": cards_to_wire(view.discard), "discards": view.discard_count,
        "table": [_meld_to_wire(m) for m in view.table],
        "scores": [list(s) for s in view.scores],
        "results": [[r.deal, list(r.points), r.went_out,
                     [[cards_to_wire(m) for m in melds] for melds in r.melds],
                     [cards_to_wire(d) for d in r.deadwood], list(r.phases), list(r.made)]
                    for r in view.results],
        "log_from": log_from, "log": [event_to_wire(e) for e in view.log[log_from:]],
        "legal": [action_to_wire(a) for a in view.legal],
        "final": view.final_turns, "taken": cards_to_wire(view.taken_from_discard),
        "offer": None if view.buy_offer is None else card_to_wire(view.buy_offer),
        "winners": list(view.winners),
    }


def _phases_from_wire(value: Any) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """A deal's phases played and made (`progression: per_player`), if the other end
    sent them (an older one does not)."""
    if not value:
        return (), ()
    phases, made = value
    return (tuple(_int(p, "phase", 0, 1000) for p in phases),
            tuple(bool(m) for m in made))


def view_from_wire(data: Mapping[str, Any], rules: Ruleset, log: list[Event]) -> SeatView:
    """The view a `view_to_wire` dictionary describes; its new log lines are appended to
    `log` (the lines of this table so far), which must hold exactly `log_from` lines."""
    try:
        log_from = _int(data["log_from"], "log_from", 0)
        if log_from != len(log):
            raise WireError(f"log lines from {log_from}, but {len(log)} are known")
        log.extend(event_from_wire(e) for e in data["log"])
        offer = data["offer"]
        return SeatView.of(
            seat=_int(data["seat"], "seat", -1, 16), rules=rules,
            deal=_int(data["n"], "deal", 1, 1000),
            schedule_round=(row := _int(data["sr"], "schedule round", 1, len(rules.rounds))),
            round=rules.rounds[row - 1],
            phase=data["phase"], turn=_int(data["turn"], "turn", -1, 16),
            dealer=_int(data["dealer"], "dealer", -1, 16),
            players=tuple(PlayerInfo(*p) for p in data["players"]),
            hand=cards_from_wire(data["hand"]), stock_count=_int(data["stock"], "stock", 0),
            discard=cards_from_wire(data["discard"]),
            discard_count=_int(data["discards"], "discards", 0),
            table=tuple(_meld_from_wire(m) for m in data["table"]),
            scores=tuple(tuple(s) for s in data["scores"]),
            results=tuple(RoundResult(r[0], tuple(r[1]), r[2],
                                      tuple(tuple(cards_from_wire(m) for m in melds)
                                            for melds in r[3]),
                                      tuple(cards_from_wire(d) for d in r[4]),
                                      *_phases_from_wire(r[5:]))
                          for r in data["results"]),
            log=LogSoFar(log),
            legal=tuple(action_from_wire(a) for a in data["legal"]),
            final_turns=bool(data["final"]), taken_from_discard=cards_from_wire(data["taken"]),
            buy_offer=None if offer is None else card_from_wire(offer),
            winners=tuple(data["winners"]),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, WireError):
            raise
        raise WireError(f"malformed view: {exc!r}"[:200]) from None


# ---------------------------------------------------------------------- rulesets

def rules_to_wire(rules: Ruleset) -> dict[str, Any]:
    """A table's ruleset, self-contained (no `extends` to resolve at the other end)."""
    from tui.engine.ruleset.dump import standalone_yaml

    return {"key": rules.key, "text": standalone_yaml(rules), "source": rules.source}


def rules_from_wire(data: Mapping[str, Any]) -> Ruleset:
    """The ruleset `rules_to_wire` sent (checked like any ruleset file: slow for a big
    one, so call it off any loop that renders)."""
    from dataclasses import replace

    from tui.engine.ruleset.errors import RulesetError
    from tui.engine.ruleset.loader import load_ruleset_text

    key = _str(data.get("key"), "rules key", 80)
    try:
        rules = load_ruleset_text(_str(data.get("text"), "rules text", MAX_RULES_TEXT),
                                  file=f"<table rules {key}>", key=key)
    except RulesetError as exc:
        raise WireError(f"the table's rules do not load: {exc.errors[0]}") from None
    return replace(rules, source=_str(data.get("source", ""), "rules source", MAX_RULES_TEXT))


# ---------------------------------------------------------------------- lobby and chat

def summary_to_wire(summary: Any) -> list[Any]:
    """One line of the lobby list (a `tui.service.lobby.TableSummary`)."""
    return [summary.id, summary.rules_key, summary.title, [list(s) for s in summary.seats],
            summary.status, summary.spectators, summary.host, summary.fill_level]


def chat_to_wire(message: Any) -> list[Any]:
    """One chat line (a `tui.service.chat.ChatMessage`)."""
    return [message.number, message.sender, message.text]
