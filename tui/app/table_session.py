"""Which seat at which table a table screen plays, kept apart from the screens so the
table and its summaries can all name it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.service.interface import ChatService, TableService


@dataclass
class TableSession:
    """One player's seat at one table, and where the game is saved after each action."""

    table: TableService
    seat: int = 0
    save_path: Path | None = None
    drive_bots: bool = True
    chat: ChatService | None = None  # a shared table's chat, shown as a chat line
    rejoin_code: str | None = None
    """A keyless SSH player's code to take this seat back from a new session (shown)."""
    notice: str = ""
    """Told at the table as it opens (this window does not save: another holds the slot)."""
