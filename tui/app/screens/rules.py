"""The rules of any ruleset, as readable text; and the way into the house-rules editor."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Label, Select, Static

from tui.service.rules_quota import QuotaError

from ..host import host
from ..plain_text import plain_text
from ..results import PlayRules
from ..widgets.footer import Footer


class RulesScreen(Screen[PlayRules | None]):
    """Dismissed with `PlayRules` when the player chose "Play this" in the editor."""

    DEFAULT_CSS = """
    RulesScreen .row Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        Binding("v", "variant", "Make a house variant"),
        Binding("e", "edit", "Edit"),
    ]

    def __init__(self, key: str | None = None) -> None:
        super().__init__(id="rules")
        env = host(self).env
        self._env = env
        self.user_dir = env.rulesets_folder()
        self.confine = env.rulesets_confined
        self.infos = self._rulesets()
        self.initial = key or (self.infos[0].key if self.infos else None)

    def _rulesets(self):  # noqa: ANN202
        """Every ruleset that loads, and the player's own that do not (to edit them)."""
        from tui.engine.ruleset import list_rulesets

        return [i for i in list_rulesets(self.user_dir, self.confine)
                if not i.shadowed and (i.error is None or not i.bundled)]

    def _label(self, info) -> Text:  # noqa: ANN001
        """A ruleset's name is data (from a file, or the file's name when it does not
        load): plain text, never markup, control characters escaped."""
        return plain_text(("★ " if not info.bundled else "") + info.name + (
            " (has mistakes)" if info.error else ""))

    def compose(self) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Label("Rules of", classes="field")
            yield Select([(self._label(i), i.key) for i in self.infos], value=self.initial,
                         allow_blank=False, compact=True, id="rules-choice")
            yield Button("Make a house variant", compact=True, id="make-variant")
            yield Button("Edit", compact=True, id="edit-ruleset")
        with VerticalScroll(id="rules-text"):
            yield Static(id="rules-body")
        yield Footer()

    def on_mount(self) -> None:
        self._show()
        self.query_one("#rules-text").focus()

    def _selected(self):  # noqa: ANN202
        key = self.query_one("#rules-choice", Select).value
        return next((i for i in self.infos if i.key == key), None)

    @on(Select.Changed, "#rules-choice")
    def _show(self) -> None:
        from tui.engine.ruleset import RulesetError, describe_rules, load_ruleset

        info = self._selected()
        self.query_one("#edit-ruleset").display = info is not None and not info.bundled
        if info is None:
            return
        body = self.query_one("#rules-body", Static)
        try:
            text = describe_rules(load_ruleset(info.path, self.user_dir, self.confine))
        except RulesetError as exc:
            text = f"This file has mistakes; press e to fix them.\n\n{self._env.shown(str(exc))}"
        body.update(Text(text))

    @on(Button.Pressed, "#make-variant")
    def action_variant(self) -> None:
        """Write a file extending the chosen ruleset into the player's folder; edit it."""
        from tui.engine.ruleset import NewRulesetError, RulesetError, free_name, new_ruleset_file

        info = self._selected()
        if info is None or info.error:
            self.notify("Choose a ruleset without mistakes to start from.", markup=False)
            return
        name = free_name(info.key, self.user_dir)
        number = name.rpartition("_")[2]
        title = f"My {info.name}" + (f" {number}" if number.isdigit() else "")
        quota = self._env.rules_quota()
        try:
            if quota is not None:
                quota.check(self.user_dir, self.user_dir / f"{name}.yaml", 0)
            path = new_ruleset_file(name, self.user_dir, info.key, title, self.confine)
        except (NewRulesetError, RulesetError, QuotaError) as exc:
            self.notify(self._env.shown(str(exc)), title="Cannot make a variant",
                        severity="error", markup=False)
            return
        self._open_editor(path)

    @on(Button.Pressed, "#edit-ruleset")
    def action_edit(self) -> None:
        info = self._selected()
        if info is None or info.bundled:
            self.notify("Bundled rules are not edited: make a house variant (v) instead.",
                        markup=False)
            return
        self._open_editor(info.path)

    def _open_editor(self, path) -> None:  # noqa: ANN001
        from .rules_editor import RulesEditorScreen

        try:
            editor = RulesEditorScreen(path, self.user_dir, self.confine)
        except (OSError, UnicodeDecodeError) as exc:
            self.notify(self._env.shown(f"{path}: {exc}"), title="Cannot open the file",
                        severity="error", markup=False)
            return
        self.app.push_screen(editor, self._edited)

    def _edited(self, result: str | PlayRules | None) -> None:
        """Back from the editor: pass a "Play this" on to whoever opened the rules, or list
        the files again (a new one, a fixed one)."""
        if isinstance(result, PlayRules):
            self.dismiss(result)
            return
        current = result or self.query_one("#rules-choice", Select).value
        self.infos = self._rulesets()
        choice = self.query_one("#rules-choice", Select)
        choice.set_options([(self._label(i), i.key) for i in self.infos])
        if any(i.key == current for i in self.infos):
            choice.value = current
        self._show()

    def action_back(self) -> None:
        self.dismiss()
