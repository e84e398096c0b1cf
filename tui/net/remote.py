"""A session worker's side of the game service: the lobby, tables and chat of another
process, played through the same interfaces as the ones in this process.

`ServiceLink` is the worker's one connection to the service (`tui.service.authority`).
Each SSH session gets a `RemoteGuest` (a `LobbyClient`); once its game is dealt, a
`RemoteTable` (a `TableService` for its one seat) and a `RemoteChat`.  They keep only
what the service sent: the lobby list, this session's place, and its own seat's latest
view - no other hand ever reaches this process.  Requests go out at once and never wait
on the render loop; a refusal comes back later and is handed to the `refusals`
listeners (the screens show it).
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from tui.engine.actions import Action, IllegalAction
from tui.engine.rules import Ruleset
from tui.engine.view import Event, SeatView
from tui.listeners import Listeners
from tui.net.door import Doorway
from tui.records import RecordOutcome
from tui.service.chat import ChatError, ChatMessage, clean_text
from tui.service.interface import Place, SeatSpec
from tui.service.lobby import TableSummary
from tui.service.wire import (
    MAX_LINE,
    WireError,
    action_to_wire,
    decode,
    encode,
    rules_from_wire,
    view_from_wire,
)

log = logging.getLogger(__name__)

HINT_TIMEOUT = 30.0
DOOR_TIMEOUT = 5.0
"""Seconds a worker's door waits for the service before answering by itself."""
CHAT_HISTORY = 100


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class ServiceLink:
    """One worker's connection to the game service, shared by all its sessions."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 worker: int) -> None:
        self.reader = reader
        self.writer = writer
        self.worker = worker
        self.guests: dict[int, RemoteGuest] = {}
        self.summaries: list[TableSummary] = []
        self.people = 0
        self.received = 0
        """Messages received from the service so far."""
        self.on_evict: Callable[[int], None] = lambda conn: None
        """Closes a connection of this worker's door the service says is past a cap."""
        self.on_message: Callable[[dict[str, Any]], None] | None = None
        """Called with every message received (tests scan what a worker is sent)."""
        self.loop = asyncio.get_running_loop()
        self._requests = itertools.count(1)
        self._waiting: dict[int, Callable[[dict[str, Any]], None]] = {}
        self._rules: dict[int, Ruleset] = {}
        self._rules_by_digest: dict[str, Ruleset] = {}
        self._held: dict[int, list[dict[str, Any]]] = {}
        self.closed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, path: Path | str, worker: int) -> ServiceLink:
        reader, writer = await asyncio.open_unix_connection(str(path), limit=MAX_LINE + 1)
        link = cls(reader, writer, worker)
        link._task = asyncio.get_running_loop().create_task(
            link.run(), name="service-link", context=contextvars.Context())
        return link

    # ------------------------------------------------------------------ sending
    def hello(self) -> None:
        """Tell the service this worker is ready for players (it is listening)."""
        self.send({"t": "hello", "worker": self.worker})

    def send(self, message: dict[str, Any]) -> None:
        if not self.closed.is_set():
            self.writer.write(encode(message))

    def request(self, message: dict[str, Any],
                answered: Callable[[dict[str, Any]], None]) -> None:
        """Send a numbered request; `answered(reply)` runs when the reply comes."""
        number = next(self._requests)
        self._waiting[number] = answered
        self.send({**message, "q": number})

    def ask(self, message: dict[str, Any], timeout: float) -> asyncio.Future[dict[str, Any]]:
        """Send a numbered request now; its reply, or `TimeoutError` after `timeout`."""
        answer: asyncio.Future[dict[str, Any]] = self.loop.create_future()

        def answered(reply: dict[str, Any]) -> None:
            if not answer.done():
                answer.set_result(reply)

        self.request(message, answered)
        return asyncio.ensure_future(asyncio.wait_for(answer, timeout))

    def open_session(self, sid: int, name: str, key: str = "",
                     turned_away: Callable[[str], None] = lambda why: None,
                     replaced: Callable[[], None] = lambda: None) -> RemoteGuest:
        """A player arrived on this worker: they enter the service's lobby (as the key
        the SSH front proved, "" for none).  `turned_away(why)` if the service refuses
        them; `replaced()` if they sit down again from a newer session."""
        guest = RemoteGuest(self, sid, name, replaced)
        self.guests[sid] = guest

        def answered(reply: dict[str, Any]) -> None:
            if not reply.get("ok"):
                turned_away(str(reply.get("error", "")))

        self.request({"t": "enter", "s": sid, "name": name, "key": key}, answered)
        return guest

    # ------------------------------------------------------------------ receiving
    async def run(self) -> None:
        try:
            while True:
                line = await self.reader.readline()
                if not line:
                    return
                try:
                    message = decode(line)
                except WireError as exc:
                    log.error("the game service sent a bad message: %s", exc)
                    continue
                self.received += 1
                if self.on_message is not None:
                    self.on_message(message)
                try:
                    self._dispatch(message)
                except (WireError, KeyError, TypeError, ValueError) as exc:
                    log.error("the game service sent a bad %s: %s", message.get("t"), exc)
        except (ConnectionError, OSError, asyncio.LimitOverrunError, ValueError):
            return
        finally:
            self.closed.set()
            for guest in list(self.guests.values()):
                guest.service_gone()

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "reply":
            answered = self._waiting.pop(int(message["q"]), None)
            if answered is not None:
                answered(message)
        elif kind == "evict":
            self.on_evict(int(message["conn"]))
        elif kind == "lobby":
            self.summaries = [TableSummary(int(i), str(key), str(title),
                                           tuple((str(n), str(w)) for n, w in seats),
                                           status, int(watching), str(host), str(fill))
                              for i, key, title, seats, status, watching, host, fill
                              in message["tables"]]
            self.people = int(message["people"])
            for guest in list(self.guests.values()):
                guest.changed()
        elif kind == "rules":
            self._rules_arrived(int(message["table"]), message["rules"])
        elif kind == "view":
            table = int(message["table"])
            if table in self._held:
                self._held[table].append(message)
            elif table in self._rules:
                self._view(message, self._rules[table])
            else:
                raise WireError(f"a view of table {table} before its rules")
        else:
            addressee = self.guests.get(int(message["s"]))
            if addressee is not None:
                addressee.update(message)

    def _rules_arrived(self, table: int, data: dict[str, Any]) -> None:
        digest = hashlib.sha256(repr(sorted(data.items())).encode()).hexdigest()
        known = self._rules_by_digest.get(digest)
        if known is not None:
            self._rules[table] = known
            return
        # Checking a ruleset can be slow (a big house ruleset): never on the render loop;
        # the table's views wait for it, in order.
        self._held[table] = []

        async def parse() -> None:
            try:
                rules = await asyncio.to_thread(rules_from_wire, data)
            except WireError as exc:
                log.error("table %s: %s", table, exc)
                self._held.pop(table, None)
                return
            self._rules_by_digest[digest] = self._rules[table] = rules
            for message in self._held.pop(table, []):
                self._view(message, rules)

        self.loop.create_task(parse(), context=contextvars.Context())

    def _view(self, message: dict[str, Any], rules: Ruleset) -> None:
        guest = self.guests.get(int(message["s"]))
        if guest is not None:
            guest.view_arrived(message, rules)

    def forget(self, sid: int) -> None:
        self.guests.pop(sid, None)

    async def close(self) -> None:
        self.writer.close()
        if self._task is not None:
            await asyncio.wait([self._task], timeout=5)


class ServiceDoor:
    """A worker's door that asks the game service's (`tui.net.door.Doorway`): it counts
    every worker's connections and failures together.  If the service does not answer
    in time, the worker's own door answers instead."""

    def __init__(self, link: ServiceLink, own: Doorway, timeout: float = DOOR_TIMEOUT) -> None:
        self.link = link
        self.own = own
        self.timeout = timeout

    def arrive(self, conn: int, address: str) -> Awaitable[str]:
        if self.link.closed.is_set():
            return self.own.arrive(conn, address)
        asked = self.link.ask({"t": "door", "conn": conn, "address": address[:64]},
                              self.timeout)

        async def answer() -> str:
            try:
                reply = await asked
            except TimeoutError:
                return await self.own.arrive(conn, address)
            return "" if reply.get("ok") else str(reply.get("error", ""))[:200]

        return answer()

    def settled(self, conn: int, outcome: str) -> None:
        self.link.send({"t": "settled", "conn": conn, "outcome": outcome})
        self.own.settled(conn, outcome)

    def failed(self, conn: int, address: str, user: str, method: str) -> Awaitable[float]:
        if self.link.closed.is_set():
            return self.own.failed(conn, address, user, method)
        asked = self.link.ask({"t": "failed", "conn": conn, "address": address[:64],
                               "user": user[:64], "method": method[:20]}, self.timeout)

        async def answer() -> float:
            try:
                reply = await asked
            except TimeoutError:
                reply = {}
            delay = reply.get("delay")
            if not reply.get("ok") or not isinstance(delay, int | float) or delay < 0:
                return await self.own.failed(conn, address, user, method)
            return float(delay)

        return answer()


class RemoteGuest:
    """One session's place in the service's lobby (a `LobbyClient`)."""

    def __init__(self, link: ServiceLink, sid: int, name: str,
                 replaced: Callable[[], None] = lambda: None) -> None:
        self.link = link
        self.sid = sid
        self.name = name
        self.closed = False
        self._replaced = replaced
        self._place: Place | None = None
        self._waiting: int | None = None
        self._behind: int | None = None
        self._table: RemoteTable | None = None
        self._chat: RemoteChat | None = None
        self._listeners: Listeners[[]] = Listeners()
        self._refusal_listeners: Listeners[[str]] = Listeners()

    # ------------------------------------------------------------------ reading
    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._listeners.subscribe(callback)

    def refusals(self, callback: Callable[[str], None]) -> Callable[[], None]:
        return self._refusal_listeners.subscribe(callback)

    def summaries(self) -> list[TableSummary]:
        return self.link.summaries

    def people(self) -> int:
        return self.link.people

    def place(self) -> Place | None:
        return self._place

    def waiting_table(self) -> int | None:
        return self._waiting

    def seat_behind_code(self) -> int | None:
        return self._behind

    def table(self) -> RemoteTable | None:
        table = self._table
        return table if table is not None and table.ready else None

    def chat(self) -> RemoteChat | None:
        return self._chat

    # ------------------------------------------------------------------ asking
    def _ask(self, message: dict[str, Any]) -> None:
        if self.closed:
            self._refused("This session has ended.")
            return
        self.link.request({**message, "s": self.sid}, self._answered)

    def _answered(self, reply: dict[str, Any]) -> None:
        if not reply.get("ok"):
            self._refused(str(reply.get("error", "")))

    def _refused(self, why: str) -> None:
        self._refusal_listeners.notify(why)

    def create(self, rules_key: str, seats: int, fill_level: str,
               rules: Ruleset | None = None) -> None:
        text = None
        if rules is not None:
            from tui.engine.ruleset.dump import standalone_yaml

            text = standalone_yaml(rules)
        self._ask({"t": "create", "rules_key": rules_key, "seats": seats, "fill": fill_level,
                   "rules_text": text})

    def join(self, table_id: int, code: str = "") -> None:
        self._ask({"t": "join", "table": table_id, "code": code[:20]})

    def watch(self, table_id: int) -> None:
        self._ask({"t": "watch", "table": table_id})

    def start(self) -> None:
        self._ask({"t": "start"})

    def leave(self) -> None:
        self._ask({"t": "leave"})

    def close(self) -> None:
        """The session ended: its guest leaves the service's lobby."""
        if self.closed:
            return
        self.closed = True
        self.link.send({"t": "exit", "s": self.sid})
        self.link.forget(self.sid)
        self._listeners.clear()
        self._refusal_listeners.clear()
        self._table = None
        self._chat = None

    # ------------------------------------------------------------------ told by the link
    def changed(self) -> None:
        self._listeners.notify()

    def update(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "place":
            behind = message["behind"]
            self._behind = None if behind is None else int(behind)
            self._placed(message["place"], message["waiting"])
        elif kind == "replaced":
            self._replaced()
        elif kind == "chat":
            chat = self._chat
            if chat is not None and chat.ticket == int(message["ticket"]):
                chat.arrived([ChatMessage(int(n), str(sender), str(text))
                              for n, sender, text in message["messages"]])

    def _placed(self, raw: list[Any] | None, waiting: int | None) -> None:
        self._waiting = None if waiting is None else int(waiting)
        if raw is None:
            place = None
        else:
            table, seat, status, dealt, ticket, code = raw
            place = Place(int(table), int(seat), status, bool(dealt), int(ticket),
                          None if code is None else str(code))
        old = self._place
        self._place = place
        if place is None:
            self._table = self._chat = None
        elif old is None or old.ticket != place.ticket:
            self._table = RemoteTable(self, place.ticket, place.seat)
            self._chat = RemoteChat(self, place.ticket)
        self.changed()

    def view_arrived(self, message: dict[str, Any], rules: Ruleset) -> None:
        table = self._table
        if table is None or table.ticket != int(message["ticket"]):
            return
        was_ready = table.ready
        table.arrived(message, rules)
        if not was_ready:
            self.changed()  # the lobby screen opens the table now

    def service_gone(self) -> None:
        self._refused("The game service has gone away.")


class RemoteTable:
    """One seat of a table the game service owns (a `TableService`)."""

    def __init__(self, guest: RemoteGuest, ticket: int, seat: int) -> None:
        self.guest = guest
        self.ticket = ticket
        self.seat = seat
        self.ready = False
        self._view: SeatView | None = None
        self._rules: Ruleset | None = None
        self._log: list[Event] = []
        self._seats: list[SeatSpec] = []
        self._humans: list[int] = []
        self._record: RecordOutcome | None = None
        self._turn_ends: float | None = None  # this loop's clock
        self._listeners: Listeners[[]] = Listeners()
        self._refusal_listeners: Listeners[[IllegalAction]] = Listeners()

    def arrived(self, message: dict[str, Any], rules: Ruleset) -> None:
        self._rules = rules
        self._view = view_from_wire(message["view"], rules, self._log)
        self._seats = [SeatSpec(str(name), None if bot is None else str(bot))
                       for name, bot in message["seats"]]
        self._humans = [int(s) for s in message["humans"]]
        record = message["record"]
        self._record = None if record is None else RecordOutcome(record[0], record[1])
        left = message.get("left")
        self._turn_ends = (asyncio.get_running_loop().time() + float(left)
                           if isinstance(left, int | float) else None)
        self.ready = True
        self._listeners.notify()

    # ------------------------------------------------------------------ reading
    @property
    def rules(self) -> Ruleset:
        assert self._rules is not None, "no view has arrived yet"
        return self._rules

    @property
    def seats(self) -> list[SeatSpec]:
        return self._seats

    @property
    def record_outcome(self) -> RecordOutcome | None:
        return self._record

    def view(self, seat: int) -> SeatView:
        """This seat's latest view, whatever seat is asked for (no other is here)."""
        assert self._view is not None, "no view has arrived yet"
        return self._view

    def humans(self) -> list[int]:
        return list(self._humans)

    def turn_seconds_left(self) -> float | None:
        """The countdown of the person to move (`tui.service.turn_clock.TurnClock`)."""
        if self._turn_ends is None:
            return None
        return max(0.0, self._turn_ends - asyncio.get_running_loop().time())

    def is_bot(self, seat: int) -> bool:
        return 0 <= seat < len(self._seats) and self._seats[seat].bot is not None \
            and seat not in self._humans

    def bot_to_move(self) -> int | None:
        return None  # the service's table moves its bots

    def bot_choice(self) -> tuple[int, Action] | None:
        return None

    def step_bot(self) -> Action | None:
        return None

    def can_undo(self, seat: int) -> bool:
        return False

    def undo(self, seat: int) -> None:
        raise IllegalAction("moves cannot be taken back at a shared table", "undo")

    def save(self, path: Path) -> None:
        """Shared tables are not saved to a player's file."""

    def save_text(self) -> str | None:
        return None

    # ------------------------------------------------------------------ acting
    def act(self, seat: int, action: Action) -> None:
        """Checks what can be told here, then sends; the service rules on the rest."""
        if self.seat < 0:
            raise IllegalAction("you are watching this table, not playing at it", "seats")
        if seat != self.seat or action.seat != self.seat:
            raise IllegalAction("you can only play for your own seat", "seats")
        view = self._view
        if view is None or not view.legal:
            raise IllegalAction("it is not your move", "turns")
        if self.guest.closed:
            raise IllegalAction("you are no longer seated at this table", "seats")

        def answered(reply: dict[str, Any]) -> None:
            if not reply.get("ok"):
                refusal = IllegalAction(str(reply.get("error", "")), str(reply.get("rule", "")))
                self._refusal_listeners.notify(refusal)

        self.guest.link.request({"t": "act", "s": self.guest.sid,
                                 "action": action_to_wire(action)}, answered)

    def next_round(self) -> None:
        """This seat has seen the summary; the service deals when everyone has."""
        if not self.guest.closed:
            self.guest.link.send({"t": "ready", "s": self.guest.sid})

    def hint(self, seat: int) -> str:
        """Ask the service (it thinks in a thread): call from a worker thread only."""
        if self.seat < 0:
            return "You are watching: there is nothing for you to play."
        link = self.guest.link
        if _on_loop_thread(link.loop):  # the answer could never arrive: say so, loudly
            raise RuntimeError("RemoteTable.hint waits for the service: call it from a "
                               "worker thread, never the event loop")
        answer: Future[str] = Future()

        def answered(reply: dict[str, Any]) -> None:
            if not answer.done():
                answer.set_result(str(reply.get("text") if reply.get("ok")
                                      else reply.get("error", "")))

        link.loop.call_soon_threadsafe(
            link.request, {"t": "hint", "s": self.guest.sid}, answered)
        try:
            return answer.result(HINT_TIMEOUT)
        except TimeoutError:
            return "No hint came in time."

    # ------------------------------------------------------------------ watching
    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._listeners.subscribe(callback)

    def refusals(self, callback: Callable[[IllegalAction], None]) -> Callable[[], None]:
        return self._refusal_listeners.subscribe(callback)


class RemoteChat:
    """The chat of the table a remote guest is at (a `ChatService`)."""

    def __init__(self, guest: RemoteGuest, ticket: int) -> None:
        self.guest = guest
        self.ticket = ticket
        self._messages: deque[ChatMessage] = deque(maxlen=CHAT_HISTORY)
        self._listeners: Listeners[[ChatMessage]] = Listeners()

    @property
    def messages(self) -> tuple[ChatMessage, ...]:
        return tuple(self._messages)

    @property
    def name(self) -> str:
        return self.guest.name

    def arrived(self, messages: list[ChatMessage]) -> None:
        for message in messages:
            self._messages.append(message)
            self._listeners.notify(message)

    def say(self, text: str) -> ChatMessage:
        cleaned = clean_text(text)
        if not cleaned:
            raise ChatError("Type something to say first.")

        def answered(reply: dict[str, Any]) -> None:
            if not reply.get("ok"):  # told to the sender only, as the table's own words
                self.arrived([ChatMessage(0, "", str(reply.get("error", "")))])

        self.guest.link.request({"t": "say", "s": self.guest.sid, "text": cleaned},
                                answered)
        return ChatMessage(0, self.guest.name, cleaned)

    def subscribe(self, callback: Callable[[ChatMessage], None]) -> Callable[[], None]:
        return self._listeners.subscribe(callback)
