"""Score sheet and full log in a dialog, for terminals too narrow to show them beside the
table; and the last deal's hands, so a summary the next deal took the player away from
stays within reach."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static, TabbedContent, TabPane

from tui.engine.view import SeatView

from ..cardart import CardStyle, card_words
from ..describe import name_of, phase_marks
from ..widgets.gamelog import GameLog
from ..widgets.scoresheet import ScoreSheet
from .summary import hands_table


class ScoresScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,c,q,enter", "close", "Close")]

    def __init__(self, view: SeatView, style: CardStyle) -> None:
        super().__init__(classes="picker")
        self.view_now = view
        self.card_style = style

    def compose(self) -> ComposeResult:
        view = self.view_now
        with Vertical(classes="dialog wide"):
            yield Label("Score sheet and log", classes="dialog-title")
            with TabbedContent():
                with TabPane("Score sheet", id="sheet"):
                    yield self._sheet()
                    log = GameLog()
                    style = self.card_style
                    names = [name_of(view, s) for s in range(len(view.players))]
                    log.show(view.log, view.seat, len(view.log),
                             lambda text: card_words(text, style, names))
                    yield log
                if view.results:
                    with TabPane("Last deal", id="deal"):
                        yield Static(self._last_deal_title(), classes="summary-title")
                        yield Static(hands_table(view, self.card_style), classes="hands")
            yield Label("Esc close", classes="dialog-help")

    def _sheet(self) -> ScoreSheet:
        view = self.view_now
        sheet = ScoreSheet()
        names = [name_of(view, s) for s in range(len(view.players))]
        sheet.show(names, view.scores, [p.total for p in view.players],
                   view.rules.end.winner == "lowest", view.seat, self.card_style.ascii,
                   *phase_marks(view))
        return sheet

    def _last_deal_title(self) -> Text:
        view = self.view_now
        result = view.results[-1]
        who = (f"{name_of(view, result.went_out)} went out." if result.went_out >= 0
               else "Nobody went out.")
        return Text(self.card_style.text(f"Deal {len(view.results)} — {who}"),
                    Style(bold=True))

    def action_close(self) -> None:
        self.dismiss()
