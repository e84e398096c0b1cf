"""The lobby of an SSH table server: the open tables, who is where, and the limits.

Pure Python on the server's event loop (no textual): each SSH session's app enters the
lobby as a `Guest` and creates, joins, watches and leaves tables through it; when the
session ends, however it ends, `Guest.close()` lets go of whatever it held.  A name that
looks like another player's (the same UTS #39 skeleton, `tui.service.names`) is refused.
The tables themselves (seats, bots, grace periods, chat) are
`tui.service.shared_table.SharedTable`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from tui.engine.rules import Ruleset
from tui.listeners import Listeners
from tui.service.identity import Identity, NameBook, NameTaken
from tui.service.interface import (
    ChatService,
    Place,
    TableService,
    TableSummary,
    no_subscription,
)
from tui.service.lobby_config import LobbyConfig, LobbyError
from tui.service.names import clean_name, look_alike
from tui.service.seat_handle import SeatHandle
from tui.service.seats import same_name
from tui.service.shared_table import SharedTable

__all__ = ["Guest", "Lobby", "LobbyConfig", "LobbyError", "TableSummary"]

log = logging.getLogger(__name__)

RulesLoader = Callable[[str], Ruleset]


def _load_rules(key: str) -> Ruleset:
    """A ruleset by key, among those installed or in the server's rules folder only:
    never a path, since the key may come from a remote player."""
    from tui.engine.ruleset import load_ruleset, ruleset_paths

    paths = {name: path for name, path, _ in ruleset_paths()}
    if key not in paths:
        raise LobbyError(f"No rules named {key!r} here: choose from {', '.join(sorted(paths))}.")
    return load_ruleset(paths[key])


def bot_levels() -> list[str]:
    from tui.bots import available_levels

    return available_levels() or ["random"]


class Lobby:
    """Every table of one server, and everyone in the lobby.

    `subscribe` callbacks run after any change a lobby list would show (tables created,
    seats taken, games started or finished, tables closed).
    """

    def __init__(self, config: LobbyConfig | None = None,
                 rules_loader: RulesLoader = _load_rules, names: NameBook | None = None) -> None:
        self.config = config or LobbyConfig()
        self._load_rules = rules_loader
        self.names = names if names is not None else NameBook()
        """Which SSH key owns which name (kept in the server's database by `rummy serve`)."""
        self._tables: dict[int, SharedTable] = {}
        self._next_id = 1
        self._guests: list[Guest] = []
        self._listeners: Listeners[[]] = Listeners("a lobby listener")

    # ------------------------------------------------------------------ reading
    @property
    def tables(self) -> list[SharedTable]:
        return list(self._tables.values())

    @property
    def guests(self) -> list[Guest]:
        return list(self._guests)

    def table(self, table_id: int) -> SharedTable:
        try:
            return self._tables[table_id]
        except KeyError:
            raise LobbyError(f"There is no table {table_id} (any more).") from None

    def summaries(self) -> list[TableSummary]:
        out = []
        level = self.config.standin_level
        for shared in self._tables.values():
            out.append(TableSummary(
                id=shared.id, rules_key=shared.rules_key, title=shared.title,
                seats=tuple((seat.name, seat.describe(level)) for seat in shared.seats),
                status=shared.status, spectators=len(shared.spectators), host=shared.host,
                fill_level=shared.fill_level))
        return out

    def waiting_seat(self, who: Identity, code: str = "") -> SharedTable | None:
        """The game in progress where `who` owns a chair they may take back now (proved
        by their key or session, or by `code`): away, or held by a lingering session of
        theirs."""
        for shared in self._tables.values():
            index = shared.seat_of(who.name)
            if index is None or shared.status != "playing":
                continue
            seat = shared.seats[index]
            if shared.may_take_back(index, who, code) and (
                    not seat.present or seat.owner == who.proof or code):
                return shared
        return None

    def seat_behind_code(self, who: Identity) -> SharedTable | None:
        """The game in progress where a keyless `who` has a chair under their name that
        only its rejoin code gives back."""
        if who.has_key:
            return None
        for shared in self._tables.values():
            index = shared.seat_of(who.name)
            if index is not None and shared.status == "playing" \
                    and shared.seats[index].rejoin_code is not None \
                    and not shared.may_take_back(index, who):
                return shared
        return None

    # ------------------------------------------------------------------ guests
    def enter(self, name: str, key: str = "",
              on_replaced: Callable[[], None] | None = None) -> Guest:
        """A session arrives: it acts in the lobby as `name` until `Guest.close()`.

        `key` is the fingerprint of the SSH key the player logged in with ("" for none):
        a key owns its name (see `tui.service.identity`).  `on_replaced` is called if the
        same player takes their seat from a newer session.  Raises `LobbyError` if the
        name belongs to another key."""
        name = clean_name(name)  # whoever sent it
        alike = look_alike(name, self._names_in_use())
        if alike is not None:
            raise LobbyError(f"The name {name} looks like {alike}, another player's name: "
                             "connect under a name of your own.")
        try:
            identity = self.names.admit(name, key)
        except NameTaken as exc:
            raise LobbyError(str(exc)) from None
        guest = Guest(self, identity, on_replaced)
        self._guests.append(guest)
        self._changed()
        return guest

    def _names_in_use(self) -> Iterator[str]:
        """Names a newcomer's must not look like: those in the lobby, at the tables, and
        those keys own."""
        yield from (guest.name for guest in self._guests)
        for shared in self._tables.values():
            yield from (seat.person for seat in shared.seats if seat.person)
        yield from self.names.names()

    def _left(self, guest: Guest) -> None:
        if guest in self._guests:
            self._guests.remove(guest)
        self._changed()

    # ------------------------------------------------------------------ tables
    def reserve_ids_above(self, last: int) -> None:
        """Number new tables after `last` (and after every table open): the numbers up to
        it belong to tables kept on disk, loadable or not."""
        self._next_id = max(self._next_id, last + 1, *(i + 1 for i in self._tables))

    def create(self, host: str, rules_key: str, seats: int, fill_level: str,
               rules: Ruleset | None = None, table_id: int | None = None) -> SharedTable:
        """A new waiting table (nobody seated yet); raises `LobbyError` with the reason.

        `rules` plays a ruleset the host brought (their own house rules, already loaded
        from their folder) instead of loading `rules_key` from the server's.  `table_id`
        gives a table brought back from disk its old number (not one in use)."""
        if table_id is not None and table_id in self._tables:
            raise LobbyError(f"Table {table_id} is already open.")
        if len(self._tables) >= self.config.max_tables:
            raise LobbyError(f"The server already has {len(self._tables)} tables, its "
                             "limit: join or watch one, or wait for one to close.")
        rules = rules if rules is not None else self.load_rules(rules_key)
        if not rules.players_min <= seats <= rules.players_max:
            raise LobbyError(f"{rules.name} is for {rules.players_min} to "
                             f"{rules.players_max} players, not {seats}.")
        levels = bot_levels()
        if fill_level not in levels:
            raise LobbyError(f"There is no {fill_level!r} bot: choose from "
                             f"{', '.join(levels)}.")
        if table_id is None:
            table_id = self._next_id
        self.reserve_ids_above(table_id)
        shared = SharedTable(table_id, rules_key, rules, seats, fill_level, host,
                             self.config, on_change=lambda t: self._changed(),
                             on_close=self._closed)
        self._tables[shared.id] = shared
        log.info("table %s: %s for %s created by %s", shared.id, rules.name, seats, host)
        self._changed()
        return shared

    def load_rules(self, key: str) -> Ruleset:
        """The server's ruleset `key` (read and checked: slow, so the game service calls
        it from a thread); `LobbyError` if it does not load."""
        from tui.engine.ruleset import RulesetError

        try:
            return self._load_rules(key)
        except RulesetError as exc:
            raise LobbyError(f"The rules {key!r} do not load: {exc.errors[0]}") from None
        except (OSError, ValueError) as exc:
            raise LobbyError(f"The rules {key!r} do not load: {exc}") from None

    def _closed(self, shared: SharedTable) -> None:
        if self._tables.pop(shared.id, None) is not None:
            log.info("table %s closed", shared.id)
        self._changed()

    def close(self) -> None:
        """Close every table (the server is shutting down)."""
        for shared in list(self._tables.values()):
            shared.close()

    # ------------------------------------------------------------------ watching
    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._listeners.subscribe(callback)

    def _changed(self) -> None:
        self._listeners.notify()


class Guest:
    """One session in the lobby: at most one table at a time, seated or watching.

    Plays the `tui.service.interface.LobbyClient` protocol the lobby screen uses."""

    def __init__(self, lobby: Lobby, identity: Identity,
                 on_replaced: Callable[[], None] | None = None) -> None:
        self.lobby = lobby
        self.identity = identity
        self.name = identity.name
        self._on_replaced = on_replaced
        self.handle: SeatHandle[SharedTable] | None = None
        self.closed = False
        self._unsubscribers: list[Callable[[], None]] = []

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Be told of lobby changes until this guest leaves (however the session ends)."""
        if self.closed:
            return lambda: None
        unsubscribe = self.lobby.subscribe(callback)
        self._unsubscribers.append(unsubscribe)
        return unsubscribe

    def refusals(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Nothing to listen to: the lobby in this process refuses at once, by raising."""
        return no_subscription

    def notices(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Nothing to listen to: the lobby in this process is never out of reach."""
        return no_subscription

    def summaries(self) -> list[TableSummary]:
        return self.lobby.summaries()

    def people(self) -> int:
        return len(self.lobby.guests)

    def place(self) -> Place | None:
        handle = self.handle
        if handle is None:
            return None
        shared = handle.shared
        status = shared.status if handle.active else "closed"
        return Place(shared.id, handle.seat, status, shared.table is not None, handle.id,
                     handle.rejoin_code)

    def waiting_table(self) -> int | None:
        shared = self.lobby.waiting_seat(self.identity)
        return shared.id if shared is not None else None

    def seat_behind_code(self) -> int | None:
        shared = self.lobby.seat_behind_code(self.identity)
        return shared.id if shared is not None else None

    def table(self) -> TableService | None:
        handle = self.handle
        if handle is None or not handle.active or handle.shared.table is None:
            return None
        return handle.table()

    def chat(self) -> ChatService | None:
        handle = self.handle
        return handle.chat if handle is not None and handle.active else None

    @property
    def shared(self) -> SharedTable | None:
        """The table this guest is at (seated or watching), while it is open."""
        handle = self.handle
        if handle is None or not handle.active or handle.shared.status == "closed":
            return None
        return handle.shared

    def _check_open(self) -> None:
        if self.closed:
            raise LobbyError("This session has ended.")

    def create(self, rules_key: str, seats: int, fill_level: str,
               rules: Ruleset | None = None) -> SeatHandle[SharedTable]:
        """Open a table and sit at it as its host (with `rules`: see `Lobby.create`)."""
        self._check_open()
        self.leave()
        shared = self.lobby.create(self.name, rules_key, seats, fill_level, rules)
        try:
            self.handle = shared.sit(self.identity, on_replaced=self._replaced)
        except LobbyError:
            shared.close()
            raise
        return self.handle

    def join(self, table_id: int, code: str = "") -> SeatHandle[SharedTable]:
        """Sit at a waiting table, or take one's own chair back at a game in progress
        (a keyless player from a new session: with the chair's rejoin `code`)."""
        self._check_open()
        shared = self.lobby.table(table_id)
        if self.handle is not None and self.handle.active and self.handle.shared is shared \
                and not self.handle.spectator:
            return self.handle
        index = shared.seat_of(self.name)
        if index is None or not shared.may_take_back(index, self.identity, code):
            self._check_can_sit(shared, code)
        self.leave()
        self.handle = shared.sit(self.identity, code, on_replaced=self._replaced)
        return self.handle

    def _replaced(self) -> None:
        """This player took their seat back from a newer session: this one is stale."""
        self.handle = None
        if self._on_replaced is not None:
            self._on_replaced()

    def _check_can_sit(self, shared: SharedTable, code: str = "") -> None:
        index = shared.seat_of(self.name)
        if index is not None and shared.status != "waiting":
            shared.refuse_take_back(index, self.identity, code)
            return
        if index is not None and shared.seats[index].present:
            raise LobbyError(f"{self.name} is already at table {shared.id} "
                             "(from another connection).")
        if shared.status != "waiting":
            raise LobbyError(f"The game at table {shared.id} has already started: "
                             "you can watch it.")
        if not any(seat.is_open for seat in shared.seats):
            raise LobbyError(f"Table {shared.id} is full.")
        if any(same_name(seat.name, self.name) for seat in shared.seats):
            raise LobbyError(f"Someone called {self.name} already sits at table {shared.id}.")

    def watch(self, table_id: int) -> SeatHandle[SharedTable]:
        """Watch a game (no hand is ever shown to a spectator)."""
        self._check_open()
        shared = self.lobby.table(table_id)
        if self.handle is not None and self.handle.active and self.handle.shared is shared \
                and self.handle.spectator:
            return self.handle
        handle = shared.watch(self.name)
        self.leave()
        self.handle = handle
        return handle

    def start(self) -> None:
        """Deal the game at this guest's waiting table (open chairs get bots)."""
        self._check_open()
        shared = self.shared
        if shared is None or self.handle is None or self.handle.spectator:
            raise LobbyError("Sit at a table first.")
        shared.start(self.name)

    def leave(self) -> None:
        """Get up (a seat at a game in progress is kept for the grace period)."""
        handle, self.handle = self.handle, None
        if handle is not None:
            handle.release()

    def close(self) -> None:
        """The session ended: leave whatever table, and the lobby."""
        if self.closed:
            return
        self.closed = True
        for unsubscribe in self._unsubscribers:
            unsubscribe()
        self._unsubscribers.clear()
        try:
            self.leave()
        finally:
            self.lobby._left(self)
