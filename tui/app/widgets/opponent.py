"""One pane per opponent: who they are, how many cards they hold, their score, whether
their contract is down, and their melds.  The pane of the seat to move is lit up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Static

from ..cardart import CardStyle
from .melds import MeldList

FLASH_SECONDS = 1.2

if TYPE_CHECKING:
    from ..table_presenter import OpponentContent


class OpponentPane(Vertical):
    DEFAULT_CSS = """
    OpponentPane { height: auto; }
    """

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"seat-{seat}", classes="opponent")
        self.seat = seat
        self._info_lines = -1
        self._shown: OpponentContent | None = None
        self._shown_style: CardStyle | None = None
        self._width = -1
        self._flash_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(classes="info")
        yield MeldList()

    def show(self, content: OpponentContent, card_style: CardStyle) -> None:
        """Show what the presenter worked out for this seat, touching only what changed
        since the last time: a draw redraws the line of cards held, not the melds.  The
        pane is laid out again only when its number of lines changes (a meld laid down,
        "went out")."""
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
            self.set_class(content.turn, "-turn")  # the border only: one widget restyled
        if old is None or content.info != old.info:
            lines = content.info.plain.count("\n")
            self.query_one(".info", Static).update(content.info,
                                                   layout=lines != self._info_lines)
            self._info_lines = lines
        if old is None or (content.melds, content.targets) != (old.melds, old.targets):
            self.query_one(MeldList).show(content.melds, card_style, set(content.targets))

    def flash(self) -> None:
        """Light the pane up briefly after this seat acted; moves in quick succession
        keep it lit (one restyle on, one off, not two a move)."""
        self.add_class("-acted")
        if self._flash_timer is None:
            self._flash_timer = self.set_timer(FLASH_SECONDS, self._unflash)
        else:
            self._flash_timer.reset()

    def _unflash(self) -> None:
        self._flash_timer = None
        self.remove_class("-acted")
