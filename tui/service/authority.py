"""The game service: the one process that owns the lobby, the tables, who is who, and
the records, serving SSH session workers over the wire protocol (`tui.service.wire`).

Each worker connects to a local stream socket and opens sessions on it (`enter`); each
session becomes a `Guest` of the lobby.  Everything a worker sends is untrusted: a
malformed or forged message is refused with a reason and changes nothing.  A worker only
ever receives its own sessions' seat views.  When a worker's connection ends (the worker
exited or crashed), its sessions leave the lobby as if their players had dropped: their
seats are kept for the grace period and taken back when the players reconnect, through
any worker.  Every worker is sent every change of the lobby list, idle ones too, so a
player sees the lobby as it is whichever worker they land on.  The door is kept here for
every worker at once (`tui.service.door_keeper`): each connection asks it before trying
to log in, so the caps per address and the penalties for failed logins hold however the
kernel spreads the connections.  Slow work a request brings (a player's own ruleset
checked, a hint) runs in a thread, so one request never holds up the others.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from tui.engine.actions import IllegalAction
from tui.service.chat import ChatError, ChatMessage
from tui.service.door_keeper import DoorKeeper
from tui.service.lobby import Guest, Lobby, LobbyError
from tui.service.seat_handle import SeatHandle
from tui.service.shared_table import SharedTable
from tui.service.wire import (
    WireError,
    chat_to_wire,
    check_request,
    decode,
    encode,
    keep_alive,
    peer_name,
    rules_to_wire,
    summary_to_wire,
    view_to_wire,
)

log = logging.getLogger(__name__)

MAX_SESSIONS_PER_WORKER = 4096
SEND_BUFFER_LIMIT = 64 * 1024 * 1024
"""A worker that stops reading past this many bytes is disconnected (its sessions drop)."""
HANDSHAKE_TIMEOUT = 10.0
MAX_HANDSHAKES = 32
"""TCP connections at once still in their TLS handshake; more are closed unanswered."""


class ServiceSession:
    """One player's session, opened by a worker: a lobby guest, and what was sent of it."""

    def __init__(self, link: WorkerLink, sid: int, guest: Guest) -> None:
        self.link = link
        self.sid = sid
        self.guest = guest
        self._handle: SeatHandle[SharedTable] | None = None
        self._unsubscribers: list[Callable[[], None]] = []
        self._log_sent = 0
        self._place_sent: Any = None
        self._dirty = False
        self._view_sent: Any = None
        guest.subscribe(self.lobby_changed)

    # ------------------------------------------------------------------ watching
    def lobby_changed(self) -> None:
        """The lobby changed: this session's place in it may have (the list itself goes
        to every worker from `GameService`)."""
        self.changed()

    def changed(self) -> None:
        """Something this session may show changed: send it once this loop turn ends."""
        if not self._dirty:
            self._dirty = True
            asyncio.get_running_loop().call_soon(self.flush, context=contextvars.Context())

    def flush(self) -> None:
        self._dirty = False
        if self.guest.closed:
            return
        moved = self._follow_handle()
        handle = self._handle
        place = None
        if handle is not None:
            shared = handle.shared
            place = [shared.id, handle.seat, shared.status, shared.table is not None,
                     handle.id, handle.rejoin_code]
        message = {"t": "place", "s": self.sid, "place": place,
                   "waiting": self.guest.waiting_table(),
                   "behind": self.guest.seat_behind_code()}
        if message != self._place_sent:
            self._place_sent = message
            self.link.send(message)
        if handle is None or not handle.active:
            return
        if moved:  # the new place first, then what was said there (the worker needs both)
            self.link.send({"t": "chat", "s": self.sid, "ticket": handle.id,
                            "messages": [chat_to_wire(m) for m in handle.chat.messages]})
        if handle.shared.table is not None:
            self._send_view(handle)

    def _follow_handle(self) -> bool:
        """Listen to the guest's current place; True if it is a new one."""
        handle = self.guest.handle
        if handle is self._handle:
            return False
        for unsubscribe in self._unsubscribers:
            unsubscribe()
        self._unsubscribers.clear()
        self._handle = handle
        self._log_sent = 0
        self._view_sent = None
        if handle is None or not handle.active:
            return True
        self._unsubscribers.append(handle.subscribe(self.changed))
        self._unsubscribers.append(handle.chat.subscribe(self._chat_said))
        return True

    def _chat_said(self, message: ChatMessage) -> None:
        handle = self._handle
        if handle is not None:
            self.link.send({"t": "chat", "s": self.sid, "ticket": handle.id,
                            "messages": [chat_to_wire(message)]})

    def _send_view(self, handle: SeatHandle[SharedTable]) -> None:
        shared = handle.shared
        table = shared.table
        assert table is not None
        self.link.send_rules(shared.id, table.rules)
        view = table.view(handle.seat)
        seats = [[spec.name, spec.bot] for spec in shared.seat_specs()]
        outcome = table.record_outcome
        record = None if outcome is None else [outcome.record_id, outcome.message]
        body = view_to_wire(view, self._log_sent)
        # A change elsewhere at the table (a spectator came) may leave this view as it was.
        key = ({k: v for k, v in body.items() if k not in ("log", "log_from")},
               len(view.log), seats, record, shared.turn_deadline)
        if key == self._view_sent:
            return
        self._view_sent = key
        self._log_sent = len(view.log)
        self.link.send({"t": "view", "s": self.sid, "ticket": handle.id, "table": shared.id,
                        "view": body, "seats": seats, "humans": shared.person_seats(),
                        "record": record, "left": shared.turn_seconds_left()})

    def close(self) -> None:
        for unsubscribe in self._unsubscribers:
            unsubscribe()
        self._unsubscribers.clear()
        self._handle = None
        self.guest.close()


class WorkerLink:
    """One worker's connection: its sessions, and the messages going to it."""

    def __init__(self, service: GameService, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, machine: str = "") -> None:
        self.service = service
        self.reader = reader
        self.writer = writer
        self.machine = machine
        """The worker machine's certificate name ("" for a worker on this machine)."""
        self.worker: int | None = None
        self.sessions: dict[int, ServiceSession] = {}
        self.refused = 0
        """Messages refused so far (malformed, forged, not allowed)."""
        self._rules_sent: set[int] = set()
        self._lobby_dirty = False
        self._lobby_sent: Any = None
        self._closed = False
        self.retired = False
        """The worker said it retires (`bye`): its link ending is no loss."""

    @property
    def name(self) -> str:
        """How the log names this worker: its number, after its machine's name."""
        return f"{self.machine}/{self.worker}" if self.machine else str(self.worker)

    # ------------------------------------------------------------------ sending
    def send(self, message: dict[str, Any]) -> None:
        if self._closed:
            return
        self.writer.write(encode(message))
        transport = self.writer.transport
        if transport.get_write_buffer_size() > SEND_BUFFER_LIMIT:
            log.warning("worker %s is not reading; disconnecting it", self.name)
            transport.abort()

    def send_rules(self, table_id: int, rules: Any) -> None:
        if table_id not in self._rules_sent:
            self._rules_sent.add(table_id)
            self.send({"t": "rules", "table": table_id, "rules": rules_to_wire(rules)})

    def lobby_changed(self) -> None:
        """The lobby list goes to each worker once per loop turn, for all its sessions."""
        if not self._lobby_dirty:
            self._lobby_dirty = True
            asyncio.get_running_loop().call_soon(self._send_lobby,
                                                 context=contextvars.Context())

    def _send_lobby(self) -> None:
        self._lobby_dirty = False
        lobby = self.service.lobby
        open_ids = {shared.id for shared in lobby.tables}
        self._rules_sent &= open_ids
        message = {"t": "lobby", "tables": [summary_to_wire(s) for s in lobby.summaries()],
                   "people": len(lobby.guests)}
        if message != self._lobby_sent:  # (a move at a table changes nothing here)
            self._lobby_sent = message
            self.send(message)

    def reply(self, request: dict[str, Any], error: str = "", rule: str = "",
              **extra: Any) -> None:
        if "q" not in request:
            return
        self.send({"t": "reply", "s": request.get("s"), "q": request["q"], "ok": not error,
                   "error": error, "rule": rule, **extra})

    # ------------------------------------------------------------------ receiving
    async def run(self) -> None:
        """Serve this worker until its connection ends, then drop its sessions."""
        try:
            while True:
                try:
                    line = await self.reader.readuntil(b"\n")
                except asyncio.LimitOverrunError:
                    self._refuse({}, "message too long")
                    await self._skip_line()
                    continue
                except asyncio.IncompleteReadError:
                    return
                await self.handle_line(line)
        except (ConnectionError, OSError):
            return
        finally:
            self.close()

    async def _skip_line(self) -> None:
        while True:
            try:
                await self.reader.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as exc:
                await self.reader.readexactly(exc.consumed)

    async def handle_line(self, line: bytes) -> None:
        """One message from the worker: checked, then done, or refused with the reason."""
        raw: Any = {}
        try:
            raw = decode(line)
            request = check_request(raw)
        except WireError as exc:
            self._refuse(raw, str(exc))
            return
        try:
            await self._dispatch(request)
        except (LobbyError, ChatError) as exc:
            self._refuse(request, str(exc), quiet=True)
        except IllegalAction as exc:
            self._refuse(request, str(exc), exc.rule, quiet=True)

    def _refuse(self, raw: Any, why: str, rule: str = "", quiet: bool = False) -> None:
        self.refused += 1
        if not quiet:
            log.error("worker %s: refused a message: %s", self.name, why)
        q = raw.get("q") if isinstance(raw, dict) else None
        if isinstance(q, int) and not isinstance(q, bool):
            self.send({"t": "reply", "s": raw.get("s"), "q": q, "ok": False, "error": why,
                       "rule": rule})

    async def _dispatch(self, request: dict[str, Any]) -> None:
        kind = request["t"]
        if kind == "hello":
            self.worker = request["worker"]
            self.service.worker_ready(self)
            return
        if self.worker is None:
            raise LobbyError("say hello first")
        if kind == "bye":
            self.retired = True
            return
        if kind in ("door", "settled", "failed"):  # one door for every worker
            self._door(request)
            return
        sid = request["s"]
        if kind == "enter":
            self._enter(request)
            return
        session = self.sessions.get(sid)
        if session is None:
            raise LobbyError(f"there is no session {sid} on this worker")
        guest = session.guest
        service_lobby = self.service.lobby
        if kind == "exit":
            self.sessions.pop(sid, None)
            session.close()
        elif kind == "create":
            # Reading and checking a ruleset file is slow: in a thread, never on the loop
            # every table's moves go through.
            if request["rules_text"] is not None:
                rules = await asyncio.to_thread(_players_rules, request["rules_key"],
                                                request["rules_text"])
            else:
                rules = await asyncio.to_thread(service_lobby.load_rules, request["rules_key"])
            guest.create(request["rules_key"], request["seats"], request["fill"], rules)
            self.reply(request)
        elif kind == "join":
            guest.join(request["table"], request["code"])
            self.reply(request)
        elif kind == "watch":
            guest.watch(request["table"])
            self.reply(request)
        elif kind == "start":
            guest.start()
            self.reply(request)
        elif kind == "leave":
            guest.leave()
            self.reply(request)
        elif kind == "act":
            handle = self._seated(guest)
            handle.table().act(handle.seat, request["action"])
            self.reply(request)
        elif kind == "ready":
            if guest.handle is not None and guest.handle.active:
                guest.handle.table().next_round()
        elif kind == "hint":
            handle = self._seated(guest)
            text = await asyncio.to_thread(handle.table().hint, handle.seat)
            self.reply(request, text=text)
        elif kind == "say":
            if guest.handle is None or not guest.handle.active:
                raise ChatError("You are not at a table.")
            guest.handle.chat.say(request["text"])
            self.reply(request)
        session.changed()

    def _door(self, request: dict[str, Any]) -> None:
        keeper = self.service.door
        attempt = (self, request["conn"])
        kind = request["t"]
        if kind == "door":
            why, crowded = keeper.arrive(attempt, request["address"])
            for oldest in crowded:
                link, conn = cast(tuple[WorkerLink, int], oldest)
                link.send({"t": "evict", "conn": conn})
            self.reply(request, why)
        elif kind == "settled":
            keeper.settled(attempt, request["outcome"])
        else:
            self.reply(request, delay=keeper.failed(attempt, request["address"],
                                                    request["user"], request["method"]))

    def _enter(self, request: dict[str, Any]) -> None:
        sid = request["s"]
        if sid in self.sessions:
            raise LobbyError(f"session {sid} is already open")
        if len(self.sessions) >= MAX_SESSIONS_PER_WORKER:
            raise LobbyError("this worker has too many sessions")
        service = self.service
        if service.max_sessions is not None and service.session_count >= service.max_sessions:
            players = service.max_sessions
            raise LobbyError(f"the server is full ({players} players connected); "
                             "try again later.")
        guest = service.lobby.enter(request["name"], request["key"],
                                    on_replaced=lambda: self.send({"t": "replaced", "s": sid}))
        session = ServiceSession(self, sid, guest)
        self.sessions[sid] = session
        self.reply(request)
        session.changed()

    @staticmethod
    def _seated(guest: Guest) -> SeatHandle[SharedTable]:
        handle = guest.handle
        if handle is None or not handle.active or handle.shared.table is None:
            raise IllegalAction("you are not playing at a table", "seats")
        return handle

    def close(self) -> None:
        """The worker is gone: every session it had leaves (seats kept for the grace)."""
        if self._closed:
            return
        self._closed = True
        sessions = list(self.sessions.values())
        self.sessions.clear()
        if self.retired and not sessions:
            log.info("worker %s retired", self.name)
        elif sessions or self.machine:
            log.warning("worker %s gone: %s session(s) dropped (seats kept for the grace "
                        "period)", self.name, len(sessions))
        for session in sessions:
            try:
                session.close()
            except Exception:
                log.exception("worker %s: dropping a session failed", self.name)
        self.writer.close()
        self.service.door.drop(lambda attempt: cast(tuple[WorkerLink, int], attempt)[0]
                               is self)
        self.service.worker_gone(self)


def _players_rules(key: str, text: str) -> Any:
    """A player's own ruleset, brought self-contained by their worker: checked here
    like any ruleset file (in a thread), confined to the bundled rules for `extends`."""
    from tui.engine.ruleset.errors import RulesetError
    from tui.engine.ruleset.loader import load_ruleset_text

    try:
        return load_ruleset_text(text, file=f"<{key}>", key=key, confine=True)
    except RulesetError as exc:
        raise LobbyError(f"Your rules {key!r} do not load: {exc.errors[0]}") from None


class GameService:
    """The authority: a `Lobby` served to workers on a local socket."""

    def __init__(self, lobby: Lobby, max_sessions: int | None = None,
                 door: DoorKeeper | None = None) -> None:
        self.lobby = lobby
        self.max_sessions = max_sessions
        self.door = door or DoorKeeper()
        """Every worker's door: logins in progress and penalties, by address."""
        self.links: list[WorkerLink] = []
        self._server: asyncio.AbstractServer | None = None
        self._tcp_server: asyncio.AbstractServer | None = None
        self._handshakes = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._ready = asyncio.Condition()
        self._unsubscribe_lobby = lobby.subscribe(self._lobby_changed)

    def _lobby_changed(self) -> None:
        """Every worker is sent the lobby list, idle ones too: a player who lands on one
        sees the lobby as it is the moment they arrive."""
        for link in self.links:
            if link.worker is not None:
                link.lobby_changed()

    @property
    def session_count(self) -> int:
        return sum(len(link.sessions) for link in self.links)

    async def listen(self, path: Path) -> None:
        """Accept workers on the Unix socket `path` (made readable by this user only)."""
        path.unlink(missing_ok=True)
        self._server = await asyncio.start_unix_server(self._accept, str(path),
                                                       limit=1 << 20)
        path.chmod(0o600)

    async def listen_tls(self, host: str, port: int, context: ssl.SSLContext) -> int:
        """Accept worker machines on TCP `host:port` (the port it got, for port 0): each
        must first pass a TLS handshake with `context` (which asks for a certificate
        from the host's own CA); one that fails is logged and closed before a line of
        it is read."""
        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await self._accept_tls(reader, writer, context)

        self._tcp_server = await asyncio.start_server(accept, host, port, limit=1 << 20)
        return int(self._tcp_server.sockets[0].getsockname()[1])

    async def _accept_tls(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                          context: ssl.SSLContext) -> None:
        peer = writer.get_extra_info("peername")
        where = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        if self._handshakes >= MAX_HANDSHAKES:
            log.warning("refused a worker link from %s: too many handshakes at once", where)
            writer.transport.abort()
            return
        self._handshakes += 1
        try:
            keep_alive(writer)
            await writer.start_tls(context, ssl_handshake_timeout=HANDSHAKE_TIMEOUT)
        except (ssl.SSLError, OSError, TimeoutError, ConnectionError) as error:
            reason = getattr(error, "reason", None) or str(error) or type(error).__name__
            log.warning("refused a worker link from %s: %s", where, reason)
            writer.transport.abort()
            return
        finally:
            self._handshakes -= 1
        machine = peer_name(writer) or "?"
        log.info("worker link from %s (certificate %s)", where, machine)
        await self._accept(reader, writer, machine)

    async def _accept(self, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter, machine: str = "") -> None:
        link = WorkerLink(self, reader, writer, machine)
        self.links.append(link)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await link.run()
        finally:
            if task is not None:
                self._tasks.discard(task)

    def worker_ready(self, link: WorkerLink) -> None:
        link.lobby_changed()
        task = asyncio.get_running_loop().create_task(self._notify_ready())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notify_ready(self) -> None:
        async with self._ready:
            self._ready.notify_all()

    async def wait_workers(self, count: int, timeout: float) -> None:
        """Until `count` workers said hello (`TimeoutError` after `timeout` seconds)."""
        async def enough() -> None:
            async with self._ready:
                await self._ready.wait_for(
                    lambda: sum(link.worker is not None for link in self.links) >= count)

        await asyncio.wait_for(enough(), timeout)

    def worker_gone(self, link: WorkerLink) -> None:
        if link in self.links:
            self.links.remove(link)

    async def close(self) -> None:
        self._unsubscribe_lobby()
        for server in (self._server, self._tcp_server):
            if server is not None:
                server.close()
        self._server = self._tcp_server = None
        for link in list(self.links):
            link.close()
        if self._tasks:  # the links' readers see the end of their streams
            await asyncio.wait(list(self._tasks), timeout=5)
