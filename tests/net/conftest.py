"""The card room (`ssh_room.open_room`): an SSH server on 127.0.0.1 with its lobby, closed
after the test."""

from __future__ import annotations

import pytest
from ssh_room import open_room


@pytest.fixture
async def room():
    opened = await open_room()
    try:
        yield opened
    finally:
        await opened.close()
