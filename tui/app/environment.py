"""Everything one running app needs from outside, handed to its constructor.

The app keeps no global state: the SSH server builds one `AppEnvironment` per connection
(player name from the SSH user, settings in memory, a table shared through its service),
while `rummy play` builds one for the local player with files in the user folders.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .settings import SettingsStore

if TYPE_CHECKING:
    from tui.engine.rules import Ruleset
    from tui.service.interface import LobbyClient, SeatSpec, TableService
    from tui.service.rules_quota import RulesQuota
    from tui.service.table import Table

    from .terminal_caps import TerminalCaps

SAVE_FILE = "current_game.json"

TableFactory = Callable[["Ruleset", "list[SeatSpec]", "int | None"], "Table"]


def _default_factory(rules: Ruleset, seats: list[SeatSpec], seed: int | None) -> Table:
    from tui.service.table import Table

    return Table(rules, seats, seed=seed)


def _default_loader(path: Path) -> Table:
    from tui.service.table import Table

    return Table.load(path)


@dataclass(frozen=True)
class GameRequest:
    """A game to start as soon as the app opens (`rummy play --rules …`)."""

    rules_key: str
    players: int | None = None
    bots: tuple[str, ...] = ()  # levels of the opponents, in seat order
    seed: int | None = None


@dataclass
class AppEnvironment:
    """What one app instance plays with.

    `table`/`seat` join a table that already exists (a shared, in-memory service);
    otherwise the app makes its own with `table_factory`.  `save_path` is where the game in
    progress is written after every action (None: never saved).  `drive_bots` says whether
    this app steps the bots on its timer; with several apps at one table only one should.
    """

    settings_store: SettingsStore = field(default_factory=lambda: SettingsStore(None))
    save_path: Path | None = None
    player_name: str | None = None
    table_factory: TableFactory = _default_factory
    table_loader: Callable[[Path], Table] = _default_loader
    table: TableService | None = None
    seat: int = 0
    drive_bots: bool = True
    request: GameRequest | None = None
    lesson: str | None = None
    """A lesson to open at once (`rummy learn RULES`): the ruleset key it plays."""
    can_quit_to_shell: bool = True
    lobby: LobbyClient | None = None
    """Set for SSH players: the app opens at the lobby of shared tables (as this guest)."""
    rulesets_dir: Path | None = None
    """The player's own rulesets (None: `tui.paths.user_rulesets_dir()`); over SSH each
    player has a folder of their own (`tui.paths.player_rulesets_dir`)."""
    rulesets_confined: bool = False
    """Set for SSH players: their files' `extends` may not reach outside their folder."""
    terminal: TerminalCaps | None = None
    """What the player's terminal can show (None: anything; an SSH session tells the app
    its player's terminal itself, `RummyApp.adopt_terminal`)."""

    @classmethod
    def local(cls, request: GameRequest | None = None) -> AppEnvironment:
        """The local player's environment: settings and saved game in the user folders."""
        from tui.paths import user_data_dir

        from .terminal_caps import local_terminal

        return cls(
            settings_store=SettingsStore.default(),
            save_path=user_data_dir() / SAVE_FILE,
            request=request,
            terminal=local_terminal(),
        )

    def rulesets_folder(self) -> Path:
        """Where this player's own rulesets are listed from and written to."""
        from tui.paths import user_rulesets_dir

        return self.rulesets_dir if self.rulesets_dir is not None else user_rulesets_dir()

    def shown(self, text: str) -> str:
        """`text` as this player may see it: a remote player (confined to their folder)
        sees no path of the server's (`tui.app.server_paths`)."""
        if not self.rulesets_confined:
            return text
        from .server_paths import hide_server_paths, server_folders

        return hide_server_paths(text, server_folders(self.rulesets_folder()))

    def rules_quota(self) -> RulesQuota | None:
        """The limits on this player's rules folder: a remote player's is on the server's
        disk (`tui.service.rules_quota`); a local player's has none."""
        if not self.rulesets_confined:
            return None
        from tui.service.rules_quota import RulesQuota

        return RulesQuota()
