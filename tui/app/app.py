"""The rummy app: main menu, new game, the table, rules and settings.

Everything it plays with comes in through an `AppEnvironment`, so one process can run many
apps at once (one per SSH player) around one shared table service.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.driver import Driver
from textual.notifications import SeverityLevel
from textual.screen import Screen

from tui.terminal_text import printable

from .cardart import CardStyle
from .colours import app_colours
from .environment import AppEnvironment
from .save_slot import TAKEN_MESSAGE, SaveSlot, set_aside
from .screens.damaged_save import DamagedSaveScreen
from .screens.menu import MenuScreen
from .settings import Settings
from .terminal_caps import TerminalCaps, plain_driver, rich_color_system
from .textual_caches import release_closed_widgets

if TYPE_CHECKING:
    from tui.engine.rules import Ruleset
    from tui.records import RecordOutcome
    from tui.service.interface import TableService
    from tui.service.table import Table


class RummyApp(App[None]):
    TITLE = "Rummy"
    CSS_PATH = ["app.tcss", "table.tcss", "forms.tcss"]
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, env: AppEnvironment | None = None) -> None:
        super().__init__()
        self.env = env or AppEnvironment()
        settings = self.env.settings_store.load()
        if self.env.player_name:
            settings = replace(settings, name=self.env.player_name).cleaned()
        elif settings.name == Settings().name:
            settings = replace(settings, name=_login_name() or settings.name).cleaned()
        self.settings = settings
        self._kept_card_style = settings.card_style  # what a plain terminal does not save
        self.terminal = TerminalCaps()
        if self.env.terminal is not None:
            self.adopt_terminal(self.env.terminal)
        self._told_slot_taken = False
        self.save_slot = SaveSlot(self.env.save_path) if self.env.save_path else None
        self._kept: Table | None = None
        """This window's game while another window holds the save slot: not saved, but
        kept here (for Continue) until it ends or the window closes."""

    def adopt_terminal(self, caps: TerminalCaps) -> None:
        """Draw for the player's terminal (before the app runs): its colours, and on one
        without UTF-8 plain letters for the cards and ASCII for everything else (the
        player can still choose suit symbols in Settings)."""
        self.terminal = caps
        self.console._color_system = rich_color_system(caps.colors)
        if not caps.unicode:
            self.settings = replace(self.settings, card_style="ascii")

    @property
    def plain_output(self) -> bool:
        """Whether every character sent to the terminal is made ASCII (`to_ascii`): on a
        terminal without UTF-8, unless the player chose suit symbols anyway."""
        return not self.terminal.unicode and self.settings.card_style == "ascii"

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this platform, sending only ASCII while `plain_output`
        (an SSH session's terminal does the same for its own driver)."""
        return plain_driver(super().get_driver_class())

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every notification is plain text: they carry names, rule names, file names and
        error messages, which are data and must never be read as markup (a name holding
        `[/]` would crash the app, `[@click=...]` would plant an action) nor reach the
        terminal as control characters (escaped here, once for every screen).  `markup`
        is accepted for Textual's callers and ignored."""
        super().notify(printable(message, keep="\n"), title=printable(title),
                       severity=severity, timeout=timeout, markup=False)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette (Ctrl+P): Textual's own commands (theme, keys, quit), the
        app's screens and, at the table, the moves of the moment."""
        from .command_palette import screen_commands, table_commands
        from .screens.table import TableScreen

        yield from super().get_system_commands(screen)
        if self.env.lobby is None:
            yield from screen_commands(self._open_from_palette, self.has_game_in_progress())
        if isinstance(screen, TableScreen):
            yield from table_commands(screen)

    def _open_from_palette(self, choice: str) -> None:
        if choice == "continue":
            self.resume_game()
            return
        menu = next((s for s in self.screen_stack if isinstance(s, MenuScreen)), None)
        if menu is not None:
            menu.action_choose(choice)

    # ------------------------------------------------------------------ start-up
    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, lambda _screen: release_closed_widgets())
        self._apply_theme()
        if self.env.lobby is not None:
            from .screens.lobby import LobbyScreen

            self.push_screen(LobbyScreen(self.env.lobby))
            return
        self.push_screen(MenuScreen())
        if self.env.table is not None:
            self.open_table(self.env.table, self.env.seat)
        elif self.env.request is not None:
            self._start_requested()
        elif self.env.lesson is not None:
            self.open_lesson(self.env.lesson)

    def on_unmount(self) -> None:
        if self.save_slot is not None:
            self.save_slot.release()

    def _apply_theme(self) -> None:
        """The theme, and ASCII mode's plain borders (`.-ascii` in the stylesheets)."""
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self.set_class(self.settings.card_style == "ascii", "-ascii")

    def _start_requested(self) -> None:
        from tui.engine.ruleset import RulesetError, load_ruleset

        request = self.env.request
        assert request is not None
        try:
            rules = load_ruleset(request.rules_key)
        except (RulesetError, FileNotFoundError, OSError, ValueError) as exc:
            self.notify(str(exc), title="Cannot load the rules", severity="error", timeout=10)
            return
        players = request.players or max(rules.players_min, min(3, rules.players_max))
        names = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana")
        levels = list(request.bots) or ["medium"]
        opponents = [(names[i % len(names)], levels[min(i, len(levels) - 1)])
                     for i in range(players - 1)]
        self.start_game(rules, opponents, request.seed)

    # ------------------------------------------------------------------ games
    def card_style(self) -> CardStyle:
        return CardStyle(ascii=self.settings.card_style == "ascii",
                         four_colour=self.settings.colours == "four", colours=app_colours(self))

    def has_game_in_progress(self) -> bool:
        """A game this window can continue: a shared table, or a saved game in the save slot
        (one that another window holds is that window's game, not this one's)."""
        if self.env.table is not None or self._kept is not None:
            return True
        slot = self.save_slot
        return slot is not None and slot.has_game() and slot.claim()

    def claimed_save_path(self, tell: bool = True) -> Path | None:
        """Where this window saves its game: the save slot, if no other window holds it
        (the player is told once when one does; with `tell` False the caller tells)."""
        slot = self.save_slot
        if slot is None:
            return None
        if slot.claim():
            return slot.path
        if not self._told_slot_taken:
            self._told_slot_taken = True
            if tell:
                self.notify(TAKEN_MESSAGE, title="Not saving", severity="warning",
                            timeout=10)
        return None

    def start_game(self, rules: Ruleset, opponents: Sequence[tuple[str, str]],
                   seed: int | None) -> None:
        """Seat the player and the chosen opponents at a new table and open it; with a game
        in progress, ask first."""
        if not self.has_game_in_progress():
            self._start_new_game(rules, opponents, seed)
            return
        from .screens.pickers import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self._replace_game_in_progress(rules, opponents, seed)

        self.push_screen(ConfirmScreen(
            "Abandon the game in progress?",
            f"Starting {rules.name} ends the game you have not finished; the records "
            "keep it as abandoned.",
            "Abandon it and start the new game", "Keep it (back)"), answered)

    @work(exclusive=True, group="game-file")
    async def _replace_game_in_progress(self, rules: Ruleset,
                                        opponents: Sequence[tuple[str, str]],
                                        seed: int | None) -> None:
        """Record the saved, unfinished game as abandoned and forget it (a table shared
        with others is only left, never abandoned for them), then start the new one.  The
        save is read in a thread, not on the loop that draws; the record is written in
        the records thread, and a problem with it is told when it is known."""
        from tui.engine.save import SaveError

        kept, self._kept = self._kept, None
        if kept is not None:  # this window's unsaved game
            kept.abandon(self._abandoned_recorded)
        path = self.claimed_save_path()
        if self.env.table is None and kept is None and path is not None:
            try:
                old = await asyncio.to_thread(self._saved_table, path)
            except SaveError:
                old = None  # a damaged save cannot be recorded; it is replaced anyway
            if old is not None:
                old.abandon(self._abandoned_recorded)
        self.env.table = None
        if path is not None:
            await asyncio.to_thread(path.unlink, missing_ok=True)
        self._start_new_game(rules, opponents, seed)

    def _saved_table(self, path: Path) -> Table | None:
        """The table saved at `path` (None: no file there); raises SaveError."""
        return self.env.table_loader(path) if path.exists() else None

    def _abandoned_recorded(self, outcome: RecordOutcome) -> None:
        if outcome.message:
            self.notify(outcome.message, title="Records", severity="warning", timeout=8)

    def _start_new_game(self, rules: Ruleset, opponents: Sequence[tuple[str, str]],
                        seed: int | None) -> None:
        from tui.service.interface import SeatSpec

        seats = [SeatSpec(self.settings.name, None)]
        seats += [SeatSpec(name, level) for name, level in opponents]
        try:
            table = self.env.table_factory(rules, seats, seed)
        except (ValueError, KeyError) as exc:
            self.notify(str(exc), title="Cannot start this game", severity="error", timeout=10)
            return
        if self.save_slot is not None and not self.save_slot.claim():
            self._kept = table  # another window saves there: this game is kept here
        self.open_table(table, 0)

    def play_again(self, finished: TableService, rules: Ruleset,
                   opponents: Sequence[tuple[str, str]]) -> None:
        """A new game with the rules and opponents of the `finished` one (it is over: no
        game is abandoned, nothing is asked)."""
        if self.env.table is finished:
            self.env.table = None
        self.game_over(finished)
        self._leave_then_start(rules, opponents)

    @work(exclusive=True, group="game-file")
    async def _leave_then_start(self, rules: Ruleset,
                                opponents: Sequence[tuple[str, str]]) -> None:
        """Back to the menu (the finished table's screen gone), then the new game."""
        while len(self.screen_stack) > 2 and not isinstance(self.screen, MenuScreen):
            await self.pop_screen()
        self._start_new_game(rules, opponents, None)

    def game_over(self, table: TableService) -> None:
        """A table's game has ended: this window's unsaved game is no longer kept."""
        if self._kept is table:
            self._kept = None

    def resume_game(self) -> None:
        if self.env.table is not None:
            self.open_table(self.env.table, self.env.seat)
            return
        if self._kept is not None:
            self.open_table(self._kept, 0)
            return
        if not self.has_game_in_progress():
            self.notify("There is no game in progress.", severity="warning")
            return
        path = self.claimed_save_path()
        if path is not None:
            self._resume_saved(path)

    @work(exclusive=True, group="game-file")
    async def _resume_saved(self, path: Path) -> None:
        """Load the saved game in a thread (it is read and replayed), not on the loop that
        draws; a damaged one is reported, never half-loaded."""
        from tui.engine.save import SaveError

        try:
            table = await asyncio.to_thread(self.env.table_loader, path)
        except SaveError as exc:
            self.push_screen(DamagedSaveScreen(str(exc)),
                             lambda start_anew: self._after_damaged_save(path, start_anew))
            return
        self.open_table(table, self.env.seat)

    def _after_damaged_save(self, path: Path, start_anew: bool | None) -> None:
        if not start_anew:
            return
        kept = set_aside(path)
        if kept is not None:
            self.notify(f"The damaged save was kept as {kept.name}.", timeout=6)
        from .screens.new_game import NewGameScreen

        self.push_screen(NewGameScreen())

    def open_table(self, table: TableService, seat: int) -> None:
        from tui.service.table import Table

        from .screens.table import TableScreen
        from .table_session import TableSession

        if isinstance(table, Table):  # (a shared table takes nothing back)
            table.undo_turns = self.settings.undo == "turns"

        while len(self.screen_stack) > 2 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()
        told = self._told_slot_taken
        path = self.claimed_save_path(tell=False)  # (the table tells, in its notice line)
        notice = TAKEN_MESSAGE if path is None and self._told_slot_taken != told else ""
        self.push_screen(TableScreen(TableSession(table, seat, path, self.env.drive_bots,
                                                  notice=notice)))

    @work(exclusive=True, group="lesson")
    async def open_lesson(self, key: str) -> None:
        """Open the guided deal of the ruleset `key` (its files read in a thread)."""
        from tui.engine.ruleset import RulesetError, load_ruleset
        from tui.service.lesson import LessonTable
        from tui.service.lessons import LessonError, load_lesson

        from .screens.learn import LearnScreen

        def build() -> LessonTable:
            lesson = load_lesson(key)
            return LessonTable(lesson, load_ruleset(lesson.rules), self.settings.name)

        try:
            table = await asyncio.to_thread(build)
        except (LessonError, RulesetError, ValueError) as exc:
            self.notify(str(exc), title="Cannot open the lesson", severity="error",
                        timeout=10, markup=False)
            return
        self.push_screen(LearnScreen(table))

    # ------------------------------------------------------------------ settings
    def save_settings(self, settings: Settings) -> None:
        """Adopt and persist new settings (raises OSError if they cannot be written)."""
        self.settings = settings.cleaned()
        self._apply_theme()
        kept = self.settings
        if not self.terminal.unicode:  # this terminal's plain letters are not a choice
            kept = replace(kept, card_style=self._kept_card_style)
        self.env.settings_store.save(kept)


def _login_name() -> str:
    """The login name, capitalised, as a friendlier default than "Player"."""
    import getpass

    try:
        return getpass.getuser().strip().capitalize()[:24]
    except (KeyError, OSError):  # no user name in the environment or password database
        return ""
