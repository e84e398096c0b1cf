"""Arranging the hand: the cursor, selecting, grouping and sorting (no move is made)."""

from __future__ import annotations

import asyncio
from typing import Any

from textual import on, work

from tui.engine.cards import Card
from tui.engine.view import SeatView

from .. import intents
from ..hand_model import SORT_MODES
from ..host import still_shown
from ..messages import CardClicked
from .table_view import TableView


class TableHandKeys(TableView):
    """The keys that arrange the hand; each reports what the player did (`player_did`)."""

    def action_cursor(self, delta: int) -> None:
        self.hand.move_cursor(delta)
        self._redraw_hand("cursor")

    def action_cursor_to(self, index: int) -> None:
        self.hand.set_cursor(index if index >= 0 else len(self.hand.order) - 1)
        self._redraw_hand("cursor")

    def action_shift(self, delta: int) -> None:
        self.hand.shift(delta)
        self._redraw_hand("shift")

    def action_select(self) -> None:
        self.hand.toggle()
        self._redraw_hand("select")

    def action_clear(self) -> None:
        if self.hand.selected:
            self.hand.clear_selection()
        else:
            self.hand.clear_groups()
        self._redraw_hand("clear")

    def action_group(self) -> None:
        if not self.hand.selected:
            if self.hand.ungroup_at_cursor():
                self._redraw_hand("group")
                return
            self.notify("Select the cards of a meld with space first, then press g.",
                        title="Choose first")
            return
        self.hand.group_selection()
        self._redraw_hand("group")

    def action_arrange(self) -> None:
        current = self.hand.sort_mode
        mode = SORT_MODES[(SORT_MODES.index(current) + 1) % len(SORT_MODES)] \
            if current in SORT_MODES else SORT_MODES[0]
        if mode == "melds":  # the hand's best melds are searched in a worker
            self._search_melds(tuple(self.hand.hand), self.view_now)
            return
        self.hand.sort(mode, self._rank_keys())
        self._redraw_hand("arrange")

    @work(exclusive=True, group="search")
    async def _search_melds(self, hand: tuple[Card, ...], view: SeatView) -> None:
        arrangement = await asyncio.to_thread(self._arrange, hand, view)
        self._sort_by_melds(hand, arrangement)

    def _sort_by_melds(self, hand: tuple[Card, ...], arrangement: Any) -> None:
        """Sort by the melds found, if the hand is still the one searched (by suit when
        no meld was found)."""
        if not still_shown(self) or {c.uid for c in hand} != {c.uid for c in self.hand.hand}:
            return
        if arrangement is None:
            self.hand.sort("suit", self._rank_keys())
        else:
            self.hand.sort("melds", melds=intents.melds_of(arrangement))
        self._redraw_hand("arrange")

    @on(CardClicked)
    def _card_clicked(self, message: CardClicked) -> None:
        self.hand.set_cursor(message.index)
        self.hand.toggle(message.index)
        self._redraw_hand("select")

