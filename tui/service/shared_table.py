"""One table of the SSH lobby: its seats (people, bots, open), the people watching, one
bot driver, the grace period of a player who left, and its chat.

Many apps (one per SSH session) play at one `SharedTable`, all on the server's event
loop.  Each of them holds a `SeatHandle` and plays through a `SeatTable`, a stand-in for
`tui.service.table.Table` that can only ever read its own seat's view and act for its
own seat; a spectator's (seat -1) sees no hand and cannot act.  The table's own asyncio
task steps the bots at a steady pace and deals the next round once every player present
has seen the summary (or after a timeout), so no app drives anything.

A person who leaves (quits, drops, crashes) keeps their seat: after a grace period a bot
plays it for them, and they take it back by sitting down again as the same player (the
same SSH key, or a keyless player's one-time rejoin code: `tui.service.identity`).  A
player who comes back while their old session still holds the seat (a frozen connection)
takes it over, and the old session is told to close.  A table without anyone left is
closed.
"""


from __future__ import annotations

import asyncio
import contextvars
import logging
import random
from collections.abc import Callable, Sequence

from tui.engine.actions import IllegalAction
from tui.engine.rules import Ruleset
from tui.listeners import Listeners
from tui.service.chat import ChatMessage, ChatRoom
from tui.service.identity import Identity, new_rejoin_code, same_code
from tui.service.interface import SeatSpec, Status
from tui.service.kept_tables import SEAT_FIELDS, TableLog
from tui.service.lobby_config import LobbyConfig, LobbyError
from tui.service.seat_handle import HeldTable, SeatHandle
from tui.service.seats import Seat, same_name
from tui.service.table import Table

log = logging.getLogger(__name__)

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jun")


class SharedTable:
    """A table in the lobby, from the waiting room to the last deal."""

    def __init__(self, table_id: int, rules_key: str, rules: Ruleset, seats: int,
                 fill_level: str, host: str, config: LobbyConfig,
                 on_change: Callable[[SharedTable], None] = lambda t: None,
                 on_close: Callable[[SharedTable], None] = lambda t: None) -> None:
        self.id = table_id
        self.rules_key = rules_key
        self.rules = rules
        self.fill_level = fill_level
        self.host = host
        self.config = config
        self.seats = [Seat() for _ in range(seats)]
        self.status: Status = "waiting"
        self.table: Table | None = None
        self.chat = ChatRoom(history=config.chat_history)
        self.spectators: dict[int, str] = {}
        self._on_change = on_change
        self._on_close = on_close
        self._listeners: Listeners[[]] = Listeners(f"table {self.id}: a listener")
        self._driver: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._holders: dict[int, SeatHandle[SharedTable]] = {}  # seat -> who sits there
        self.turn_deadline: float | None = None
        """When the person to move runs out of time (event-loop clock), or None."""
        self._turn_key: tuple[int, int] | None = None  # (deal, seat) the deadline is for
        self._timed_out: set[int] = set()  # seats a bot plays this one turn for
        self._ready: dict[int, int] = {}  # seat -> round number whose summary it saw
        self._unsubscribe_table: Callable[[], None] | None = None
        self.kept: TableLog | None = None
        """Where the game is written down as it is played (`tui.service.table_keeper`)."""
        self.held_for_owners = False
        """Brought back by a restart, and no owner back yet: it does not close for being
        deserted (bots play the seats of owners who stay away)."""
        self.chat.subscribe(self._keep_said)  # the first listener: kept before it is shown

    # ------------------------------------------------------------------ reading
    @property
    def title(self) -> str:
        return self.rules.name

    def seats_taken(self) -> int:
        return sum(not seat.is_open for seat in self.seats)

    def person_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.person is not None]

    def present_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.person and seat.present]

    def seat_of(self, name: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if same_name(seat.person, name):
                return i
        return None

    def seat_specs(self) -> list[SeatSpec]:
        return [SeatSpec(seat.name or "(open)", None if seat.person and seat.present
                         else seat.describe(self.config.standin_level))
                for seat in self.seats]

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Be called after every change (moves, seats, status); exceptions are contained."""
        return self._listeners.subscribe(callback)

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    # ------------------------------------------------------------------ seats
    def may_take_back(self, index: int, who: Identity, code: str = "") -> bool:
        """True when `who` (or whoever holds the seat's rejoin `code`) owns chair `index`."""
        seat = self.seats[index]
        return seat.person is not None and (
            seat.owner == who.proof or (not who.has_key and same_code(code, seat.rejoin_code)))

    def refuse_take_back(self, index: int, who: Identity, code: str = "") -> None:
        """Raise `LobbyError` saying why, unless `who` may take chair `index` back."""
        if self.may_take_back(index, who, code):
            return
        name = self.seats[index].name
        if who.has_key or self.seats[index].owner.startswith("key:"):
            raise LobbyError(f"The seat of {name} at table {self.id} belongs to another "
                             "player.")
        raise LobbyError(f"The seat of {name} at table {self.id} is taken back with the "
                         "rejoin code shown when they sat down: "
                         + ("that code is not it." if code else "press j to enter it."))

    def sit(self, who: Identity, code: str = "",
            on_replaced: Callable[[], None] | None = None) -> SeatHandle[SharedTable]:
        """Sit `who` down: an open chair while waiting, or their own chair back - proved by
        their key, their session, or (keyless) the chair's rejoin `code`.  Coming back while
        an old session still holds the chair replaces that session (`on_replaced` of its
        handle is called).  Raises `LobbyError` with the reason."""
        if self.status == "closed":
            raise LobbyError("This table has closed.")
        name = who.name
        mine = self.seat_of(name)
        if mine is not None:
            self.refuse_take_back(mine, who, code)
            return self._come_back(mine, who, on_replaced)
        if self.status != "waiting":
            raise LobbyError("This game has already started: you can watch it.")
        free = next((i for i, seat in enumerate(self.seats) if seat.is_open), None)
        if free is None:
            raise LobbyError(f"Table {self.id} is full.")
        self.seats[free] = Seat(person=name, name=name, present=True, owner=who.proof,
                                rejoin_code=None if who.has_key else new_rejoin_code())
        self.chat.announce(f"{name} sat down.")
        handle = self._hold(free, SeatHandle(self, free, name, on_replaced))
        self._changed()
        if all(seat.person for seat in self.seats):
            self.start(name)
        return handle

    def _hold(self, index: int, handle: SeatHandle[SharedTable]) -> SeatHandle[SharedTable]:
        self._holders[index] = handle
        return handle

    def _come_back(self, index: int, who: Identity,
                   on_replaced: Callable[[], None] | None) -> SeatHandle[SharedTable]:
        seat = self.seats[index]
        lingering = self._holders.pop(index, None)
        if seat.owner != who.proof or lingering is not None:
            seat.rejoin_code = None if who.has_key else new_rejoin_code()  # one use only
        seat.owner = who.proof
        if seat.present and lingering is not None:
            lingering._replaced()
            self.chat.announce(f"{seat.name} reconnected.")
            handle = self._hold(index, SeatHandle(self, index, seat.person or seat.name,
                                                  on_replaced))
            self._changed()
            return handle
        seat.present = True
        self.held_for_owners = False
        timer = self._grace.pop(index, None)
        if timer is not None:
            timer.cancel()
        if seat.standin and self.table is not None:
            seat.standin = False
            self.table.set_bot(index, None)
        seat.standin = False
        self.chat.announce(f"{seat.name} is back.")
        handle = self._hold(index, SeatHandle(self, index, seat.person or seat.name,
                                              on_replaced))
        self._changed()
        return handle

    def watch(self, name: str) -> SeatHandle[SharedTable]:
        if self.status == "closed":
            raise LobbyError("This table has closed.")
        if self.table is None:
            raise LobbyError("The game has not started yet: join it, or watch once it starts.")
        if len(self.spectators) >= self.config.max_spectators:
            raise LobbyError(f"This table already has {len(self.spectators)} spectators.")
        handle = SeatHandle(self, -1, name)
        self.spectators[handle.id] = name
        self._changed()
        return handle

    def released(self, handle: SeatHandle[HeldTable]) -> None:
        if handle.seat < 0:
            self.spectators.pop(handle.id, None)
            self._changed()
            return
        if self.status == "closed" or self._holders.get(handle.seat) is not handle:
            return
        del self._holders[handle.seat]
        seat = self.seats[handle.seat]
        if not same_name(seat.person, handle.name) or not seat.present:
            return
        if self.status == "waiting":
            self.seats[handle.seat] = Seat()
            self.chat.announce(f"{handle.name} left.")
            if not self.person_seats():
                self.close()
                return
            if same_name(self.host, handle.name):
                self.host = self.seats[self.person_seats()[0]].person or self.host
        else:
            seat.present = False
            if self.status == "playing":
                grace = self.config.grace
                words = f"{grace:g} seconds" if grace < 120 else f"{grace / 60:g} minutes"
                self.chat.announce(f"{seat.name} left; a bot plays for them in {words} "
                                   "unless they come back.")
                self._hold_seat(handle.seat)
            else:
                self.chat.announce(f"{seat.name} left.")
        self._changed()
        self._close_if_deserted()

    def _hold_seat(self, index: int) -> None:
        """Keep an away person's seat for the grace period, then give it to a bot."""
        self._grace[index] = asyncio.get_running_loop().call_later(
            self.config.grace, self._grace_over, index, context=contextvars.Context())

    def _grace_over(self, index: int) -> None:
        self._grace.pop(index, None)
        seat = self.seats[index]
        if self.status != "playing" or seat.present or self.table is None:
            return
        seat.standin = True
        self.chat.announce(f"A {self.config.standin_level} bot plays for {seat.name} "
                           "until they come back.")
        self.table.set_bot(index, self.config.standin_level)
        self._close_if_deserted()

    def _close_if_deserted(self) -> None:
        if self.status in ("waiting", "closed") or (self.held_for_owners
                                                     and self.status == "playing"):
            return
        if self.present_seats() or self._grace:
            return
        self.close()

    # ------------------------------------------------------------------ playing
    def start(self, by: str) -> None:
        """Deal: open chairs get bots of the table's level; the driver starts."""
        if self.status != "waiting":
            raise LobbyError("This game has already started.")
        if self.seat_of(by) is None:
            raise LobbyError("Only players seated at the table can start it.")
        taken = {seat.person.casefold() for seat in self.seats if seat.person}
        names = iter(n for n in BOT_NAMES if n.casefold() not in taken)
        for index, seat in enumerate(self.seats):
            if seat.is_open:
                self.seats[index] = Seat(bot=self.fill_level,
                                         name=next(names, f"Bot {index + 1}"))
        specs = [SeatSpec(seat.name, seat.bot) for seat in self.seats]
        self.chat.announce("The game begins.")
        self._play(Table(self.rules, specs, seed=self.config.seed))

    def resume(self, table: Table, seats: Sequence[Seat]) -> None:
        """Go on with a game brought back after a restart (`tui.service.table_keeper`):
        every owner is away and keeps their seat for the grace period from now; then a bot
        plays it until they come back."""
        if self.status != "waiting":
            raise LobbyError("This game has already started.")
        self.seats = [Seat(person=seat.person, owner=seat.owner, rejoin_code=seat.rejoin_code,
                           bot=seat.bot, name=seat.name) for seat in seats]
        self.held_for_owners = True
        for index in self.person_seats():
            self._hold_seat(index)
        self._play(table)

    def _play(self, table: Table) -> None:
        self.table = table
        self.status = "playing"
        self._unsubscribe_table = self.table.subscribe(self._table_changed)
        # A context of its own: created from the context of whichever player's app
        # started the game, the task would keep that app alive as long as the table.
        self._driver = asyncio.get_running_loop().create_task(
            self._drive(), name=f"table-{self.id}-driver", context=contextvars.Context())
        self._changed()

    def ready(self, seat: int) -> None:
        """`seat` has seen the summary of the deal that just ended."""
        if self.table is None or seat < 0 or self.table.game.phase != "round_over":
            return
        number = self.table.game.round.number
        if self._ready.get(seat) == number:
            return
        self._ready[seat] = number
        waiting = [self.seats[s].name for s in self.present_seats()
                   if self._ready.get(s) != number]
        if waiting:
            self.chat.announce(f"{self.seats[seat].name} is ready for the next deal; "
                               f"waiting for {', '.join(waiting)}.")
        self._wake.set()

    def _table_changed(self) -> None:
        table = self.table
        if table is not None:  # written down before anyone is shown the move
            self._keep(lambda kept: kept.moved(table.game))
            if table.record_outcome is not None:  # finished and recorded: forgotten
                self._forget()
        self._wake.set()
        if self.table is not None and self.table.game.phase == "game_over" \
                and self.status == "playing":
            self.status = "finished"
            self.chat.announce("The game is over.")
            self._on_change(self)
            self._listeners.notify()
            self._close_if_deserted()  # (bots finished it for owners who never came back)
            return
        self._listeners.notify()

    async def _drive(self) -> None:
        """Step the bots and deal the rounds until the game ends or the table closes."""
        try:
            while self.status == "playing" and self.table is not None:
                self._wake.clear()
                phase = self.table.game.phase
                if phase == "game_over":
                    return
                if phase == "round_over":
                    self._end_timed_out_turns()
                    self._set_deadline(None)
                    await self._between_rounds()
                    continue
                self._end_timed_out_turns()
                seat = self.table.bot_to_move()
                if seat is None:
                    await self._wait_for_person()
                    continue
                self._set_deadline(None)
                await asyncio.sleep(self.config.bot_delay)
                await self._bot_move(seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bot driver failed; closing the table", self.id)
            self.chat.announce("The table hit an internal error and closes.")
            self.close()

    # ------------------------------------------------------------------ the turn timer
    def turn_seconds_left(self) -> float | None:
        """Seconds the person to move has left, or None when no clock runs."""
        if self.turn_deadline is None:
            return None
        return max(0.0, self.turn_deadline - asyncio.get_running_loop().time())

    def _set_deadline(self, key: tuple[int, int] | None) -> None:
        if key == self._turn_key:
            return
        self._turn_key = key
        timeout = self.config.turn_timeout
        self.turn_deadline = (None if key is None or not timeout
                              else asyncio.get_running_loop().time() + timeout)
        self._listeners.notify()  # the screens show the countdown (or stop showing it)

    async def _wait_for_person(self) -> None:
        """Wait for the person to move; when their time runs out, a bot plays the turn."""
        table = self.table
        assert table is not None
        game = table.game
        actor = game.actor
        person = 0 <= actor < len(self.seats) and self.seats[actor].person is not None
        if not person or game.phase not in ("draw", "play", "buy"):
            self._set_deadline(None)
            await self._wake.wait()
            return
        self._set_deadline((game.round.number, actor))
        if self.turn_deadline is None:
            await self._wake.wait()
            return
        remaining = self.turn_deadline - asyncio.get_running_loop().time()
        if remaining > 0:
            try:
                await asyncio.wait_for(self._wake.wait(), remaining)
                return
            except TimeoutError:
                pass
        if table.game.actor != actor or table.bot_to_move() is not None \
                or self.status != "playing":
            return
        self._timed_out.add(actor)
        self.chat.announce(f"{self.seats[actor].name}'s time ran out: a "
                           f"{self.config.standin_level} bot plays this turn for them.")
        table.set_bot(actor, self.config.standin_level)

    def _end_timed_out_turns(self) -> None:
        """A turn a bot played for a person is over: the seat is theirs again."""
        table = self.table
        if table is None or not self._timed_out:
            return
        for seat in list(self._timed_out):
            if table.game.actor != seat or table.game.phase not in ("draw", "play", "buy"):
                self._timed_out.discard(seat)
                if not self.seats[seat].standin:
                    table.set_bot(seat, None)

    async def _bot_move(self, seat: int) -> None:
        table = self.table
        if table is None or self.status != "playing" or table.bot_to_move() != seat:
            return
        game = table.game
        mark = len(game.history)
        try:
            choice = await asyncio.to_thread(table.bot_choice)
        except Exception:
            log.exception("table %s: bot in seat %s failed to choose", self.id, seat)
            choice = None
        # Anything may have happened while the bot thought (a player came back...).
        if (self.status != "playing" or self.table is not table or table.game is not game
                or table.bot_to_move() != seat or len(game.history) != mark):
            return
        if choice is not None and choice[0] == seat:
            try:
                table.act(seat, choice[1])
                return
            except IllegalAction as exc:
                log.error("table %s: bot in seat %s chose an illegal move: %s",
                          self.id, seat, exc)
        legal = table.game.legal_actions(seat)
        if not legal:
            raise RuntimeError(f"seat {seat} is to move but has no legal action")
        table.act(seat, random.choice(legal))

    async def _between_rounds(self) -> None:
        table = self.table
        assert table is not None
        loop = asyncio.get_running_loop()
        number = table.game.round.number
        started = loop.time()
        everyone_at: float | None = None
        config = self.config
        while self.status == "playing" and table.game.phase == "round_over":
            self._wake.clear()
            now = loop.time()
            ready = all(self._ready.get(s) == number for s in self.present_seats())
            if ready and everyone_at is None:
                everyone_at = now
            if ready and everyone_at is not None:
                deadline = everyone_at + config.summary_pause
            else:
                deadline = started + config.summary_timeout
            if now >= deadline:
                table.next_round()
                return
            try:
                await asyncio.wait_for(self._wake.wait(), deadline - now)
            except TimeoutError:
                pass

    # ------------------------------------------------------------------ ending
    def close(self) -> None:
        """Close the table: the driver stops, timers are cancelled, everyone is told.
        A kept game is forgotten (unless the server is stopping: see `table_keeper`)."""
        if self.status == "closed":
            return
        self._forget()
        self.status = "closed"
        for timer in self._grace.values():
            timer.cancel()
        self._grace.clear()
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()
        self._driver = None
        if self._unsubscribe_table is not None:
            self._unsubscribe_table()
            self._unsubscribe_table = None
        self._listeners.notify()
        self._listeners.clear()
        self._on_close(self)

    def _changed(self) -> None:
        self._keep(lambda kept: kept.seated(self.seat_records()))
        self._listeners.notify()
        self._on_change(self)

    # ------------------------------------------------------------------ kept on disk
    def seat_records(self) -> list[dict[str, str | None]]:
        """Who owns each seat, as kept (`tui.service.kept_tables.SEAT_FIELDS`)."""
        return [{name: getattr(seat, name) for name in SEAT_FIELDS} for seat in self.seats]

    def _keep_said(self, message: ChatMessage) -> None:
        self._keep(lambda kept: kept.said(message))

    def _keep(self, write: Callable[[TableLog], None]) -> None:
        """Write to the kept table; a table that cannot be written any more plays on,
        not kept (its file is removed rather than left behind, out of date)."""
        kept = self.kept
        if kept is None:
            return
        try:
            write(kept)
        except Exception:
            log.exception("table %s: cannot keep it on disk any more: it plays on, but a "
                          "restart of the server will not bring it back", self.id)
            self._forget()

    def _forget(self) -> None:
        """The game is over, or the table closed for good: no longer kept."""
        kept, self.kept = self.kept, None
        if kept is None:
            return
        try:
            kept.remove()
        except Exception:
            log.exception("table %s: removing it from the kept tables failed", self.id)
