"""A session's hold on one shared table: its seat (or place among the spectators), its
chat, and the `Table` stand-in it plays through, which can only read its own seat's view
and act for its own seat.  Whatever the session subscribed to is dropped when it lets go,
so a session that ended leaves nothing behind at the table."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from tui.engine.actions import Action, IllegalAction
from tui.engine.rules import Ruleset
from tui.engine.view import SeatView
from tui.records import RecordOutcome
from tui.service.chat import ChatMessage, ChatRoom
from tui.service.interface import SeatSpec, no_subscription
from tui.service.lobby_config import LobbyError
from tui.service.seats import Seat
from tui.service.table import Table

log = logging.getLogger(__name__)


class HeldTable(Protocol):
    """What a handle needs of the table it holds (`tui.service.shared_table.SharedTable`)."""

    id: int
    rules: Ruleset
    seats: list[Seat]
    table: Table | None
    chat: ChatRoom

    def seat_specs(self) -> list[SeatSpec]: ...

    def person_seats(self) -> list[int]: ...

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]: ...

    def ready(self, seat: int) -> None: ...

    def turn_seconds_left(self) -> float | None: ...

    def released(self, handle: SeatHandle[HeldTable]) -> None:
        """`handle` let go of its seat or place (its subscriptions are dropped)."""


T = TypeVar("T", bound=HeldTable, covariant=True)


class SeatHandle(Generic[T]):
    """What one session holds at one table: a seat, or a place among the spectators.

    Everything the session subscribed to through it is dropped on `release()`, so a
    session that ended (for whatever reason) leaves nothing behind at the table.
    """

    _ids = itertools.count(1)

    def __init__(self, shared: T, seat: int, name: str,
                 on_replaced: Callable[[], None] | None = None) -> None:
        self.id = next(self._ids)
        self.shared = shared
        self.seat = seat
        self.name = name
        self.active = True
        self.on_replaced = on_replaced
        """Called when the same player sat down in this seat from another session."""
        self._unsubscribers: list[Callable[[], None]] = []

    @property
    def rejoin_code(self) -> str | None:
        """The code that takes this seat back from a new session (keyless players only)."""
        if self.seat < 0 or not self.active:
            return None
        return self.shared.seats[self.seat].rejoin_code

    @property
    def spectator(self) -> bool:
        return self.seat < 0

    def table(self) -> SeatTable:
        """The table as this seat sees it (what a `TableScreen` plays with)."""
        return SeatTable(self)

    @property
    def chat(self) -> ChatLink:
        return ChatLink(self)

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Be told of every change at the table while this handle is held."""
        if not self.active:
            return lambda: None
        unsubscribe = self.shared.subscribe(callback)
        self._unsubscribers.append(unsubscribe)
        return unsubscribe

    def _track(self, unsubscribe: Callable[[], None]) -> Callable[[], None]:
        self._unsubscribers.append(unsubscribe)
        return unsubscribe

    def release(self) -> None:
        """Leave the table (idempotent): a person keeps their seat for the grace period."""
        if not self.active:
            return
        self._let_go()
        self.shared.released(self)

    def _let_go(self) -> None:
        self.active = False
        for unsubscribe in self._unsubscribers:
            unsubscribe()
        self._unsubscribers.clear()

    def _replaced(self) -> None:
        """The same player took this seat from another session: this one holds nothing."""
        if not self.active:
            return
        self._let_go()
        if self.on_replaced is not None:
            try:
                self.on_replaced()
            except Exception:
                log.exception("table %s: closing a replaced session failed", self.shared.id)


class ChatLink:
    """The table's chat as one seat uses it: read, listen, and say things as oneself."""

    def __init__(self, handle: SeatHandle[HeldTable]) -> None:
        self._handle = handle

    @property
    def messages(self) -> tuple[ChatMessage, ...]:
        return self._handle.shared.chat.messages

    @property
    def name(self) -> str:
        return self._handle.name

    def say(self, text: str) -> ChatMessage:
        """Send a line; raises `ChatError` (nothing sent) with the reason."""
        from tui.service.chat import ChatError

        handle = self._handle
        if not handle.active:
            raise ChatError("You are no longer at this table.")
        sender = f"{handle.name} (watching)" if handle.spectator else handle.name
        return handle.shared.chat.say(sender, text)

    def subscribe(self, callback: Callable[[ChatMessage], None]) -> Callable[[], None]:
        if not self._handle.active:
            return lambda: None
        return self._handle._track(self._handle.shared.chat.subscribe(callback))


class SeatTable:
    """The shared table as seen from one seat: the `Table` interface a `TableScreen` uses,
    limited to that seat.  It reads only its own seat's view, acts only for its own seat,
    never steps bots and cannot undo; `next_round` means "I have seen the summary"."""

    def __init__(self, handle: SeatHandle[HeldTable]) -> None:
        self.handle = handle
        self.seat = handle.seat
        self.shared = handle.shared

    @property
    def _table(self) -> Table:
        table = self.shared.table
        if table is None:
            raise LobbyError("The game has not started yet.")
        return table

    @property
    def rules(self) -> Ruleset:
        return self.shared.rules

    @property
    def seats(self) -> list[SeatSpec]:
        """Who sits where, with a word on each seat (`person`, a bot level, `away`...)."""
        return self.shared.seat_specs()

    @property
    def chat(self) -> ChatLink:
        return self.handle.chat

    def view(self, seat: int | None = None) -> SeatView:
        """This seat's view, whatever seat is asked for: no other seat's hand is reachable."""
        return self._table.view(self.seat)

    def act(self, seat: int, action: Action) -> None:
        if self.seat < 0:
            raise IllegalAction("you are watching this table, not playing at it", "seats")
        if seat != self.seat or action.seat != self.seat:
            raise IllegalAction("you can only play for your own seat", "seats")
        if not self.handle.active:
            raise IllegalAction("you are no longer seated at this table", "seats")
        self._table.act(self.seat, action)

    def humans(self) -> list[int]:
        return self.shared.person_seats()

    def is_bot(self, seat: int) -> bool:
        return self._table.is_bot(seat)

    def bot_to_move(self) -> int | None:
        return None  # the table's own driver moves the bots

    def bot_choice(self) -> tuple[int, Action] | None:
        return None

    def step_bot(self) -> None:
        return None

    def turn_seconds_left(self) -> float | None:
        """The countdown of the person to move (`tui.service.turn_clock.TurnClock`)."""
        return self.shared.turn_seconds_left()

    def next_round(self) -> None:
        """This seat has seen the summary; the table deals when everyone has."""
        self.shared.ready(self.seat)

    def hint(self, seat: int | None = None) -> str:
        if self.seat < 0:
            return "You are watching: there is nothing for you to play."
        return self._table.hint(self.seat)

    def can_undo(self, seat: int | None = None) -> bool:
        return False

    def undo(self, seat: int | None = None) -> None:
        raise IllegalAction("moves cannot be taken back at a shared table", "undo")

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self.handle.subscribe(callback)

    def refusals(self, callback: Callable[[IllegalAction], None]) -> Callable[[], None]:
        """Nothing to listen to: this table refuses at once, by raising from `act`."""
        return no_subscription

    @property
    def record_outcome(self) -> RecordOutcome | None:
        table = self.shared.table
        return table.record_outcome if table is not None else None

    def save(self, path: Path) -> None:
        """Shared tables are not saved to a player's file."""

    def save_text(self) -> str | None:
        return None
