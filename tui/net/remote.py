"""A session worker's link to the game service: the lobby, tables and chat of another
process (on this machine, or another over TLS), played through the same interfaces as
the ones in this process.

`ServiceLink` is the worker's one connection to the service (`tui.service.authority`),
shared by its sessions (`tui.net.remote_guest`): it sends their requests, hands each
reply to whoever asked, and each update to the session it is for.  A worker on the
service's own machine ends with its link (`connect`).  A worker on another machine keeps
its link (`keep`): when the link is lost, its players are told their seats are kept and
the link is dialled again with a growing delay (at most `MAX_RETRY`); once it is back
every session enters again and sits down where it sat.  `ServiceDoor` is the worker's
door, asking the service's.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from tui.engine.rules import Ruleset
from tui.net.door import Doorway
from tui.net.remote_guest import RemoteGuest
from tui.service.lobby import TableSummary
from tui.service.wire import MAX_LINE, WireError, decode, encode, rules_from_wire

log = logging.getLogger(__name__)

DOOR_TIMEOUT = 5.0
"""Seconds a worker's door waits for the service before answering by itself."""
FIRST_RETRY = 0.5
MAX_RETRY = 10.0
"""Seconds between tries to dial a lost service: from the first, doubling up to this."""
OUT_OF_REACH = ("The game service is out of reach for now (your seat is kept): try again "
                "in a moment.")

Connector = Callable[[], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]]
"""Opens a new connection to the service (`tui.net.tls_link.dial`, for one)."""


class ServiceLink:
    """One worker's connection to the game service, shared by all its sessions."""

    def __init__(self, worker: int) -> None:
        self.writer: asyncio.StreamWriter | None = None
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
        """Set while there is no link (before the first, and while one is lost)."""
        self.closed.set()
        self.relinking = False
        """True for a link that is dialled again when lost (`keep`)."""
        self._task: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, path: Path | str, worker: int) -> ServiceLink:
        """The link of a worker on the service's machine, over its Unix socket."""
        reader, writer = await asyncio.open_unix_connection(str(path), limit=MAX_LINE + 1)
        link = cls(worker)
        link.attach(reader, writer)
        return link

    def attach(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Talk to the service over this new connection."""
        self._rules.clear()  # (a new connection is sent every table's rules again)
        self._held.clear()
        self.writer = writer
        self.closed.clear()
        self._task = self.loop.create_task(self.run(reader), name="service-link",
                                           context=contextvars.Context())

    def keep(self, connect: Connector) -> None:
        """Dial the service with `connect` now, and again whenever the link is lost."""
        self.relinking = True
        self._keeper = self.loop.create_task(self._keep(connect), name="service-link-keeper",
                                             context=contextvars.Context())

    async def _keep(self, connect: Connector) -> None:
        delay = FIRST_RETRY
        while True:
            try:
                reader, writer = await connect()
            except (OSError, TimeoutError) as error:  # (ssl.SSLError is an OSError)
                log.warning("cannot reach the game service (%s); trying again in %g s",
                            _reason(error), delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_RETRY)
                continue
            heard = self.received
            self.attach(reader, writer)
            self.hello()
            for guest in list(self.guests.values()):
                guest.rejoin()
            await self.closed.wait()
            delay = FIRST_RETRY if self.received > heard else min(delay * 2, MAX_RETRY)
            log.warning("lost the game service; trying again in %g s", delay)
            await asyncio.sleep(delay)

    # ------------------------------------------------------------------ sending
    def hello(self) -> None:
        """Tell the service this worker is ready for players (it is listening)."""
        self.send({"t": "hello", "worker": self.worker})

    def bye(self) -> None:
        """Tell the service this worker retires (it has no sessions left): a fresh one
        takes its place, nothing is lost."""
        self.send({"t": "bye"})

    def send(self, message: dict[str, Any]) -> None:
        if not self.closed.is_set() and self.writer is not None:
            self.writer.write(encode(message))

    def request(self, message: dict[str, Any],
                answered: Callable[[dict[str, Any]], None]) -> None:
        """Send a numbered request; `answered(reply)` runs when the reply comes (at once
        with a refusal while there is no link)."""
        if self.closed.is_set():
            self.loop.call_soon(answered, {"ok": False, "error": OUT_OF_REACH, "lost": True})
            return
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
        guest = RemoteGuest(self, sid, name, key, replaced, turned_away)
        self.guests[sid] = guest

        def answered(reply: dict[str, Any]) -> None:
            if not reply.get("ok"):
                turned_away(str(reply.get("error", "")))

        self.request({"t": "enter", "s": sid, "name": name, "key": key}, answered)
        return guest

    # ------------------------------------------------------------------ receiving
    async def run(self, reader: asyncio.StreamReader) -> None:
        heard = False
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                try:
                    message = decode(line)
                except WireError as exc:
                    log.error("the game service sent a bad message: %s", exc)
                    continue
                if not heard:
                    heard = True
                    log.info("linked to the game service")
                self.received += 1
                if self.on_message is not None:
                    self.on_message(message)
                try:
                    self._dispatch(message)
                except (WireError, KeyError, TypeError, ValueError) as exc:
                    log.error("the game service sent a bad %s: %s", message.get("t"), exc)
        except (ConnectionError, OSError, asyncio.LimitOverrunError, ValueError) as error:
            log.warning("the link to the game service ended: %s", _reason(error))
            return
        finally:
            self._lost()

    def _lost(self) -> None:
        """The connection ended: nothing asked is answered now but by a refusal, and the
        players are told (their seats are kept if the link is being kept)."""
        self.closed.set()
        if self.writer is not None:
            self.writer.close()
        waiting, self._waiting = self._waiting, {}
        for answered in waiting.values():
            answered({"ok": False, "error": OUT_OF_REACH, "lost": True})
        for guest in list(self.guests.values()):
            guest.service_gone(kept=self.relinking)

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
        self.relinking = False
        if self._keeper is not None:
            self._keeper.cancel()
        if self.writer is not None:
            self.writer.close()
        if self._task is not None:
            await asyncio.wait([self._task], timeout=5)


def _reason(error: BaseException) -> str:
    return str(getattr(error, "reason", None) or error or type(error).__name__)


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
