"""Choosing a game: the ruleset (bundled or the player's own), how many players, each
opponent's name and level, and an optional seed for a repeatable deal."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from tui.service.names import clean_name

from ..host import host
from ..plain_text import plain_text
from ..widgets.footer import Footer

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
        super().__init__(id="new-game")
        from tui.engine.ruleset import list_rulesets

        self.user_dir = host(self).env.rulesets_folder()
        listed = list_rulesets(self.user_dir)
        self.infos = [i for i in listed if i.error is None and not i.shadowed]
        self.broken = [i for i in listed if i.error is not None]
        self.levels = bot_levels()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="form"):
            yield Label("New game", classes="form-title")
            with Horizontal(classes="row"):
                yield Label("Rules", classes="field")
                yield Select(
                    [(plain_text(("★ " if not i.bundled else "") + i.name), i.key)
                     for i in self.infos],
                    value=self.infos[0].key if self.infos else Select.BLANK,
                    allow_blank=False, compact=True, id="ruleset")
            yield Static(id="ruleset-about")
            with Horizontal(classes="row"):
                yield Label("Players", classes="field")
                yield Select([(str(n), n) for n in self._player_range()], compact=True,
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
            if self.broken:
                # listed by file name: the author's text, like the file's contents
                yield Static(plain_text("\n".join(f"{i.key}: {i.error}" for i in self.broken)),
                             id="broken-rulesets")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", compact=True, id="start")
                yield Button("Back", compact=True, id="back")
        yield Footer()

    def _player_range(self) -> range:
        if not self.infos:
            return range(2, 3)
        from tui.engine.ruleset import load_ruleset

        rules = load_ruleset(self.infos[0].path, self.user_dir)
        return range(rules.players_min, min(rules.players_max, MAX_SHOWN_PLAYERS) + 1)

    def on_mount(self) -> None:
        self._ruleset_chosen()

    @on(Select.Changed, "#ruleset")
    def _ruleset_chosen(self) -> None:
        info = self._info()
        if info is None:
            return
        self.query_one("#ruleset-about", Static).update(Text(info.description))
        rules = self._rules()
        players = self.query_one("#players", Select)
        low, high = rules.players_min, min(rules.players_max, MAX_SHOWN_PLAYERS)
        current = players.value if isinstance(players.value, int) else None
        players.set_options([(str(n), n) for n in range(low, high + 1)])
        preferred = current if current is not None and low <= current <= high else min(
            max(low, 3), high)
        players.value = preferred
        self._show_opponents(preferred)

    @on(Select.Changed, "#players")
    def _players_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self._show_opponents(event.value)

    def _show_opponents(self, players: int) -> None:
        for i in range(MAX_SHOWN_PLAYERS - 1):
            self.query_one(f"#opp-row-{i}").display = i < players - 1

    def _info(self):  # noqa: ANN202
        value = self.query_one("#ruleset", Select).value
        return next((i for i in self.infos if i.key == value), None)

    def _rules(self):  # noqa: ANN202
        from tui.engine.ruleset import load_ruleset

        info = self._info()
        return load_ruleset(info.path, self.user_dir)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        info = self._info()
        if info is None:
            self.notify("Choose a ruleset first.", severity="warning")
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
        host(self).start_game(self._rules(), opponents, seed)

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        self.dismiss()
