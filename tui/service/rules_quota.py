"""How much a remote player may keep in their rules folder on the server's disk.

Over SSH every player has a folder of house rules (`tui.paths.player_rulesets_dir`) that
they fill from the lobby by keystrokes alone; without a limit one player could fill the
server's disk.  A save or a new file is refused, with the reason, when it would take the
folder past `max_files` rulesets or a file past `max_bytes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class QuotaError(Exception):
    """The write would go past the player's quota; the text says which, for them."""


@dataclass(frozen=True)
class RulesQuota:
    max_files: int = 20
    max_bytes: int = 32 * 1024

    def check(self, folder: Path, target: Path, size: int) -> None:
        """Raise `QuotaError` unless `size` bytes may be written to `target` in `folder`."""
        if size > self.max_bytes:
            raise QuotaError(f"A rules file may hold at most {self.max_bytes // 1024} KiB on "
                             f"this server; this one is {size / 1024:.0f} KiB.")
        try:
            existing = {p.name for p in folder.glob("*.yaml")} if folder.is_dir() else set()
        except OSError:
            existing = set()
        if target.name not in existing and len(existing) >= self.max_files:
            raise QuotaError(f"You already keep {len(existing)} rules files here, the most "
                             "this server allows: delete or reuse one.")
