"""The game service listening on its socket in the test's tmp_path (`service.sock`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted_worker import FAST

from tui.service.authority import GameService
from tui.service.lobby import Lobby


@pytest.fixture
async def service(tmp_path: Path):
    lobby = Lobby(FAST)
    service = GameService(lobby)
    await service.listen(tmp_path / "service.sock")
    yield service
    await service.close()
    lobby.close()
