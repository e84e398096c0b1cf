"""One pane per opponent: who they are, how many cards they hold, their score, whether
their contract is down, and their melds.  The pane of the seat to move is lit up.

The pane is one widget that draws its lines itself (cards held and score, then a line a
meld): a move redraws this one widget, and lighting it up (the turn's border, the flash
after a move) restyles it alone, with nothing inside it to restyle or redraw."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.timer import Timer

from ..cardart import CardStyle
from ..messages import MeldClicked
from .melds import meld_lines
from .shared_lines import SharedLines, text_key

FLASH_SECONDS = 1.2

if TYPE_CHECKING:
    from ..table_presenter import OpponentContent


class OpponentPane(SharedLines):
    DEFAULT_CSS = """
    OpponentPane { height: auto; }
    """

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"seat-{seat}", classes="opponent")
        self.seat = seat
        self._shown: OpponentContent | None = None
        self._shown_style: CardStyle = CardStyle()
        self._lines = -1  # lines drawn: another number lays the pane out again
        self._width = -1
        self._flash_timer: Timer | None = None

    def show(self, content: OpponentContent, card_style: CardStyle) -> bool:
        """Show what the presenter worked out for this seat, touching only what changed
        since the last time: the border and its titles, the lines inside, or both.
        True when the pane has another number of lines (it is laid out again)."""
        old = self._shown if self._shown_style == card_style else None
        self._shown, self._shown_style = content, card_style
        if old is None or content.title != old.title:
            self.border_title = content.title
        if old is None or content.subtitle != old.subtitle or self.size.width != self._width:
            self._width = self.size.width
            room = self.size.width - 4
            cut = card_style.ascii and 0 < room < len(content.subtitle)
            # cut here, or Textual would add a `…` the ASCII card style has not got
            self.border_subtitle = content.subtitle[:room] if cut else content.subtitle
        if old is None or content.turn != old.turn:
            self.set_class(content.turn, "-turn")  # the border only
        if old is None or (content.info, content.melds, content.targets) != (
                old.info, old.melds, old.targets):
            lines = content.info.plain.count("\n") + 1 + len(content.melds)
            relaid = lines != self._lines
            self.refresh(layout=relaid)
            self._lines = lines
            return relaid
        return False

    def shared_key(self) -> Hashable | None:
        """The same seat's pane looks the same on the other players' screens."""
        content = self._shown
        if content is None:
            return None
        return (text_key(content.info), content.melds, content.targets, self._shown_style)

    def render(self) -> Text:
        content = self._shown
        if content is None:
            return Text()
        melds = meld_lines(content.melds, set(content.targets), self._shown_style,
                           self.size.width)
        return Text("\n").join([content.info, *melds])

    def on_click(self, event: events.Click) -> None:
        content = self._shown
        offset = event.get_content_offset(self)
        if content is None or offset is None:
            return
        row = offset.y - (content.info.plain.count("\n") + 1)
        if 0 <= row < len(content.melds):
            event.stop()
            self.post_message(MeldClicked(content.melds[row].id))

    def flash(self) -> None:
        """Light the pane up briefly after this seat acted; moves in quick succession
        keep it lit (one restyle on, one off, not two a move)."""
        if not self.has_class("-acted"):
            self.add_class("-acted")
        if self._flash_timer is None:
            self._flash_timer = self.set_timer(FLASH_SECONDS, self._unflash)
        else:
            self._flash_timer.reset()

    def _unflash(self) -> None:
        self._flash_timer = None
        self.remove_class("-acted")
