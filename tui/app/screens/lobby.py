"""The lobby of an SSH table server: the open tables, and the keys to create, join,
watch, start or leave one.

The screen plays only through the player's `LobbyClient`: each key asks the lobby, and a
refusal is shown as a notification; what the lobby then shows, and opening the table once
the game is dealt, is `LobbyView`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import on
from textual.binding import Binding
from textual.widgets import DataTable

from tui.service.lobby import LobbyError

from ..host import host
from ..results import QUICK_OPPONENT_LEVEL, NewTable, PlayRules
from .create_table import CreateTableScreen
from .lobby_view import LobbyView
from .rejoin_code import RejoinCodeScreen

if TYPE_CHECKING:
    from tui.engine.rules import Ruleset


class LobbyScreen(LobbyView):
    """Open tables, and the keys to create, join, watch, start and leave."""

    BINDINGS = [
        Binding("c", "create", "Create"),
        Binding("j", "join", "Join"),
        Binding("w", "watch", "Watch"),
        Binding("s", "start", "Start"),
        Binding("l", "leave", "Leave seat"),
        Binding("h", "learn", "How to play"),
        Binding("r", "rules", "Rules"),
        Binding("o", "settings", "Settings"),
        Binding("q", "quit", "Quit"),
    ]
    SEATED_ONLY = frozenset({"start", "leave"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Start and Leave seat are offered (shown and answered) only to a player with a
        place at a table: the key bar then has room for the rest at 80 columns."""
        # (the place itself, not the key bar's copy: a key pressed before the bar is
        # redrawn still answers)
        return self.guest.place() is not None if action in self.SEATED_ONLY else True

    def _try(self, act: Callable[[], Any]) -> bool:
        self._rejoin_until = 0.0  # the player chose for themselves
        try:
            act()
        except LobbyError as exc:
            self.notify(host(self).env.shown(str(exc)), title="Not possible",
                        severity="warning", markup=False)
            return False
        return True

    def action_create(self) -> None:
        def made(choice: NewTable | None) -> None:
            if choice is not None:
                self.host_table(choice.rules_key, choice.seats, choice.fill_level, choice.rules)

        env = host(self).env
        self.app.push_screen(CreateTableScreen(env.rulesets_folder(), env.rulesets_confined),
                             made)

    def host_table(self, rules_key: str, seats: int, fill_level: str,
                   rules: Ruleset | None = None) -> bool:
        """Open a table and sit at it as host (`rules`: the rules as the create dialog or
        the rules editor's "Play this" loaded them; None: the lobby loads `rules_key`)."""
        if not self._try(lambda: self.guest.create(rules_key, seats, fill_level, rules)):
            return False
        self.refresh_lobby()
        self._follow_my_table()
        return True

    def action_join(self) -> None:
        summary = self._selected()
        if summary is None:
            self.notify("Choose a table first (↑↓), or create one (c).", markup=False)
            return
        if self.guest.seat_behind_code() == summary.id:
            def entered(code: str | None) -> None:
                if code and self._try(lambda: self.guest.join(summary.id, code)):
                    self.refresh_lobby()
                    self._follow_my_table()

            self.app.push_screen(RejoinCodeScreen(summary.id), entered)
            return
        if self._try(lambda: self.guest.join(summary.id)):
            self.refresh_lobby()
            self._follow_my_table()

    def action_watch(self) -> None:
        summary = self._selected()
        if summary is None:
            self.notify("Choose a table first (↑↓).", markup=False)
            return
        if self._try(lambda: self.guest.watch(summary.id)):
            self._follow_my_table()

    @on(DataTable.RowSelected)
    def _row_chosen(self) -> None:
        summary = self._selected()
        if summary is None:
            return
        mine = any(name == self.guest.name for name, _ in summary.seats)
        if summary.status == "waiting" or mine:
            self.action_join()
        else:
            self.action_watch()

    def action_start(self) -> None:
        if self._try(self.guest.start):
            self._follow_my_table()

    def action_leave(self) -> None:
        self._rejoin_until = 0.0
        if self.guest.place() is None:
            self.notify("You are not seated at any table.", markup=False)
            return
        self.guest.leave()
        self.refresh_lobby()

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(), self._play_rules)

    def _play_rules(self, play: PlayRules | None) -> None:
        """"Play this" from the rules editor: open a table with those rules and sit at it."""
        if play is not None:
            self.host_table(play.key, play.seats(), QUICK_OPPONENT_LEVEL, play.rules)

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def action_learn(self) -> None:
        """A guided first deal, played in this session alone (q comes back here)."""
        from .learn import choose_lesson

        choose_lesson(self)

    def action_quit(self) -> None:
        self.app.exit()
