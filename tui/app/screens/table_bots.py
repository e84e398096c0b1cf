"""Computer players stepped on a timer at the player's chosen speed: a bot thinks in a
thread, so a slow one never freezes the screen, and its move is made on the UI thread,
like every change to the game."""

from __future__ import annotations

import asyncio

from textual import work

from tui.engine.actions import (
    Action,
    IllegalAction,
)

from .table_view import TableView


class TableBots(TableView):
    def _restart_bot_timer(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
        if self.session.drive_bots:
            self._bot_timer = self.set_interval(self.app_settings().bot_delay, self._tick_bots)

    def _tick_bots(self) -> None:
        if self._bot_busy or self.app.screen is not self:
            return
        if self.table.bot_to_move() is None:
            return
        self._bot_busy = True
        self._run_bot()

    @work(exclusive=True, group="bot")
    async def _run_bot(self) -> None:
        """Think in a thread (a bot may take a while); move on the UI thread, where
        every change to the game is made."""
        try:
            choice = await asyncio.to_thread(self.table.bot_choice)
        except Exception as exc:  # noqa: BLE001 - a bot bug must not end the game for the player
            self._bot_failed(exc)
            return
        self._apply_bot(choice)

    def _apply_bot(self, choice: tuple[int, Action] | None) -> None:
        self._bot_busy = False
        if choice is None or self.table.bot_to_move() != choice[0]:
            return  # nothing to do, or the table moved on while the bot thought
        seat, action = choice
        try:
            self.table.act(seat, action)
        except IllegalAction:
            pass  # the table changed under the bot (nothing was played); it thinks again
        except Exception as exc:  # noqa: BLE001 - a bot bug must not end the game for the player
            self._bot_failed(exc)

    def _bot_failed(self, exc: Exception) -> None:
        self._bot_busy = False
        self.notify(f"A computer player's move failed: {exc}", title="Bot error",
                    severity="error")

