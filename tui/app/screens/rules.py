"""The rules of any ruleset, as readable text; and the way into the house-rules editor.

Listing the rulesets reads every file (again after an edit), the rules on show are loaded
from theirs, and a file opened in the editor (a new house variant is first written) is
read: all in a worker, never on the loop that draws (over SSH it draws everyone's
screens)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Label, Select, Static

from tui.service.rules_quota import QuotaError

from ..host import host, still_shown
from ..plain_text import plain_text
from ..results import PlayRules
from ..rules_reading import read_rules
from ..widgets.footer import Footer

if TYPE_CHECKING:
    from tui.engine.rules import Ruleset
    from tui.engine.ruleset.loader import RulesetInfo


class RulesScreen(Screen[PlayRules | None]):
    """Dismissed with `PlayRules` when the player chose "Play this" in the editor."""

    DEFAULT_CSS = """
    RulesScreen .row Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        Binding("v", "variant", "Make a house variant"),
        Binding("e", "edit", "Edit"),
        Binding("d", "differences", "How it differs"),
    ]

    def __init__(self, key: str | None = None) -> None:
        super().__init__(classes="rules-screen")
        env = host(self).env
        self._env = env
        self.user_dir = env.rulesets_folder()
        self.confine = env.rulesets_confined
        self.infos: list[RulesetInfo] | None = None  # None: still being listed
        self.initial = key
        self.shown_key: str | None = None  # whose rules the text shows
        self._showing: str | None = None  # the key being read for the text (or read)
        self.differences = False  # show how a house ruleset differs, not all its rules

    def _rulesets(self) -> list[RulesetInfo]:
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
            yield Select([], prompt="Reading the rules…", compact=True, id="rules-choice")
            yield Button("Make a house variant", compact=True, id="make-variant")
            yield Button("Edit", compact=True, id="edit-ruleset")
        with VerticalScroll(id="rules-text"):
            yield Static(Text("Reading the rules…", Style(dim=True)), id="rules-body")
        yield Footer()

    def on_mount(self) -> None:
        if not still_shown(self):
            return  # closed before it was mounted: its widgets are gone
        self.query_one("#edit-ruleset").display = False
        self.query_one("#rules-text").focus()
        self._list_rules(self.initial)

    @property
    def ready(self) -> bool:
        """The rulesets are listed and the text shows the rules chosen."""
        info = self._selected()
        return self.infos is not None and (info is None or self.shown_key == info.key)

    @work(exclusive=True, group="rules-list")
    async def _list_rules(self, select: str | None) -> None:
        self._listed(await asyncio.to_thread(self._rulesets), select)

    def _listed(self, infos: list[RulesetInfo], select: str | None) -> None:
        """The list (again after an edit: a new file, a fixed one), `select` chosen if it
        is in it."""
        if not still_shown(self):
            return  # the screen was closed while the files were read
        self.infos = infos
        choice = self.query_one("#rules-choice", Select)
        choice.prompt = "Choose the rules"
        choice.set_options([(self._label(i), i.key) for i in infos])
        keys = [i.key for i in infos]
        if keys:
            choice.value = select if select in keys else keys[0]
        self._showing = None  # (read again: the file may have been edited)
        self._show()

    def _selected(self) -> RulesetInfo | None:
        key = self.query_one("#rules-choice", Select).value
        return next((i for i in self.infos or [] if i.key == key), None)

    @on(Select.Changed, "#rules-choice")
    def _show(self) -> None:
        info = self._selected()
        if info is None and self._showing in [i.key for i in self.infos or []]:
            # the prompt's blank row is no choice: back to the rules on show
            self.query_one("#rules-choice", Select).value = self._showing
            return
        self.query_one("#edit-ruleset").display = info is not None and not info.bundled
        if info is None:
            self._showing = self.shown_key = None
            self.query_one("#rules-body", Static).update("")
            return
        if info.key == self._showing:
            return  # its rules already being read (or shown)
        self._showing = info.key
        self._describe(info)

    @work(exclusive=True, group="rules-describe")
    async def _describe(self, info: RulesetInfo) -> None:
        from tui.engine.ruleset import describe_rules

        def read() -> str:
            rules, error = read_rules(info, self.user_dir, self.confine)
            if rules is not None and self.differences:
                return self._differences(info, rules)
            return (describe_rules(rules) if rules is not None else
                    f"This file has mistakes; press e to fix them.\n\n{self._env.shown(error)}")

        self._described(info, await asyncio.to_thread(read))

    def _described(self, info: RulesetInfo, text: str) -> None:
        chosen = self._selected() if still_shown(self) else None
        if chosen is None or chosen.key != info.key or self._showing != info.key:
            return  # closed, or other rules chosen (or listed again) meanwhile
        self.query_one("#rules-body", Static).update(Text(text))
        self.shown_key = info.key

    def _differences(self, info: RulesetInfo, rules: Ruleset) -> str:
        """How `rules` differ from the game they extend (read in the worker thread)."""
        from tui.engine.ruleset import RulesetError, describe_differences, extended_ruleset

        try:
            parent = extended_ruleset(info.path, self.user_dir, self.confine)
        except RulesetError as exc:
            return self._env.shown(f"The ruleset it extends does not load:\n{exc}")
        if parent is None:
            return (f"{rules.name} extends no other ruleset: these are all its rules "
                    "(d shows them).")
        return describe_differences(parent, rules)

    def action_differences(self) -> None:
        """Between all the rules and how they differ from the game they extend."""
        self.differences = not self.differences
        self._showing = self.shown_key = None
        self._show()

    @on(Button.Pressed, "#make-variant")
    def action_variant(self) -> None:
        """Write a file extending the chosen ruleset into the player's folder; edit it."""
        info = self._selected()
        if info is None or info.error:
            self.notify("Choose a ruleset without mistakes to start from.", markup=False)
            return
        self._make_variant(info)

    @work(exclusive=True, group="rules-open")
    async def _make_variant(self, info: RulesetInfo) -> None:
        from tui.engine.ruleset import NewRulesetError, RulesetError, free_name, new_ruleset_file

        quota = self._env.rules_quota()

        def write() -> Path:
            name = free_name(info.key, self.user_dir)
            number = name.rpartition("_")[2]
            title = f"My {info.name}" + (f" {number}" if number.isdigit() else "")
            if quota is not None:
                quota.check(self.user_dir, self.user_dir / f"{name}.yaml", 0)
            return new_ruleset_file(name, self.user_dir, info.key, title, self.confine)

        try:
            path = await asyncio.to_thread(write)
        except (NewRulesetError, RulesetError, QuotaError) as exc:
            self.notify(self._env.shown(str(exc)), title="Cannot make a variant",
                        severity="error", markup=False)
            return
        await self._open_editor(path)

    @on(Button.Pressed, "#edit-ruleset")
    def action_edit(self) -> None:
        info = self._selected()
        if info is None or info.bundled:
            self.notify("Bundled rules are not edited: make a house variant (v) instead.",
                        markup=False)
            return
        self._edit(info.path)

    @work(exclusive=True, group="rules-open")
    async def _edit(self, path: Path) -> None:
        await self._open_editor(path)

    async def _open_editor(self, path: Path) -> None:
        """Read the file in a thread, then open it in the editor (unless this screen was
        closed meanwhile)."""
        from .rules_editor import RulesEditorScreen

        try:
            text = await asyncio.to_thread(path.read_text, encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.notify(self._env.shown(f"{path}: {exc}"), title="Cannot open the file",
                        severity="error", markup=False)
            return
        if not still_shown(self):
            return
        self.shown_key = None  # (the file is being edited: read again on the way back)
        self.app.push_screen(RulesEditorScreen(path, text, self.user_dir, self.confine),
                             self._edited)

    def _edited(self, result: str | PlayRules | None) -> None:
        """Back from the editor: pass a "Play this" on to whoever opened the rules, or list
        the files again (a new one, a fixed one)."""
        if isinstance(result, PlayRules):
            self.dismiss(result)
            return
        current = result or self.query_one("#rules-choice", Select).value
        self._list_rules(current if isinstance(current, str) else None)

    def action_back(self) -> None:
        self.dismiss()
