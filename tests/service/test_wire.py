"""The game service's wire protocol: every message round-trips, malformed ones are refused
with a reason (`WireError`), never half-read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.bots import make_bot
from tui.engine.actions import (
    Buy,
    Discard,
    DrawStock,
    GoOut,
    LayDown,
    LayOff,
    MeldSpec,
    PassBuy,
    SwapJoker,
    TakeDiscard,
)
from tui.engine.cards import Card, joker
from tui.engine.game import Game
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.view import SeatView
from tui.service.chat import ChatMessage
from tui.service.lobby import Lobby, LobbyConfig
from tui.service.wire import (
    MAX_LINE,
    WireError,
    action_from_wire,
    action_to_wire,
    chat_to_wire,
    check_request,
    decode,
    encode,
    rules_from_wire,
    rules_to_wire,
    summary_to_wire,
    view_from_wire,
    view_to_wire,
)

PHASE10 = Path(__file__).resolve().parents[2] / "rulesets" / "cookbook" / "phase10.yaml"

ACTIONS = [
    DrawStock(0), TakeDiscard(1, 2), Buy(2), PassBuy(0),
    Discard(1, Card(12, "S", 40)),
    LayDown(0, (MeldSpec((Card(7, "H", 1), Card(7, "S", 2), joker(53)),
                         ((53, (7, "D")),)),)),
    LayOff(2, 4, (Card(9, "C", 9),), "high"),
    SwapJoker(1, 3, Card(5, "D", 18)),
    GoOut(0, (MeldSpec((Card(1, "C", 0), Card(2, "C", 1), Card(3, "C", 2))),),
          Card(13, "H", 51)),
]


def _uids(action_or_view: object) -> str:
    """Everything a message says, uids included (cards compare by face only)."""
    return json.dumps(action_to_wire(action_or_view) if not isinstance(
        action_or_view, SeatView) else view_to_wire(action_or_view, 0), sort_keys=True)


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.kind)
def test_every_action_round_trips_with_its_card_uids(action) -> None:
    back = action_from_wire(json.loads(json.dumps(action_to_wire(action))))
    assert back == action and _uids(back) == _uids(action)


def _requests() -> list[dict]:
    return [
        {"t": "hello", "worker": 1},
        {"t": "bye"},
        {"t": "enter", "s": 3, "q": 1, "name": "ann", "key": "SHA256:abc"},
        {"t": "exit", "s": 3},
        {"t": "create", "s": 3, "q": 2, "rules_key": "three_thirteen", "seats": 4,
         "fill": "medium", "rules_text": None},
        {"t": "create", "s": 3, "q": 2, "rules_key": "mine", "seats": 2, "fill": "easy",
         "rules_text": "name: Mine\n"},
        {"t": "join", "s": 3, "q": 3, "table": 7, "code": ""},
        {"t": "join", "s": 3, "q": 3, "table": 7, "code": "K7Q-4MX"},
        {"t": "watch", "s": 3, "q": 4, "table": 7},
        {"t": "start", "s": 3, "q": 5},
        {"t": "leave", "s": 3, "q": 6},
        *({"t": "act", "s": 3, "q": 7, "action": action_to_wire(a)} for a in ACTIONS),
        {"t": "ready", "s": 3},
        {"t": "hint", "s": 3, "q": 8},
        {"t": "say", "s": 3, "q": 9, "text": "hello [b]all[/b]"},
        {"t": "door", "q": 10, "conn": 4, "address": "10.0.0.9"},
        {"t": "settled", "conn": 4, "outcome": "abandoned"},
        {"t": "failed", "q": 11, "conn": 5, "address": "10.0.0.9", "user": "eve",
         "method": "password"},
    ]


def test_every_request_round_trips_through_the_checks() -> None:
    for request in _requests():
        checked = check_request(decode(encode(request)))
        if request["t"] == "act":
            assert checked["action"] == action_from_wire(request["action"])
            checked["action"] = action_to_wire(checked["action"])
        assert checked == request


@pytest.mark.parametrize(("request_", "why"), [
    ({"t": "act", "s": 1, "q": 1}, "missing action"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "draw_stock"}}, "missing seat"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "fly", "seat": 0}}, "unknown action"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "draw_stock", "seat": "0"}}, "seat"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "draw_stock", "seat": True}}, "seat"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "take_discard", "seat": 0,
                                              "depth": -3}}, "depth"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "discard", "seat": 0,
                                              "card": [14, "H", 3]}}, "card rank"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "discard", "seat": 0,
                                              "card": [5, "X", 3]}}, "no such card"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "discard", "seat": 0,
                                              "card": "5H"}}, "a card is"),
    ({"t": "act", "s": 1, "q": 1, "action": {"kind": "draw_stock", "seat": 0,
                                              "extra": 1}}, "unexpected"),
    ({"t": "join", "s": 1, "q": 1, "table": 2, "code": "", "as": "admin"}, "unexpected"),
    ({"t": "join", "q": 1, "table": 2, "code": ""}, "session"),
    ({"t": "join", "s": -1, "q": 1, "table": 2, "code": ""}, "session"),
    ({"t": "join", "s": 1, "q": 1, "table": 2}, "missing code"),
    ({"t": "say", "s": 1, "q": 1, "text": "x" * 5000}, "text"),
    ({"t": "enter", "s": 1, "q": 1, "name": ["ann"], "key": ""}, "name"),
    ({"t": "view", "s": 1}, "not a request"),
    ({"t": "failed", "q": 1, "conn": 1, "address": "a" * 65, "user": "",
      "method": "password"}, "address"),
    ({"t": "failed", "s": 1, "q": 1, "conn": 1, "address": "", "user": "", "method": ""},
     "unexpected"),
    ({"t": "settled", "conn": 1, "outcome": "forgiven"}, "outcome"),
    ({"t": "door", "q": 1, "conn": -1, "address": ""}, "conn"),
])
def test_a_malformed_request_is_refused_with_the_reason(request_, why) -> None:
    with pytest.raises(WireError, match=why):
        check_request(decode(encode(request_)))


@pytest.mark.parametrize(("line", "why"), [
    (b"{not json\n", "not JSON"),
    (b"[1, 2]\n", "not a message"),
    (b'{"t": "rm -rf"}\n', "unknown message type"),
    (b"\xff\xfe\n", "not JSON"),
    (b'{"t": "hello", "worker": 1, "pad": "' + b"x" * MAX_LINE + b'"}\n', "bytes"),
], ids=["broken", "a list", "unknown type", "not utf-8", "too long"])
def test_a_line_that_is_not_a_message_is_refused(line, why) -> None:
    with pytest.raises(WireError, match=why):
        decode(line)


def _views_of_a_played_game(key: str, players: int, actions: int) -> list[list[SeatView]]:
    """Every seat's (and a spectator's) view after each of `actions` random moves."""
    game = Game(load_ruleset(key), [f"P{i}" for i in range(players)], 11)
    bot = make_bot("random", 3)
    seen: list[list[SeatView]] = []
    for _ in range(actions):
        seen.append([game.view(s) for s in range(-1, players)])
        if game.phase == "game_over":
            break
        if game.phase == "round_over":
            game.next_round()
            continue
        game.apply(bot.choose(game.view(game.actor)))
    return seen


@pytest.mark.parametrize(("key", "players", "phases_seen"), [
    ("three_thirteen", 3, {"draw", "play", "round_over"}),
    ("liverpool", 4, {"draw", "play", "buy"}),
    ("contract_rummy", 3, {"draw", "play"}),
])
def test_every_view_round_trips_with_only_the_new_log_lines(key, players, phases_seen) -> None:
    steps = _views_of_a_played_game(key, players, 100)
    rules = rules_from_wire(json.loads(json.dumps(rules_to_wire(steps[0][0].rules))))
    assert rules == steps[0][0].rules
    logs: list[list] = [[] for _ in range(players + 1)]
    sent = [0] * (players + 1)
    phases = set()
    for views in steps:
        for i, view in enumerate(views):
            wire = json.loads(json.dumps(view_to_wire(view, sent[i])))
            back = view_from_wire(wire, rules, logs[i])
            sent[i] = len(view.log)
            assert back == view and _uids(back) == _uids(view)
            phases.add(view.phase)
    assert phases_seen <= phases


def test_a_view_with_a_gap_in_its_log_is_refused() -> None:
    view = _views_of_a_played_game("three_thirteen", 2, 6)[-1][1]
    with pytest.raises(WireError, match="log lines from"):
        view_from_wire(view_to_wire(view, 2), view.rules, [])


def test_lobby_lines_and_chat_round_trip_as_plain_json() -> None:
    lobby = Lobby(LobbyConfig(seed=1))
    lobby.enter("ann").create("three_thirteen", 3, "easy")
    [summary] = lobby.summaries()
    line = json.loads(json.dumps(summary_to_wire(summary)))
    assert line[:3] == [summary.id, "three_thirteen", summary.title]
    assert [tuple(s) for s in line[3]] == list(summary.seats)
    message = ChatMessage(4, "ann", "hi")
    assert ChatMessage(*json.loads(json.dumps(chat_to_wire(message)))) == message
    lobby.close()


def test_a_phase10_view_carries_the_phases_each_player_played_and_made() -> None:
    """Over SSH the score sheet and the deal summary show who made their phase: the
    deal's result carries it across the wire."""
    rules = load_ruleset(PHASE10)
    game = Game(rules, ["ann", "bob", "cy"], 5)
    bot = make_bot("medium", 1)
    while game.phase != "round_over":
        game.apply(bot.choose(game.view(game.actor)))
    view = game.view(1)
    assert view.results[-1].phases == (1, 1, 1) and any(view.results[-1].made)
    back = view_from_wire(json.loads(json.dumps(view_to_wire(view, 0))), rules, [])
    assert back == view
    assert back.results[-1].made == view.results[-1].made
    assert [p.phase for p in back.players] == [1 + m for m in view.results[-1].made]
    sent = rules_from_wire(json.loads(json.dumps(rules_to_wire(rules))))
    assert sent.rounds == rules.rounds and sent.round(8).contract.colour_sizes == (7,)
