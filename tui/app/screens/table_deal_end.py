"""The end of a deal and of the game: the summary screens, and where the game was
recorded."""

from __future__ import annotations

from tui.engine.view import SeatView

from ..host import host
from .table_view import TableView


class TableDealEnd(TableView):
    def _maybe_show_summary(self, view: SeatView) -> None:
        if view.phase not in ("round_over", "game_over"):
            return
        if view.phase == "game_over":
            host(self).game_over(self.table)
        if view.phase == "game_over" and not self._record_told:
            self._announce_record()  # (the record is written a moment after the end)
        key = (view.deal, view.phase)
        if self._summary_for == key:
            return
        self._summary_for = key
        self.set_timer(0.6 if self.session.drive_bots else 0.01, self.action_continue)

    def _announce_record(self) -> None:
        """Say where the finished game went in the records (or why it could not)."""
        outcome = self.table.record_outcome
        if outcome is None:
            return
        self._record_told = True
        if outcome.message:
            self.notify(outcome.message, title="Records", severity="warning", timeout=8)
        elif outcome.record_id is not None:
            self.notify(f"Recorded as game #{outcome.record_id} (g in the menu).",
                        title="Records", timeout=5)

    def action_continue(self) -> None:
        view = self.view_now
        if view.phase == "round_over":
            from .summary import RoundSummaryScreen

            if not isinstance(self.app.screen, RoundSummaryScreen):
                self.app.push_screen(RoundSummaryScreen(self.session, self.card_style()),
                                     self._after_summary)
        elif view.phase == "game_over":
            from .game_over_again import GameOverAgainScreen
            from .summary import GameOverScreen

            if isinstance(self.app.screen, GameOverScreen):
                return
            if self._can_play_again():
                over = GameOverAgainScreen(view, self.card_style())
                self.app.push_screen(over, lambda leave: self._after_game(over.again, leave))
            else:
                self.app.push_screen(GameOverScreen(view, self.card_style()),
                                     self._after_summary)
        else:
            self.notify("The deal is still being played.", title="Not yet", timeout=3)

    def _after_summary(self, leave: bool | None) -> None:
        if leave:
            self.action_leave()

    def _can_play_again(self) -> bool:
        """A game the player alone set up: the only person at it, in a window of its own
        (not a lobby's shared table)."""
        return host(self).env.lobby is None and self.table.humans() == [self.seat]

    def _after_game(self, again: bool, leave: bool | None) -> None:
        if not again:
            self._after_summary(leave)
            return
        opponents = [(spec.name, spec.bot) for spec in self.table.seats if spec.bot]
        host(self).play_again(self.table, self.table.rules, opponents)

