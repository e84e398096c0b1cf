"""Notices on the table: one at a time, never markup, and the refusals the table service
reports after the fact.

A notice is written in the table's own notice line, under the prompt in the centre column
(taking rows from the log there), never as a toast over the table: a toast at the top right
covered the "May I? Buy …" prompt and the opponents' melds at 80×24, and the score sheet's
header at 160×48.  It is still an app notification (so a screen opened over the table
shows it, and it goes when it times out), but no toast shows on the table
(`table.tcss`)."""

from __future__ import annotations

import time
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import on
from textual.css.query import NoMatches
from textual.timer import Timer
from textual.widgets import Static

from tui.engine.actions import IllegalAction
from tui.terminal_text import printable

from ..messages import ActionRefused
from .table_view import TableView

NOTICE_SECONDS = 5.0  # a notice without a timeout of its own shows this long


class TableNotices(TableView):
    _notice_timer: Timer | None = None

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Notifications carry engine and bot text: never read it as markup.  One at a
        time: a new one replaces the last (they never pile up over the table), and the same
        message again within a few seconds (a key pressed repeatedly) is shown once."""
        now = time.monotonic()
        if (message, title) == self._last_note[:2] and now - self._last_note[2] < 3:
            return
        self._last_note = (message, title, now)
        self.app.clear_notifications()
        style = self.card_style()
        message, title = style.text(message), style.text(title)
        super().notify(message, title=title, severity=severity, timeout=timeout,
                       markup=markup)
        self._show_notice(title, message, str(severity), timeout or NOTICE_SECONDS)

    def _show_notice(self, title: str, message: str, severity: str, seconds: float) -> None:
        """Write the notice in the table's notice line for `seconds`."""
        colours = self.card_style().c
        colour = {"warning": colours.highlight, "error": colours.bad}.get(severity)
        text = Text()
        if title:
            text.append(printable(title) + ": ", Style(color=colour, bold=True))
        text.append(printable(message, keep="\n"))
        try:
            notice = self.query_one("#notice", Static)
        except NoMatches:  # (not composed yet, or being taken down)
            return
        notice.update(text)
        notice.display = True
        if self._notice_timer is not None:
            self._notice_timer.stop()
        self._notice_timer = self.set_timer(seconds, self._clear_notice)

    def _clear_notice(self) -> None:
        self._notice_timer = None
        for notice in self.query("#notice"):
            notice.display = False

    def _on_refused(self, exc: IllegalAction) -> None:
        self.post_message(ActionRefused(str(exc), exc.rule))

    @on(ActionRefused)
    def _action_refused(self, message: ActionRefused) -> None:
        rule = f"\nRule: {message.rule}" if message.rule else ""
        self.notify(f"{message.reason}{rule}", title="Not allowed", severity="warning",
                    timeout=6)
