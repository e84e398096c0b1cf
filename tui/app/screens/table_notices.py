"""Notices (toasts) on the table: one at a time, never markup, and the refusals the
table service reports after the fact."""

from __future__ import annotations

import time
from typing import Any

from textual import on

from tui.engine.actions import IllegalAction

from ..messages import ActionRefused
from .table_view import TableView


class TableNotices(TableView):
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
        super().notify(style.text(message), title=style.text(title), severity=severity,
                       timeout=timeout, markup=markup)

    def _on_refused(self, exc: IllegalAction) -> None:
        self.post_message(ActionRefused(str(exc), exc.rule))

    @on(ActionRefused)
    def _action_refused(self, message: ActionRefused) -> None:
        rule = f"\nRule: {message.rule}" if message.rule else ""
        self.notify(f"{message.reason}{rule}", title="Not allowed", severity="warning",
                    timeout=6)

