"""Both in-process table services play the `TableService` protocol (mypy checks the
assignments below; the runtime check catches a member dropped from either)."""

from __future__ import annotations

from tui.engine.ruleset.loader import load_ruleset
from tui.service.interface import SeatSpec, TableService
from tui.service.lobby import Lobby, LobbyConfig
from tui.service.table import Table


def test_local_table_is_a_table_service() -> None:
    table: TableService = Table(load_ruleset("three_thirteen"),
                                [SeatSpec("me"), SeatSpec("Ada", "random")], seed=1)
    assert isinstance(table, TableService)
    assert table.record_outcome is None
    stop = table.refusals(lambda exc: None)
    stop()

async def test_seat_table_is_a_table_service() -> None:
    lobby = Lobby(LobbyConfig(seed=1))
    guest = lobby.enter("ann")
    handle = guest.create("three_thirteen", 2, "random")
    guest.start()
    seat: TableService = handle.table()
    assert isinstance(seat, TableService)
    assert seat.view(1).seat == handle.seat  # only its own seat, whatever is asked
    assert seat.record_outcome is None
    lobby.close()
