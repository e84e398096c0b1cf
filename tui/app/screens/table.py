"""The card table: opponents across the top, stock and discard pile in the middle, your
hand at the bottom, score sheet and log at the side (on wide terminals), and a key bar
that shows what you can do right now.

`TableScreen` is the table's layout and lifecycle; each concern lives in its own module
and joins it as a mixin over `TableView` (reading and drawing the seat's view):
`table_moves` (moves and their dialogs), `table_hand_keys` (arranging the hand),
`table_hint`, `table_notices`, `table_autosave`, `table_bots`, `table_deal_end`.

A guided game reuses this screen rather than a copy: `player_did` reports each thing the
player did (a move made, the hand arranged, a key's action) as a `PlayerDid` message, and
`compose_coach` is where a subclass puts a coach panel (above the key bar).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.events import Resize
from textual.widgets import Static

from tui.engine.view import SeatView
from tui.service.turn_clock import TurnClock

from ..host import still_shown
from ..messages import KeyHintClicked
from ..table_presenter import opponent_seats
from ..widgets.chat import ChatBox
from ..widgets.gamelog import LogTail
from ..widgets.hand import HandView
from ..widgets.keybar import KeyBar
from ..widgets.melds import MeldList
from ..widgets.opponent import OpponentPane
from ..widgets.piles import DiscardPile, StockPile
from ..widgets.scoresheet import ScoreSheet
from ..widgets.shared_lines import SharedStatic
from .table_autosave import SAVE_EVERY, TableAutosave
from .table_bots import TableBots
from .table_deal_end import TableDealEnd
from .table_hand_keys import TableHandKeys
from .table_hint import HINT_SECONDS, TableHint
from .table_moves import TableMoves
from .table_notices import TableNotices
from .table_view import MIN_HEIGHT, MIN_WIDTH, NARROW, TALL, TableView

__all__ = ["HINT_SECONDS", "MIN_HEIGHT", "MIN_WIDTH", "NARROW", "SAVE_EVERY", "TALL",
           "TableScreen"]


class TableScreen(TableNotices, TableMoves, TableHandKeys, TableHint, TableAutosave,
                  TableBots, TableDealEnd, TableView):
    BINDINGS = [
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("home", "cursor_to(0)", "First", show=False),
        Binding("end", "cursor_to(-1)", "Last", show=False),
        Binding("shift+left,comma", "shift(-1)", "Move left", show=False),
        Binding("shift+right,full_stop", "shift(1)", "Move right", show=False),
        Binding("space", "select", "Select", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("s", "draw_stock", "Stock", show=False),
        Binding("t", "take_discard", "Take", show=False),
        Binding("g", "group", "Group", show=False),
        Binding("m", "meld", "Meld", show=False),
        Binding("l", "lay_off", "Lay off", show=False),
        Binding("w", "swap", "Swap joker", show=False),
        Binding("d", "discard", "Discard", show=False),
        Binding("o", "go_out", "Go out", show=False),
        Binding("b", "buy", "Buy", show=False),
        Binding("n", "pass_buy", "Pass", show=False),
        Binding("a", "arrange", "Arrange", show=False),
        Binding("h", "hint", "Hint", show=False),
        Binding("u,ctrl+z", "undo", "Undo", show=False),
        Binding("c", "scores", "Scores", show=False),
        Binding("question_mark,f1", "help", "Help", show=False),
        Binding("enter", "continue", "Continue", show=False),
        Binding("q", "leave", "Menu", show=False),
        Binding("slash", "chat", "Chat", show=False),
    ]

    def compose_coach(self) -> ComposeResult:
        """A guided game's coach panel goes here (above the key bar); the table has none."""
        yield from ()

    def view_shown(self, view: SeatView) -> None:
        self._autosave(view)
        self._maybe_show_summary(view)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield SharedStatic(id="roundbar")
        with Horizontal(id="opponents"):
            for seat in opponent_seats(len(self.table.seats), self.seat):
                yield OpponentPane(seat)
        with Horizontal(id="middle"):
            with Horizontal(id="centre"):
                yield StockPile(id="stock")
                yield DiscardPile(id="discard")
                with Vertical(id="info"):
                    yield SharedStatic(id="prompt")
                    yield Static(id="notice")
                    yield LogTail(id="recent", headers=False)
            with Vertical(id="sidebar"):
                yield ScoreSheet(id="scores")
                yield LogTail(id="log")
        with Vertical(id="me"):
            yield MeldList(id="my-melds")
            yield HandView(id="hand")
        if self.session.chat is not None:
            yield ChatBox(self.session.chat, id="chat")
        yield from self.compose_coach()
        yield KeyBar(id="keys")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        if not still_shown(self):
            return  # closed before it was mounted: its widgets are gone
        self.query_one("#me").border_title = "Your hand"
        if self.seat < 0:  # spectators have no hand
            self.query_one("#me").display = False
        self._unsubscribe = self.table.subscribe(self._on_table_change)
        self._unsubscribe_refusals = self.table.refusals(self._on_refused)
        # a new theme (settings, command palette) repaints the Python-painted panes too
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._draw())
        # (subscribed by a child: the screen's own subscription is Textual's tooltip's)
        self.screen_layout_refresh_signal.subscribe(self.query_one("#middle"),
                                                    lambda _screen: self._keep_piles_whole())
        self._apply_size(self.size.width, self.size.height)
        self.refresh_table()
        self._restart_bot_timer()
        if self.session.notice:
            self.notify(self.session.notice, title="Not saving", severity="warning",
                        timeout=10)
        if isinstance(self.table, TurnClock):  # a timed turn: the countdown ticks
            self.set_interval(1.0, self._show_turn_clock)

    def _show_turn_clock(self) -> None:
        if isinstance(self.table, TurnClock) and self.table.turn_seconds_left() is not None:
            self._draw()  # only the round bar changed: the presenter redraws just that

    def on_unmount(self) -> None:
        for reading in self._readings:
            reading.cancel()
        if self._save_timer is not None:  # a change not saved yet: saved now, here
            self._save_now(in_worker=False)
        for stop in (self._unsubscribe, self._unsubscribe_refusals):
            if stop is not None:
                stop()
        self._unsubscribe = self._unsubscribe_refusals = None
        self.app.theme_changed_signal.unsubscribe(self)  # (its callback holds the screen)

    def on_screen_resume(self) -> None:
        self._restart_bot_timer()
        self.refresh_table()

    def on_resize(self, event: Resize) -> None:
        self._apply_size(event.size.width, event.size.height)
        self._draw()

    def _apply_size(self, width: int, height: int) -> None:
        self._shown = None  # another size: every widget is drawn afresh
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(small, "-too-small")
        if small:
            self.query_one("#too-small", Static).update(self.card_style().text(
                f"Make the window at least {MIN_WIDTH}×{MIN_HEIGHT} to play "
                f"(it is {width}×{height} now).\n\nq leaves the table; the game is kept."))
        self.set_class(width < NARROW, "-narrow")
        self.set_class(height < 30, "-short")
        try:
            self.query_one(HandView).set_class(height >= TALL, "-tall")
        except NoMatches:
            pass

    # ------------------------------------------------------------------ other keys
    def action_scores(self) -> None:
        from .scores import ScoresScreen

        view = self.view_now
        self.app.push_screen(ScoresScreen(view, self.card_style()))

    def action_chat(self) -> None:
        for box in self.query(ChatBox):
            box.open()

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen())

    # ------------------------------------------------------------------ mouse
    @on(KeyHintClicked)
    async def _hint_clicked(self, message: KeyHintClicked) -> None:
        await self.run_action(message.action)
