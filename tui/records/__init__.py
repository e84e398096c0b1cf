"""Game records: every finished game kept in an SQLite file, statistics and replays.

`record_finished_game` is what a front end calls when a game ends; `RecordStore` holds the
records, `Replay` steps through one, `summarize` computes the statistics.  Nothing here
imports the UI.
"""

from .recorder import (
    RecordOutcome,
    default_store,
    record_abandoned_game,
    record_finished_game,
)
from .store import GameSummary, RecordNotFound, RecordStore, RecordsUnavailable

__all__ = [
    "GameSummary",
    "RecordNotFound",
    "RecordOutcome",
    "RecordStore",
    "RecordsUnavailable",
    "default_store",
    "record_abandoned_game",
    "record_finished_game",
]
