"""The house-rules editor: one of the player's ruleset files, checked as it is typed.

Left, the YAML (coloured, mistakes marked on their lines); right, the rules it makes, in
the words of the rules screen; below, every mistake with its line and column (choose one
to jump there).  Saving is refused while the text has mistakes, so the file on disk is
always the last good version; "Play this" saves and starts a game with the rules at once
(over SSH: opens a table in the lobby, where friends may join).

Checking a big file takes a while, and over SSH the app's loop draws every player's
screen: every check (as the file opens, when typing pauses, before "next mistake") and
every save runs in a worker thread, and its answer is applied on the loop only if the text
is still the one it was for.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from tui.engine.rules import Ruleset
from tui.engine.ruleset import LiveCheck, LocatedError, check_text, describe_rules, save_checked
from tui.service.rules_quota import QuotaError, RulesQuota
from tui.terminal_text import printable

from ..host import host, still_shown
from ..results import PlayRules
from ..widgets.footer import Footer
from ..widgets.yaml_editor import YamlEditor

log = logging.getLogger(__name__)

def error_label(error: LocatedError, here: str) -> str:
    """How a mistake is listed: `line 5, col 3: …`, naming the file only if it is another
    one (a ruleset this one extends); control characters (the file's, or quoted from it)
    escaped."""
    where = ""
    if error.file != here:
        where = f"{Path(error.file).name}: "
    if error.line > 0:
        where += f"line {error.line}, col {error.column}: "
    return printable(where + error.message)


def safe_check(text: str, path: Path, user_dir: Path | None, confine: bool = False) -> LiveCheck:
    """`check_text`, but a bug in the checker shows as a mistake instead of closing the
    editor (and losing what the player typed)."""
    try:
        return check_text(text, path, user_dir, confine)
    except Exception as exc:  # noqa: BLE001 - keep the player's unsaved text alive
        log.exception("checking %s failed", path)
        return LiveCheck(str(path), (LocatedError(str(path), 0, 0, f"cannot check: {exc}"),))


class RulesEditorScreen(Screen[str | PlayRules | None]):
    """Edit `path`, whose text (read by the opener, in a thread) is `text`; dismisses
    with the file's key if it was saved, else None."""

    CSS_PATH = "rules_editor.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+r", "play", "Play this", priority=True),  # (Ctrl+P: the palette)
        Binding("ctrl+n", "next_error", "Next mistake", priority=True),
        Binding("escape", "back", "Back"),
    ]
    CHECK_DELAY = 0.3  # seconds of no typing before the text is checked

    def __init__(self, path: Path, text: str, user_dir: Path | None = None,
                 confine: bool = False) -> None:
        super().__init__(classes="rules-editor-screen")
        self.path = path
        self.user_dir = user_dir
        self.confine = confine  # over SSH: `extends` stays inside the player's folder
        self.saved_text = text
        self.result = LiveCheck(str(path))  # (until the first check answers)
        self.last_good: Ruleset | None = None
        self.was_saved = False
        self._timer: Timer | None = None
        self._checking: str | None = text  # the text a check runs (or is due) for now:
        # the first check is due from the start (it begins once the editor is mounted)
        self._checked_text: str | None = None  # the text `result` is for
        self._when_checked: Callable[[], None] | None = None  # e.g. go to the next mistake
        self._save_lock = threading.Lock()
        self._saves = 0  # saves asked for; only the latest one writes
        self._leave_armed = False
        self._preview_width = 0  # the pane's width the preview was filled to

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Vertical(id="editor-box"):
            yield Static(id="editor-title")
            with Horizontal(id="editor-panes"):
                yield YamlEditor(self.saved_text, id="editor-text")
                with VerticalScroll(id="editor-preview") as preview:
                    preview.border_title = "The rules it makes"
                    yield Static(id="preview-body")
            yield Static(id="editor-status")
            yield OptionList(id="editor-errors")
            with Horizontal(classes="buttons", id="editor-buttons"):
                yield Button("Save", variant="primary", compact=True, id="save")
                yield Button("Play this", variant="success", compact=True, id="play")
                yield Button("Back", compact=True, id="back")
        yield Footer()

    def on_mount(self) -> None:
        if not still_shown(self):
            return  # closed before it was mounted (Esc pressed at once, the session ended)
        # A remote player's folder is somewhere on the server: its path is not theirs to see.
        # The file's name is its author's text: its control characters are escaped.
        where = "  in your rules folder" if self.confine else f"  in {self.path.parent}"
        title = Content.assemble(("Editing ", "bold"),
                                 (printable(self.path.name), "bold $accent"),
                                 (printable(where), "dim"))
        self.query_one("#editor-title", Static).update(title)
        self._check(self.saved_text)
        self._show_status()
        self.editor.focus()
        self.call_after_refresh(self._show_preview)  # once the pane has its width

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_preview)

    @property
    def editor(self) -> YamlEditor:
        return self.query_one("#editor-text", YamlEditor)

    @property
    def text(self) -> str:
        return self.editor.text

    @property
    def dirty(self) -> bool:
        return self.text != self.saved_text

    @property
    def checking(self) -> bool:
        """A check of the text is due or running (its answer is not shown yet)."""
        return self._timer is not None or self._checking is not None

    # ------------------------------------------------------------------ checking
    @on(TextArea.Changed, "#editor-text")
    def _typed(self) -> None:
        self._leave_armed = False
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self.CHECK_DELAY, self._check_typed)
        self._show_status()

    def _check_typed(self) -> None:
        """Typing paused: check the text."""
        self._timer = None
        self._check(self.text)

    def _check(self, text: str) -> None:
        """Check `text` in a thread (a big file takes a while to check, and the app's loop
        may be drawing other players' screens); `_checked` shows the answer."""
        self._checking = text
        self._check_in_thread(text)

    @work(exclusive=True, group="rules-check")
    async def _check_in_thread(self, text: str) -> None:
        # (awaited in a thread, not a thread worker: Textual leaves a thread worker set in
        # its executor thread's context, which then keeps the closed screen)
        result = await asyncio.to_thread(safe_check, text, self.path, self.user_dir,
                                         self.confine)
        self._checked(text, result)

    def _checked(self, text: str, result: LiveCheck) -> None:
        if not still_shown(self):
            return  # the editor was left while its check ran
        if text != self.text or text != self._checking or self._timer is not None:
            return  # typed again meanwhile: its own check is on the way
        self._checking = None
        self._checked_text = text
        self._show(result)
        then, self._when_checked = self._when_checked, None
        if then is not None:
            then()

    def when_checked(self, then: Callable[[], None]) -> None:
        """Do `then` once the text as it is now has been checked (at once if it has)."""
        if not self.checking and self._checked_text == self.text:
            then()
            return
        self._when_checked = then
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._checking != self.text:
            self._check(self.text)

    def _show(self, result: LiveCheck) -> None:
        self.result = result
        if result.ok:
            self.last_good = result.ruleset
        self.editor.mark_errors([(e.line, e.column) for e in result.errors_here()])
        errors = self.query_one("#editor-errors", OptionList)
        errors.clear_options()
        errors.add_options(
            Option(Content(error_label(error, result.file)), id=str(index))
            for index, error in enumerate(result.errors)
        )
        errors.display = not result.ok
        self._show_preview()
        self._show_status()
        # the mistakes' list takes rows from the editor: the line being edited stays in view
        self.call_after_refresh(self._cursor_in_view)

    def _cursor_in_view(self) -> None:
        if still_shown(self):
            self.editor.scroll_cursor_visible()

    def _show_preview(self) -> None:
        """The rules text of the last good check, filled to the preview pane's width."""
        if not still_shown(self):
            return  # (asked for after a refresh that came once the editor was closed)
        pane = self.query_one("#editor-preview", VerticalScroll)
        width = pane.scrollable_content_region.width or 78
        body = self.query_one("#preview-body", Static)
        if self.last_good is None:
            body.update(Content.styled("Checking the rules…" if self.checking else
                                       "Fix the mistakes below to see the rules.", "italic"))
            return
        text = describe_rules(self.last_good, width=width - 1)
        if self.result.ok:
            body.update(Content(text))
        else:
            body.update(Content.assemble(
                ("Not changed while the file has mistakes: these are the rules as last "
                 "checked.\n\n", "italic $warning"),
                (text, "dim"),
            ))
        self._preview_width = width
        self.call_after_refresh(self._preview_fits)

    def _preview_fits(self) -> None:
        """Filled again if the pane's width changed once laid out (the first layout, a
        scrollbar that came with the text): the pane would wrap the lines again."""
        if not still_shown(self):
            return
        pane = self.query_one("#editor-preview", VerticalScroll)
        if pane.scrollable_content_region.width not in (0, self._preview_width):
            self._show_preview()

    def _show_status(self) -> None:
        status = self.query_one("#editor-status", Static)
        pending = self.checking
        count = len(self.result.errors)
        if pending:
            state = ("Checking…", "dim")
        elif count:
            state = (f"✗ {count} mistake{'s' if count != 1 else ''}: fix to save "
                     "(the file keeps its last good version)", "bold $error")
        else:
            state = ("✓ No mistakes", "bold $success")
        saved = ("  ·  unsaved changes", "$warning") if self.dirty else ("  ·  saved", "dim")
        status.update(Content.assemble(state, saved))

    # ------------------------------------------------------------------ mistakes
    @on(OptionList.OptionSelected, "#editor-errors")
    def _error_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.goto(self.result.errors[int(event.option.id or 0)])

    def goto(self, error: LocatedError) -> None:
        """Put the cursor on a mistake in this file (others are only listed)."""
        if error.file == self.result.file and error.line > 0:
            self.editor.cursor_location = (error.line - 1, max(error.column - 1, 0))
            self.editor.scroll_cursor_visible(center=True)
        self.editor.focus()

    def action_next_error(self) -> None:
        self.when_checked(self._goto_next_error)

    def _goto_next_error(self) -> None:
        here = sorted(self.result.errors_here())
        if not here:
            self.notify("No mistakes here.", markup=False)
            return
        row, column = self.editor.cursor_location
        later = [e for e in here if (e.line - 1, e.column - 1) > (row, column)]
        self.goto((later or here)[0])

    # ------------------------------------------------------------------ saving
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        """Save if the text checks (the check and the write in a worker)."""
        self._save()

    def _save(self, then: Callable[[Ruleset], None] | None = None) -> None:
        """Save the text as it is now; `then` gets its rules once saved (not if refused)."""
        self._saves += 1
        self._save_in_thread(self.text, self._saves, host(self).env.rules_quota(), then)

    @work(group="rules-save")
    async def _save_in_thread(self, text: str, number: int, quota: RulesQuota | None,
                              then: Callable[[Ruleset], None] | None) -> None:
        """Saves are written in the order asked; one overtaken by a newer is not written."""

        def write() -> LiveCheck | QuotaError | OSError | None:
            with self._save_lock:
                if number != self._saves:
                    return None  # a newer save follows (with the newer text)
                try:
                    if quota is not None:
                        quota.check(self.path.parent, self.path, len(text.encode("utf-8")))
                    return save_checked(self.path, text, self.user_dir, self.confine)
                except (QuotaError, OSError) as exc:
                    return exc

        outcome = await asyncio.to_thread(write)
        if outcome is not None:
            self._saved(text, outcome, then)

    def _saved(self, text: str, outcome: LiveCheck | QuotaError | OSError,
               then: Callable[[Ruleset], None] | None) -> None:
        if not still_shown(self):
            return  # left meanwhile (the file is written or not; nothing to show)
        env = host(self).env
        if isinstance(outcome, QuotaError):
            self.notify(f"Not saved: {outcome}", title="Cannot save", severity="error",
                        markup=False)
            return
        if isinstance(outcome, OSError):
            self.notify(env.shown(f"{self.path}: {outcome.strerror or outcome}"),
                        title="Cannot save", severity="error", markup=False)
            return
        if text == self.text and not self.checking:
            self._checked_text = text
            self._show(outcome)
        if not outcome.ok:
            count = len(outcome.errors)
            self.notify(f"Not saved: {count} mistake{'s' if count != 1 else ''} to fix first. "
                        "The file keeps its last good version.", title="Not saved",
                        severity="warning", markup=False)
            return
        self.saved_text = text
        self.was_saved = True
        self._show_status()
        self.notify(f"Saved {self.path.name}.", markup=False)
        if then is not None:
            assert outcome.ruleset is not None  # saved, so it checked
            then(outcome.ruleset)

    # ------------------------------------------------------------------ playing
    @on(Button.Pressed, "#play")
    def action_play(self) -> None:
        """Save, then hand the rules back: whoever opened the rules decides how to play them
        (a game against bots locally, a table of one's own in the lobby)."""
        def play(rules: Ruleset) -> None:
            self.dismiss(PlayRules(self.path.stem, rules))

        self._save(play)

    # ------------------------------------------------------------------ leaving
    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        if self.dirty and not self._leave_armed:
            self._leave_armed = True
            self.notify("Press Esc again to leave without saving, or Ctrl+S to save.",
                        title="Unsaved changes", severity="warning", markup=False)
            return
        self.dismiss(self.path.stem if self.was_saved else None)
