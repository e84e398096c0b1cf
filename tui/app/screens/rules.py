"""The rules of any ruleset, as readable text."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Label, Select, Static


class RulesScreen(Screen[None]):
    BINDINGS = [Binding("escape,q", "back", "Back")]

    def __init__(self, key: str | None = None) -> None:
        super().__init__(id="rules")
        from tui.engine.ruleset_loader import list_rulesets

        self.infos = [i for i in list_rulesets() if i.error is None and not i.shadowed]
        self.initial = key or (self.infos[0].key if self.infos else None)

    def compose(self) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Label("Rules of", classes="field")
            yield Select([(i.name, i.key) for i in self.infos], value=self.initial,
                         allow_blank=False, compact=True, id="rules-choice")
        with VerticalScroll(id="rules-text"):
            yield Static(id="rules-body")
        yield Footer()

    def on_mount(self) -> None:
        self._show()
        self.query_one("#rules-text").focus()

    @on(Select.Changed, "#rules-choice")
    def _show(self) -> None:
        from tui.engine.rules_text import describe_rules
        from tui.engine.ruleset_loader import load_ruleset

        key = self.query_one("#rules-choice", Select).value
        info = next((i for i in self.infos if i.key == key), None)
        if info is None:
            return
        self.query_one("#rules-body", Static).update(describe_rules(load_ruleset(info.path)))

    def action_back(self) -> None:
        self.dismiss()
