"""The table service: the one interface every front end plays a table through.

A table screen never holds a game.  It asks the service for its seat's view, sends actions
for its seat, and is told when anything changed.  Three services play this part:

- `tui.service.table.Table`: a whole game in this process (`rummy play`, tests);
- `tui.service.seat_handle.SeatTable`: one seat of a lobby table in the same process;
- `tui.net.remote_guest.RemoteTable`: one seat of a table owned by the game service in
  another process (`rummy serve`), which only ever receives that seat's views.

A service may decide an action later than `act` returns (the remote one asks another
process); such a refusal is reported to the `refusals` listeners instead of raised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tui.engine.actions import Action, IllegalAction
    from tui.engine.rules import Ruleset
    from tui.engine.view import SeatView
    from tui.records import RecordOutcome
    from tui.service.chat import ChatMessage

__all__ = ["ChatService", "LobbyClient", "Place", "SeatSpec", "Status", "TableService",
           "TableSummary", "no_subscription"]

Status = Literal["waiting", "playing", "finished", "closed"]
"""Where a lobby table is in its life."""


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a person (`bot` None) or a bot of that level."""

    name: str
    bot: str | None = None


def no_subscription() -> None:
    """What `refusals` returns on a table that refuses at once: nothing to unsubscribe."""


@runtime_checkable
class TableService(Protocol):
    """One table as a front end sees it (local, shared in-process, or remote)."""

    @property
    def rules(self) -> Ruleset:
        """The ruleset the table plays."""
        ...

    @property
    def seats(self) -> Sequence[SeatSpec]:
        """Who sits where, with a word on each seat (a bot level, `person`, `away`...)."""
        ...

    @property
    def record_outcome(self) -> RecordOutcome | None:
        """Where the finished game went in the records (None before the end, or never).
        The record is written away from the loop, so this is set a moment after the last
        move, and the listeners are told then."""
        ...

    def view(self, seat: int) -> SeatView:
        """What `seat` may see now (a service limited to one seat gives only its own).

        It lists the seat's legal moves, which may search for a go-out: a front end that
        renders calls it from a worker thread.  The table only changes on its own loop and
        tells its listeners each time, so a view read while it changed is known stale."""
        ...

    def act(self, seat: int, action: Action) -> None:
        """Play `action` for `seat`; raises `IllegalAction` (nothing changes) if refused
        now.  A refusal decided after this returned goes to the `refusals` listeners."""
        ...

    def humans(self) -> list[int]:
        """The seats people own."""
        ...

    def is_bot(self, seat: int) -> bool:
        ...

    def bot_to_move(self) -> int | None:
        """The bot seat the front end should step now; None if none (or not its job)."""
        ...

    def bot_choice(self) -> tuple[int, Action] | None:
        """What the bot to move would play, without playing it."""
        ...

    def step_bot(self) -> Action | None:
        """Let the bot to move play one action; None when there is none to step."""
        ...

    def next_round(self) -> None:
        """Deal the next round (at a shared table: "I have seen the summary")."""
        ...

    def hint(self, seat: int) -> str:
        """One line of advice for `seat` (may be slow: call it from a worker)."""
        ...

    def can_undo(self, seat: int) -> bool:
        ...

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last turn; `IllegalAction` if it cannot."""
        ...

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` after every change (possibly from another thread); returns the
        function that stops it."""
        ...

    def refusals(self, callback: Callable[[IllegalAction], None]) -> Callable[[], None]:
        """Call `callback` with every action refused after `act` returned."""
        ...

    def save(self, path: Path) -> None:
        """Write the game where it can be resumed (a shared table writes nothing)."""
        ...

    def save_text(self) -> str | None:
        """What `save` would write, taken now (None: a shared table, never saved), so a
        front end can write it away from its UI thread with `tui.atomic.write_atomic`."""
        ...


@runtime_checkable
class ChatService(Protocol):
    """A table's chat as one seat uses it: read, listen, and say things as oneself."""

    @property
    def messages(self) -> tuple[ChatMessage, ...]:
        ...

    @property
    def name(self) -> str:
        ...

    def say(self, text: str) -> ChatMessage:
        """Send a line; raises `ChatError` (nothing sent) with the reason."""
        ...

    def subscribe(self, callback: Callable[[ChatMessage], None]) -> Callable[[], None]:
        ...


@dataclass(frozen=True)
class Place:
    """Where one lobby guest is: a seat (or among the spectators) at one table."""

    table: int
    seat: int
    """-1 for a spectator."""
    status: Status
    dealt: bool
    """The game has started: there is a table to open."""
    ticket: int
    """New each time the guest sits or starts watching (tells two stays apart)."""
    rejoin_code: str | None = None
    """A keyless player's code to take this seat back from a new session (shown to them)."""

    @property
    def spectator(self) -> bool:
        return self.seat < 0


@dataclass(frozen=True)
class TableSummary:
    """One line of the lobby's list of tables (a snapshot)."""

    id: int
    rules_key: str
    title: str
    seats: tuple[tuple[str, str], ...]  # (name or "", what: person / away / bot level / open)
    status: Status
    spectators: int
    host: str
    fill_level: str

    @property
    def taken(self) -> int:
        return sum(what != "open" for _, what in self.seats)

    @property
    def people(self) -> int:
        return sum(what == "person" or what.startswith("away") for _, what in self.seats)


@runtime_checkable
class LobbyClient(Protocol):
    """One session in the lobby, as the lobby screen uses it: in this process
    (`tui.service.lobby.Guest`) or at a game service elsewhere (`tui.net.remote`).

    `create`, `join`, `watch`, `start` and `leave` raise `LobbyError` when refused now; a
    refusal decided later (by a service in another process) goes to `refusals`.  What
    they return is not for the screen (the place comes through `place`)."""

    @property
    def name(self) -> str:
        ...

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Be told of every change to the lobby list or to this guest's place."""
        ...

    def refusals(self, callback: Callable[[str], None]) -> Callable[[], None]:
        ...

    def notices(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Be told (in words for the player) when the game service goes out of reach and
        when it is back: only a lobby in another process can go."""
        ...

    def summaries(self) -> list[TableSummary]:
        ...

    def people(self) -> int:
        """Sessions connected to the lobby now."""
        ...

    def place(self) -> Place | None:
        ...

    def waiting_table(self) -> int | None:
        """The game in progress where this guest's seat waits for them, if any."""
        ...

    def seat_behind_code(self) -> int | None:
        """The table where a seat under this guest's name waits behind its rejoin code."""
        ...

    def table(self) -> TableService | None:
        """The table at this guest's place once dealt (None before, or if not seated)."""
        ...

    def chat(self) -> ChatService | None:
        ...

    def create(self, rules_key: str, seats: int, fill_level: str,
               rules: Ruleset | None = None) -> object:
        ...

    def join(self, table_id: int, code: str = "") -> object:
        ...

    def watch(self, table_id: int) -> object:
        ...

    def start(self) -> None:
        ...

    def leave(self) -> None:
        ...
