"""Score sheet and full log in a dialog, for terminals too narrow to show them beside the
table."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from tui.engine.view import SeatView

from ..cardart import CardStyle, card_words
from ..describe import name_of
from ..widgets.gamelog import GameLog
from ..widgets.scoresheet import ScoreSheet


class ScoresScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,c,q,enter", "close", "Close")]

    def __init__(self, view: SeatView, style: CardStyle) -> None:
        super().__init__(classes="picker")
        self.view_now = view
        self.card_style = style

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("Score sheet and log", classes="dialog-title")
            yield ScoreSheet()
            yield GameLog()
            yield Label("Esc close", classes="dialog-help")

    def on_mount(self) -> None:
        view = self.view_now
        names = [name_of(view, s) for s in range(len(view.players))]
        self.query_one(ScoreSheet).show(names, view.scores, [p.total for p in view.players],
                                        view.rules.end.winner == "lowest", view.seat,
                                        self.card_style.ascii)
        style = self.card_style
        self.query_one(GameLog).show(view.log, view.seat, len(view.log),
                                     lambda text: card_words(text, style, names))

    def action_close(self) -> None:
        self.dismiss()
