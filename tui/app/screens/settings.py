"""The settings screen: name, card style, colours, theme and bot speed, saved at once."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from tui.engine.cards import Card

from ..cardart import CardStyle, chips
from ..colours import app_colours
from ..host import host
from ..settings import BOT_SPEEDS, Settings
from ..widgets.footer import Footer

SAMPLE = (Card(1, "S", 1), Card(10, "H", 2), Card(7, "D", 3), Card(12, "C", 4), Card(0, "*", 5))


def setting_row(label: str, field: str, value: str, options: list[tuple[str, str]]) -> Horizontal:
    """One setting chosen from a list: the Select's id is the `Settings` field it sets, so
    `SettingsScreen._current` reads every choice back by the field's name."""
    return Horizontal(Label(label, classes="field"),
                      Select(options, value=value, allow_blank=False, compact=True, id=field),
                      classes="row")


class SettingsScreen(Screen[None]):
    BINDINGS = [Binding("escape", "back", "Back"), Binding("ctrl+s", "save", "Save")]

    def __init__(self) -> None:
        super().__init__(classes="settings-screen")

    def compose(self) -> ComposeResult:
        s: Settings = host(self).settings
        with VerticalScroll(id="form"):
            yield Label("Settings", classes="form-title")
            with Horizontal(classes="row"):
                yield Label("Your name", classes="field")
                yield Input(s.name, compact=True, id="name", max_length=24)
            symbols = ("suit symbols ♣♦♥♠" if host(self).terminal.unicode
                       else "suit symbols (if your terminal shows UTF-8)")
            yield setting_row("Cards", "card_style", s.card_style,
                              [(symbols, "unicode"), ("plain letters C D H S", "ascii")])
            yield setting_row("Colours", "colours", s.colours,
                              [("two colours (red, black)", "two"),
                               ("four colours (♣ green, ♦ blue)", "four")])
            yield Static(id="sample")
            themes = self.app.available_themes
            yield setting_row("Theme", "theme",
                              s.theme if s.theme in themes else "textual-dark",
                              [(name, name) for name in sorted(themes)])
            yield setting_row("Bot speed", "bot_speed", s.bot_speed,
                              [(f"{name} ({delay:g}s a move)", name)
                               for name, delay in BOT_SPEEDS.items()])
            yield setting_row("Undo", "undo", s.undo,
                              [("your own moves of this turn", "turn"),
                               ("whole turns, alone against bots", "turns")])
            yield setting_row("New cards", "new_cards", s.new_cards,
                              [("at the right end of the hand", "end"),
                               ("sorted into place (by suit or rank)", "sorted")])
            with Horizontal(classes="buttons"):
                yield Button("Save", variant="primary", compact=True, id="save")
                yield Button("Back", compact=True, id="back")
        yield Footer()

    def on_mount(self) -> None:
        self._sample()

    def _current(self) -> Settings:
        def value(widget_id: str) -> str:
            return str(self.query_one(f"#{widget_id}", Select).value)

        return Settings(
            name=self.query_one("#name", Input).value,
            card_style=value("card_style"),
            colours=value("colours"),
            theme=value("theme"),
            bot_speed=value("bot_speed"),
            undo=value("undo"),
            new_cards=value("new_cards"),
        ).cleaned()

    @on(Select.Changed)
    def _sample(self) -> None:
        s = self._current()
        if s.theme in self.app.available_themes:
            self.app.theme = s.theme  # first: the sample is drawn in the theme's colours
        style = CardStyle(ascii=s.card_style == "ascii", four_colour=s.colours == "four",
                          colours=app_colours(self.app))
        self.query_one("#sample", Static).update(chips(SAMPLE, style, wild=SAMPLE[-1:]))

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        settings = self._current()
        try:
            host(self).save_settings(settings)
        except OSError as exc:
            self.notify(f"Could not save the settings: {exc}", severity="error")
            return
        self.notify("Settings saved.", timeout=2)
        self.dismiss()

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        self.app.theme = host(self).settings.theme
        self.dismiss()
