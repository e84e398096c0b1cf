"""The main menu: new game, continue, learn to play, rules, settings, quit."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.engine.cards import Card

from ..cardart import CardStyle, big_card
from ..colours import app_colours
from ..host import host
from ..results import QUICK_OPPONENT_LEVEL, PlayRules
from ..widgets.footer import Footer

TITLE = "R U M M Y"
FAN = (Card(1, "S"), Card(13, "H"), Card(12, "C"), Card(11, "D"))
SUBTITLE = "Three Thirteen · Contract Rummy · Liverpool · your own house rules"


def title_art(style: CardStyle) -> Text:
    """Four big cards side by side above the title."""
    cards = [big_card(card, style) for card in FAN]
    lines = []
    for row in range(5):
        line = Text()
        for art in cards:
            line.append_text(art[row])
            line.append(" ")
        lines.append(line)
    return Text("\n").join(lines)


class MenuScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "choose('new')", "New game"),
        Binding("c", "choose('continue')", "Continue"),
        Binding("l", "choose('learn')", "Learn to play"),
        Binding("r", "choose('rules')", "Rules"),
        Binding("s", "choose('settings')", "Settings"),
        Binding("g", "choose('records')", "Records"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__(id="menu")
        self._can_continue = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Continue is offered (in the list and the key bar) only with a game to go on with."""
        return self._can_continue if parameters == ("continue",) else True

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Center(Static(id="menu-art"))
            title = Text(TITLE, Style(bold=True, color=app_colours(self.app).highlight))
            yield Center(Static(title,
                                id="menu-title"))
            yield Center(Static(SUBTITLE, id="menu-sub"))
            with Horizontal(id="menu-options-row"):
                yield OptionList(id="menu-options")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_menu()

    def on_screen_resume(self) -> None:
        self.refresh_menu()

    def refresh_menu(self) -> None:
        style = host(self).card_style()
        self.query_one("#menu-art", Static).update(title_art(style))
        env = host(self).env
        can_continue = host(self).has_game_in_progress()
        if can_continue != self._can_continue:
            self._can_continue = can_continue
            self.refresh_bindings()
        options = self.query_one("#menu-options", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        key = f"bold {style.c.highlight}"
        options.add_options([
            Option(Text.assemble(("n", key), "  New game"), id="new"),
            *([Option(Text.assemble(("c", key), "  Continue"), id="continue")]
              if can_continue else []),  # (offered only with a game to continue)
            Option(Text.assemble(("l", key), "  Learn to play"), id="learn"),
            Option(Text.assemble(("r", key), "  Rules"), id="rules"),
            Option(Text.assemble(("g", key), "  Game records"), id="records"),
            Option(Text.assemble(("s", key), "  Settings"), id="settings"),
            Option(Text.assemble(("q", key),
                                 "  Quit" if env.can_quit_to_shell else "  Leave"), id="quit"),
        ])
        options.highlighted = highlighted if highlighted is not None else (
            1 if can_continue else 0)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose(event.option.id or "")

    def action_choose(self, what: str) -> None:
        app = self.app
        if what == "new":
            from .new_game import NewGameScreen

            app.push_screen(NewGameScreen())
        elif what == "continue":
            host(self).resume_game()
        elif what == "learn":
            from .learn import choose_lesson

            choose_lesson(self)
        elif what == "rules":
            from .rules import RulesScreen

            app.push_screen(RulesScreen(), self._play_rules)
        elif what == "records":
            from .records import RecordsScreen

            app.push_screen(RecordsScreen())
        elif what == "settings":
            from .settings import SettingsScreen

            app.push_screen(SettingsScreen())
        elif what == "quit":
            app.exit()

    def _play_rules(self, play: PlayRules | None) -> None:
        """"Play this" from the rules editor: a game against bots with those rules."""
        if play is None:
            return
        from .new_game import OPPONENT_NAMES, bot_levels

        levels = bot_levels()
        level = QUICK_OPPONENT_LEVEL if QUICK_OPPONENT_LEVEL in levels else levels[-1]
        opponents = [(OPPONENT_NAMES[i % len(OPPONENT_NAMES)], level)
                     for i in range(play.seats() - 1)]
        host(self).start_game(play.rules, opponents, None)
