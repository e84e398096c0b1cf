"""The lobby's "new table" dialog: the rules (the server's, and the player's own), the
seats and the bots for empty seats.

Listing the rulesets reads every file, and the rules on show are loaded from theirs: both
in a worker, never on the loop that draws (over SSH it draws everyone's screens).  Enter
pressed while the rules on show are still being read creates the table once they are.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ..colours import app_colours
from ..host import host, still_shown
from ..results import NewTable
from ..rules_reading import no_longer_loads, player_counts, read_rules
from ..widgets.choice_row import ChoiceRow

if TYPE_CHECKING:
    from pathlib import Path

    from tui.engine.rules import Ruleset
    from tui.engine.ruleset.loader import RulesetInfo


class CreateTableScreen(ModalScreen[NewTable | None]):
    """Dismisses with the choice and the rules as loaded here, so nothing reads the file
    again on a loop."""

    CSS_PATH = "create_table.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("enter", "create", "Create"),
                Binding("up", "app.focus_previous", "Up", show=False),
                Binding("down", "app.focus_next", "Down", show=False)]

    def __init__(self, user_dir: Path | None = None, confine: bool = False) -> None:
        super().__init__(classes="picker")
        from tui.service.lobby import bot_levels

        self.user_dir, self.confine = user_dir, confine
        self.infos: list[RulesetInfo] | None = None  # None: still being listed
        self.chosen: Ruleset | None = None  # the rules on show, loaded
        self.chosen_key: str | None = None  # whose file `chosen` was read from (None: reading)
        self._create_when_read = False
        self.levels = bot_levels()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="create-dialog"):
            yield Label("New table", classes="dialog-title")
            yield ChoiceRow("Rules", [], id="choose-rules")
            yield ChoiceRow("Seats", [("3", 3)], id="choose-seats")
            level = "medium" if "medium" in self.levels else self.levels[-1]
            yield ChoiceRow("Empty seats", [(f"{lvl} bots", lvl) for lvl in self.levels],
                            self.levels.index(level), id="choose-bots")
            yield Static(Text("Reading the rules…", Style(dim=True)), id="create-about")
            yield Label("↑↓ field · ←→ change · Enter create · Esc cancel",
                        classes="dialog-help")

    def on_mount(self) -> None:
        self._list_rules()
        self.query_one("#choose-rules").focus()

    @property
    def ready(self) -> bool:
        """The rules on show are read (or known not to load): Enter decides at once."""
        row = self.query_one("#choose-rules", ChoiceRow)
        return self.infos is not None and (not row.choices or self.chosen_key == row.value)

    @work(exclusive=True, group="create-list")
    async def _list_rules(self) -> None:
        from tui.engine.ruleset import list_rulesets

        listed = await asyncio.to_thread(list_rulesets, self.user_dir, self.confine)
        self._listed([i for i in listed if i.error is None and not i.shadowed])

    def _listed(self, infos: list[RulesetInfo]) -> None:
        if not still_shown(self):
            return  # the dialog was closed while the files were read
        self.infos = infos
        row = self.query_one("#choose-rules", ChoiceRow)
        row.set_choices([(i.name + (" (yours)" if i.origin == "user" else ""), i.key)
                         for i in infos], infos[0].key if infos else None)
        if infos:
            self._rules_chosen()
        else:
            self.query_one("#create-about", Static).update("")
            self._created_if_asked()

    @on(ChoiceRow.Changed, "#choose-rules")
    def _rules_chosen(self) -> None:
        rules_row = self.query_one("#choose-rules", ChoiceRow)
        if not rules_row.choices or self.infos is None:
            return
        info = next(i for i in self.infos if i.key == rules_row.value)
        self.chosen = self.chosen_key = None
        self.query_one("#create-about", Static).update(
            Text(f"Reading {info.name}…", Style(dim=True)))
        self._load_rules(info)

    @work(exclusive=True, group="create-load")
    async def _load_rules(self, info: RulesetInfo) -> None:
        rules, error = await asyncio.to_thread(read_rules, info, self.user_dir, self.confine)
        self._loaded(info, rules, error)

    def _loaded(self, info: RulesetInfo, rules: Ruleset | None, error: str) -> None:
        if not still_shown(self) or self.query_one("#choose-rules", ChoiceRow).value != info.key:
            return  # closed, or other rules chosen meanwhile (they are being read)
        self.chosen, self.chosen_key = rules, info.key
        about = self.query_one("#create-about", Static)
        if rules is None:
            about.update(no_longer_loads(info.name, host(self).env.shown(error),
                                         app_colours(self.app)))
        else:
            seats = self.query_one("#choose-seats", ChoiceRow)
            counts, preferred = player_counts(rules, seats.value)
            seats.set_choices([(str(n), n) for n in counts], preferred)
            about.update(Text(info.description, Style(dim=True)))
        self._created_if_asked()

    def _created_if_asked(self) -> None:
        if self._create_when_read:
            self._create_when_read = False
            self.action_create()

    def action_create(self) -> None:
        if not self.ready:
            self._create_when_read = True  # decided when the rules on show are read
            return
        rules = self.query_one("#choose-rules", ChoiceRow)
        if not rules.choices:
            self.notify("There are no rules to play by on this server.", severity="error")
            return
        if self.chosen is None:
            self.notify("These rules do not load: choose others.", severity="error")
            return
        self.dismiss(NewTable(str(rules.value),
                              int(self.query_one("#choose-seats", ChoiceRow).value),
                              str(self.query_one("#choose-bots", ChoiceRow).value),
                              self.chosen))

    def action_cancel(self) -> None:
        self.dismiss(None)
