"""Choosing a game: the ruleset (bundled or the player's own), how many players, each
opponent's name and level, and an optional seed for a repeatable deal.

Listing the rulesets reads every file, and the rules chosen are loaded from theirs: both in
a worker, never on the loop that draws.  Start pressed while the rules chosen are still
being read starts the game once they are."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from tui.service.names import clean_name

from ..colours import app_colours
from ..host import host, still_shown
from ..plain_text import plain_text
from ..rules_reading import no_longer_loads, player_counts, read_rules
from ..widgets.footer import Footer

if TYPE_CHECKING:
    from tui.engine.rules import Ruleset
    from tui.engine.ruleset.loader import RulesetInfo

OPPONENT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana")
MAX_SHOWN_PLAYERS = 8


def bot_levels() -> list[str]:
    from tui.bots import available_levels

    return available_levels() or ["random"]


def default_level(levels: list[str]) -> str:
    return "medium" if "medium" in levels else levels[-1]


class NewGameScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "start", "Start"),
    ]

    def __init__(self) -> None:
        super().__init__(classes="new-game-screen")
        self.user_dir = host(self).env.rulesets_folder()
        self.infos: list[RulesetInfo] | None = None  # None: still being listed
        self.levels = bot_levels()
        self.chosen: Ruleset | None = None  # the rules chosen, loaded (None: reading, or broken)
        self.chosen_key: str | None = None  # whose file `chosen` was read from
        self._reading: str | None = None  # the key being read (or read)
        self._start_when_read = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="form"):
            yield Label("New game", classes="form-title")
            with Horizontal(classes="row"):
                yield Label("Rules", classes="field")
                yield Select([], prompt="Reading the rules…", compact=True, id="ruleset")
            yield Static(Text("Reading the rules…", Style(dim=True)), id="ruleset-about")
            with Horizontal(classes="row"):
                yield Label("Players", classes="field")
                yield Select([(str(n), n) for n in range(2, 3)], compact=True,
                             id="players", allow_blank=False)
            with Vertical(id="opponents-form"):
                for i in range(MAX_SHOWN_PLAYERS - 1):
                    with Horizontal(classes="row opponent-row", id=f"opp-row-{i}"):
                        yield Label(f"Opponent {i + 1}", classes="field")
                        yield Input(OPPONENT_NAMES[i], compact=True, id=f"opp-name-{i}",
                                    max_length=16, classes="opp-name")
                        yield Select([(lvl, lvl) for lvl in self.levels],
                                     value=default_level(self.levels), allow_blank=False,
                                     compact=True, id=f"opp-level-{i}", classes="opp-level")
            with Horizontal(classes="row"):
                yield Label("Seed", classes="field")
                yield Input(placeholder="random", compact=True, id="seed", type="integer")
            yield Static(id="broken-rulesets")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", compact=True, id="start")
                yield Button("Back", compact=True, id="back")
        yield Footer()

    def on_mount(self) -> None:
        if not still_shown(self):
            return  # closed before it was mounted: its widgets are gone
        self.query_one("#broken-rulesets").display = False
        self._show_opponents(2)
        self._list_rules()

    @property
    def ready(self) -> bool:
        """The rulesets are listed and the rules chosen read (or known not to load)."""
        info = self._info()
        return self.infos is not None and (info is None or self.chosen_key == info.key)

    @work(exclusive=True, group="new-game-list")
    async def _list_rules(self) -> None:
        from tui.engine.ruleset import list_rulesets

        self._listed(await asyncio.to_thread(list_rulesets, self.user_dir))

    def _listed(self, listed: list[RulesetInfo]) -> None:
        if not still_shown(self):
            return  # the screen was closed while the files were read
        self.infos = [i for i in listed if i.error is None and not i.shadowed]
        broken = [i for i in listed if i.error is not None]
        if broken:
            # listed by file name: the author's text, like the file's contents
            shown = self.query_one("#broken-rulesets", Static)
            shown.update(plain_text("\n".join(f"{i.key}: {i.error}" for i in broken)))
            shown.display = True
        choice = self.query_one("#ruleset", Select)
        choice.prompt = "Choose the rules"
        choice.set_options([(plain_text(("★ " if not i.bundled else "") + i.name), i.key)
                            for i in self.infos])
        if self.infos:
            choice.value = self.infos[0].key
        self._ruleset_chosen()

    @on(Select.Changed, "#ruleset")
    def _ruleset_chosen(self) -> None:
        info = self._info()
        if info is None and self._reading in [i.key for i in self.infos or []]:
            # the prompt's blank row is no choice: back to the rules chosen
            self.query_one("#ruleset", Select).value = self._reading
            return
        about = self.query_one("#ruleset-about", Static)
        if info is None:
            self._reading = self.chosen = self.chosen_key = None
            about.update("")
            self._started_if_asked()
            return
        if info.key == self._reading:
            return  # (already being read, or read)
        self._reading, self.chosen, self.chosen_key = info.key, None, None
        about.update(Text(f"Reading {info.name}…", Style(dim=True)))
        self._load_rules(info)

    @work(exclusive=True, group="new-game-load")
    async def _load_rules(self, info: RulesetInfo) -> None:
        rules, error = await asyncio.to_thread(read_rules, info, self.user_dir)
        self._loaded(info, rules, error)

    def _loaded(self, info: RulesetInfo, rules: Ruleset | None, error: str) -> None:
        chosen = self._info() if still_shown(self) else None
        if chosen is None or chosen.key != info.key:
            return  # closed, or other rules chosen meanwhile (they are being read)
        self.chosen, self.chosen_key = rules, info.key
        about = self.query_one("#ruleset-about", Static)
        if rules is None:
            about.update(no_longer_loads(info.name, host(self).env.shown(error),
                                         app_colours(self.app)))
        else:
            about.update(Text(info.description))
            players = self.query_one("#players", Select)
            counts, preferred = player_counts(rules, players.value, MAX_SHOWN_PLAYERS)
            players.set_options([(str(n), n) for n in counts])
            players.value = preferred
            self._show_opponents(preferred)
        self._started_if_asked()

    def _started_if_asked(self) -> None:
        if self._start_when_read:
            self._start_when_read = False
            self.action_start()

    @on(Select.Changed, "#players")
    def _players_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self._show_opponents(event.value)

    def _show_opponents(self, players: int) -> None:
        for i in range(MAX_SHOWN_PLAYERS - 1):
            self.query_one(f"#opp-row-{i}").display = i < players - 1

    def _info(self) -> RulesetInfo | None:
        value = self.query_one("#ruleset", Select).value
        return next((i for i in self.infos or [] if i.key == value), None)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        if not self.ready:
            self._start_when_read = True  # started when the rules chosen are read
            return
        info = self._info()
        if info is None:
            self.notify("Choose a ruleset first.", severity="warning")
            return
        if self.chosen is None:
            self.notify("These rules do not load: choose others.", severity="error")
            return
        players = self.query_one("#players", Select).value
        if not isinstance(players, int):
            self.notify("Choose the number of players.", severity="warning")
            return
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self.notify(f"The seed must be a whole number, not {seed_text!r}.",
                        title="Seed", severity="warning")
            return
        opponents = []
        for i in range(players - 1):
            name = clean_name(self.query_one(f"#opp-name-{i}", Input).value, OPPONENT_NAMES[i])
            level = self.query_one(f"#opp-level-{i}", Select).value
            opponents.append((name, str(level)))
        host(self).start_game(self.chosen, opponents, seed)

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        self.dismiss()
