"""The limits and pace a lobby is run with, and the error a player's request gets:
shared by the lobby, its tables and the sessions' hold on them."""

from __future__ import annotations

from dataclasses import dataclass


class LobbyError(Exception):
    """Something a player asked the lobby that cannot be done; the text says why."""


@dataclass(frozen=True)
class LobbyConfig:
    """Limits and pace of a lobby; tests use a fast pace."""

    max_tables: int = 16
    max_spectators: int = 16
    bot_delay: float = 0.8
    """Seconds between two bot moves, so people can follow them."""
    grace: float = 60.0
    """Seconds a player who left keeps their seat before a bot plays it for them."""
    standin_level: str = "medium"
    """The bot that plays for a player who is away."""
    summary_pause: float = 1.0
    """Seconds between everyone having seen the summary and the next deal."""
    summary_timeout: float = 60.0
    """Seconds after which the next deal starts even if someone has not seen the summary."""
    chat_history: int = 100
    turn_timeout: float | None = 90.0
    """Seconds a person has for their turn; then the stand-in bot plays that turn for
    them (None: no limit)."""
    seed: int | None = None
    """Deal seed for every table (tests); None: random."""

