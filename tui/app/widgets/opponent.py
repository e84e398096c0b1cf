"""One pane per opponent: who they are, how many cards they hold, their score, whether
their contract is down, and their melds.  The pane of the seat to move is lit up."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.engine.meld import Meld
from tui.engine.view import PlayerInfo

from ..cardart import CardStyle
from .melds import MeldList

PHASE_WORDS = {"draw": "drawing", "play": "playing", "buy": "may buy?"}


class OpponentPane(Vertical):
    DEFAULT_CSS = """
    OpponentPane { height: auto; }
    """

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"seat-{seat}", classes="opponent")
        self.seat = seat

    def compose(self) -> ComposeResult:
        yield Static(classes="info")
        yield MeldList()

    def show(self, player: PlayerInfo, level: str, phase: str, turn: bool,
             melds: Sequence[Meld], contract_required: bool, card_style: CardStyle,
             targets: set[int], buys: str = "") -> None:
        """`buys`: how many buys the seat has left, where buying is on."""
        marker = "> " if card_style.ascii else "▶ "
        self.border_title = Text((marker if turn else "") + player.name + (
            f" ({level})" if level else ""))
        tags = ["dealer"] if player.is_dealer else []
        if contract_required and player.contract_down:
            tags.append("✓ contract" if not card_style.ascii else "laid down")
        if turn:
            tags.append(PHASE_WORDS.get(phase, ""))
        subtitle = card_style.text(" · ".join(t for t in tags if t))
        room = self.size.width - 4
        if card_style.ascii and 0 < room < len(subtitle):
            subtitle = subtitle[:room]  # cut here, or Textual would add a `…`
        self.border_subtitle = subtitle
        self.set_class(turn, "-turn")
        self.set_class(player.went_out, "-out")
        self.set_class(contract_required and player.contract_down, "-down")
        info = Text()
        info.append(f"{player.hand_count}", Style(bold=True))
        info.append(" card" + ("s" if player.hand_count != 1 else ""))
        info.append(card_style.text(" · "), Style(dim=True))
        info.append(f"{player.total}", Style(bold=True))
        info.append(" pts")
        if buys:
            info.append("\n" + buys)
        if player.went_out:
            info.append("\nwent out", Style(color=card_style.c.highlight, bold=True))
        self.query_one(".info", Static).update(info)
        self.query_one(MeldList).show(melds, card_style, targets)

    def flash(self) -> None:
        """Light the pane up briefly after this seat acted."""
        self.add_class("-acted")
        self.set_timer(1.2, lambda: self.remove_class("-acted"))
