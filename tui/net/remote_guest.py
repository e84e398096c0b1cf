"""One SSH session's side of the game service in a worker: its place in the service's
lobby, and once its game is dealt, its seat and the table's chat.

Each session gets a `RemoteGuest` (a `LobbyClient`); once its game is dealt, a
`RemoteTable` (a `TableService` for its one seat) and a `RemoteChat`.  They keep only
what the service sent: this session's place and its own seat's latest view - no other
hand ever reaches this process.  Requests go out at once through the worker's link
(`tui.net.remote.ServiceLink`) and never wait on the render loop; a refusal comes back
later and is handed to the `refusals` listeners (the screens show it).  When the link
comes back after an outage, `rejoin` puts the session back in the service's lobby and
at its seat, and the screens carry on with the same table object.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Protocol

from tui.engine.actions import Action, IllegalAction
from tui.engine.rules import Ruleset
from tui.engine.view import Event, SeatView
from tui.listeners import Listeners
from tui.records import RecordOutcome
from tui.service.chat import ChatError, ChatMessage, clean_text
from tui.service.interface import Place, SeatSpec
from tui.service.lobby import TableSummary
from tui.service.wire import action_to_wire, view_from_wire

HINT_TIMEOUT = 30.0
CHAT_HISTORY = 100
BACK = "Back in touch with the game service: carry on."


class LinkPort(Protocol):
    """What a session needs of its worker's link to the service."""

    loop: asyncio.AbstractEventLoop
    summaries: list[TableSummary]
    people: int

    def send(self, message: dict[str, Any]) -> None: ...

    def request(self, message: dict[str, Any],
                answered: Callable[[dict[str, Any]], None]) -> None: ...

    def forget(self, sid: int) -> None: ...


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class RemoteGuest:
    """One session's place in the service's lobby (a `LobbyClient`)."""

    def __init__(self, link: LinkPort, sid: int, name: str, key: str = "",
                 replaced: Callable[[], None] = lambda: None) -> None:
        self.link = link
        self.sid = sid
        self.name = name
        self.key = key
        self.closed = False
        self._rejoining = False
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
        if raw is None:
            place = None
            if self._rejoining:  # (entered again, not seated again yet)
                return
        else:
            table, seat, status, dealt, ticket, code = raw
            place = Place(int(table), int(seat), status, bool(dealt), int(ticket),
                          None if code is None else str(code))
        self._waiting = None if waiting is None else int(waiting)
        old = self._place
        self._place = place
        if place is None:
            self._table = self._chat = None
        elif self._rejoining and old is not None and (old.table, old.seat) == (
                place.table, place.seat) and self._table is not None \
                and self._chat is not None:
            self._rejoining = False  # the same seat again: the screens keep their table
            self._table.rebind(place.ticket)
            self._chat.rebind(place.ticket)
        elif old is None or old.ticket != place.ticket:
            self._table = RemoteTable(self, place.ticket, place.seat)
            self._chat = RemoteChat(self, place.ticket)
        self.changed()

    def rejoin(self) -> None:
        """The link is back after an outage: enter the service's lobby again as the
        same player, and sit down again where this session sat (a keyless player by
        the rejoin code it was shown); the same table object carries on."""
        place = self._place
        self._rejoining = place is not None and place.status != "closed"

        def entered(reply: dict[str, Any]) -> None:
            if not reply.get("ok"):
                self._rejoining = False
                self._refused(str(reply.get("error", "")))
            elif not self._rejoining or place is None:
                self._refused(BACK)
            elif place.seat < 0:
                self.link.request({"t": "watch", "s": self.sid, "table": place.table},
                                  seated)
            else:
                self.link.request({"t": "join", "s": self.sid, "table": place.table,
                                   "code": place.rejoin_code or ""}, seated)

        def seated(reply: dict[str, Any]) -> None:
            if reply.get("ok"):
                self._refused(BACK)
                return
            self._rejoining = False
            self._refused(f"Your seat could not be taken back: {reply.get('error', '')}")
            self._placed(None, None)

        self.link.request({"t": "enter", "s": self.sid, "name": self.name, "key": self.key},
                          entered)

    def view_arrived(self, message: dict[str, Any], rules: Ruleset) -> None:
        table = self._table
        if table is None or table.ticket != int(message["ticket"]):
            return
        was_ready = table.ready
        table.arrived(message, rules)
        if not was_ready:
            self.changed()  # the lobby screen opens the table now

    def service_gone(self, kept: bool = False) -> None:
        """The link to the service is lost; `kept`: it is being dialled again (and the
        service keeps this player's seat for its grace period)."""
        self._refused("The game service is out of reach: your seat is kept. Reconnecting..."
                      if kept else "The game service has gone away.")


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

    def rebind(self, ticket: int) -> None:
        """The same seat, taken again over a new link: its views come under `ticket`,
        with the whole log again."""
        self.ticket = ticket
        self._log = []

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
        self._heard = 0
        """The number of the last message heard (they are numbered from 1)."""
        self._repeated = 0
        """Messages up to this number come again after a rebind: not shown twice."""

    def rebind(self, ticket: int) -> None:
        """The same seat over a new link: what was said comes again; shown once."""
        self.ticket = ticket
        self._repeated = self._heard

    @property
    def messages(self) -> tuple[ChatMessage, ...]:
        return tuple(self._messages)

    @property
    def name(self) -> str:
        return self.guest.name

    def arrived(self, messages: list[ChatMessage]) -> None:
        for message in messages:
            if 0 < message.number <= self._repeated:
                continue
            self._heard = max(self._heard, message.number)
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
