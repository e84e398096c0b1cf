"""The hint key: a bot's advice for this moment, shown in the prompt's place at once
("Thinking…" while the advisor thinks, which may take seconds on a busy machine), then
marked on the table: the cards it names in the hand, with the cursor on the first, or the
pile it says to draw from."""

from __future__ import annotations

import asyncio

from textual import work

from ..hint_marks import named_cards, named_pile
from .table_view import TableView

HINT_SECONDS = 12  # a hint shows this long at most (and only until the next move)
THINKING = "Thinking about your move…"


class TableHint(TableView):
    def action_hint(self) -> None:
        self._show_hint(THINKING, len(self.view_now.log), thinking=True)
        self._fetch_hint()

    @work(exclusive=True, group="hint")
    async def _fetch_hint(self) -> None:
        """A newer hint cancels this one: its answer, when the thread is done, is then
        dropped with the cancelled await."""

        def think() -> tuple[str, int]:
            moves = len(self.table.view(self.seat).log)  # the hint is of this moment
            return self.table.hint(self.seat), moves

        text, moves = await asyncio.to_thread(think)
        self._show_hint(text, moves)

    def _show_hint(self, text: str, moves: int, thinking: bool = False) -> None:
        """A hint takes the prompt's place, with as many lines as it needs (never a box over
        the table), until the next move or for `HINT_SECONDS`, whichever comes first; a new
        hint replaces it.  The answer (not "Thinking…") marks what it names, if the table
        is still at the moment it is for."""
        self._hint = (self.card_words()(text), moves)
        if self._hint_timer is not None:
            self._hint_timer.stop()
        self._hint_timer = self.set_timer(HINT_SECONDS, self._drop_hint)
        self.hand.hinted.clear()
        self._hinted_pile = None
        if not thinking and self._view is not None and len(self._view.log) == moves:
            self.hand.mark_hinted(named_cards(text))
            self._hinted_pile = named_pile(text)
        self._draw()

    def _drop_hint(self) -> None:
        self._hint = None
        self.hand.hinted.clear()
        self._hinted_pile = None
        self._draw()
