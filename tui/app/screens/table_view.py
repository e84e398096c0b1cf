"""What every table screen shares: the seat's view, read from the table service and
drawn.  `TableScreen` (the table) is built from this and one mixin per concern
(moves, hand keys, hint, notices, autosave, bots, the deal's end).

The screen plays only through the table service: it reads `table.view(seat)`, sends
actions with `table.act`, and redraws whenever the service says something changed: what
each widget shows comes from `table_presenter.present`, and only the widgets whose part
changed are drawn again (a draw or a discard lays nothing out again).  The seat's view is
read in a thread (listing its legal moves may search for a go-out, which never runs on
the loop that draws): each change the table reports starts a new reading, and a reading
that began before the latest change is dropped when it arrives.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable, Sequence
from typing import Any

from textual import on
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from tui.engine.actions import Action, LayOff
from tui.engine.cards import HIGH_ACE, Card
from tui.engine.solver import best_arrangement
from tui.engine.view import SeatView
from tui.service.turn_clock import TurnClock

from .. import intents
from ..cardart import CardStyle, CardWords
from ..colours import app_colours
from ..dirty_compositor import DirtyCompositor
from ..hand_model import HandModel
from ..host import host, still_shown
from ..messages import PlayerDid, TableChanged
from ..table_presenter import SeatContext, TableContents, acted_seats, present
from ..table_session import TableSession
from ..widgets.gamelog import LogTail
from ..widgets.hand import HandView
from ..widgets.keybar import KeyBar
from ..widgets.melds import MeldList
from ..widgets.opponent import OpponentPane
from ..widgets.piles import DiscardPile, StockPile
from ..widgets.scoresheet import ScoreSheet

NARROW = 100  # below this width the side column (scores, log) is hidden
MIN_WIDTH, MIN_HEIGHT = 70, 20  # below this the table is not drawn, only what to do
TALL = 34  # from this height on, the hand is drawn with tall cards
PILE_ROWS = 5  # the stock's and the pile's art
MIN_PANE_ROWS = 3  # an opponent's pane at its smallest: its frame and one line


class TableView(Screen[None]):
    """The seat's view and the widgets that show it; the concerns built on it add keys."""

    def __init__(self, session: TableSession) -> None:
        super().__init__(classes="table-screen")
        self._compositor = DirtyCompositor()  # a move redraws only what it dirtied
        self.session = session
        self.table = session.table
        self.seat = session.seat
        self.hand = HandModel()
        self._view: SeatView | None = None  # none until the first reading arrives
        self._can_undo = False  # read with the view (finding the deal's start may replay)
        self._changes = itertools.count(1)
        self._generation = 0  # the table's latest change: a view read before it is stale
        self._readings: set[asyncio.Task[None]] = set()  # views being read in a thread
        self._shown_generation = -1  # the change the view on show was read after
        self._unsubscribe: Callable[[], None] | None = None
        self._unsubscribe_refusals: Callable[[], None] | None = None
        self._deal_seen = -1
        self._log_seen = self._fresh_from = 0
        self._summary_for: tuple[int, str] | None = None
        self._record_told = False
        self._bot_busy = False
        self._refresh_pending = False
        self._last_note: tuple[str, str, float] = ("", "", 0.0)
        self._penalty: tuple[object, str] = ((), "")  # (deal and hand, its penalty)
        self._save_warned = False
        self._save_lock = threading.Lock()
        self._save_number = self._saved_number = 0
        self._save_timer: Timer | None = None  # a save on its way (`SAVE_EVERY`)
        self._hint: tuple[str, int] | None = None  # a hint, and the log length it is for
        self._hint_timer: Any = None
        self._hinted_pile: str | None = None  # "stock" or "discard": the hint draws there
        self._words: tuple[tuple[object, ...], Callable[[str], str]] | None = None
        self._bot_timer: Timer | None = None
        self._shown: TableContents | None = None  # what the widgets show now
        self._shown_style: CardStyle | None = None
        self._hand_shown: tuple[object, ...] = ()
        self._panes_cut = False  # the opponents' panes give up rows (`_keep_piles_whole`)
        self._panes: list[OpponentPane] | None = None

    @property
    def view_now(self) -> SeatView:
        """The view the screen shows (the latest reading applied).  Keys wait for the
        first one (`check_action`); nothing reads it before."""
        if self._view is None:
            raise LookupError("the table's first view has not arrived yet")
        return self._view

    @property
    def caught_up(self) -> bool:
        """The view on show was read after the table's latest change (none is on its way)."""
        return self._shown_generation == self._generation

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A window too small to show the table plays nothing blind, and neither does a
        table whose first view has not arrived: only leaving, help and quitting still
        work.  A finished game (scored and recorded) offers no undo."""
        blind = self._view is None or self.has_class("-too-small")
        if blind and action not in ("leave", "help", "quit"):
            return False
        if action == "undo" and self.view_now.phase == "game_over":
            return False
        return True

    def moves_now(self) -> set[str]:
        """The actions the key bar offers now and that can be played (the command
        palette offers no other move)."""
        shown = self._shown
        return set() if shown is None else {h.action for h in shown.hints if h.enabled}

    def view_shown(self, view: SeatView) -> None:
        """What follows a view applied (autosave, the deal's end): the screen adds it."""

    # ------------------------------------------------------------------ service events
    def _on_table_change(self) -> None:
        # May be called from a bot worker thread or another session: post, never touch UI.
        # Changes that arrive faster than the screen redraws are drawn once.
        self._generation = next(self._changes)  # (atomic: any view being read is stale)
        if not self._refresh_pending:
            self._refresh_pending = True
            self.post_message(TableChanged())

    @on(TableChanged)
    def _table_changed(self) -> None:
        self._refresh_pending = False
        self.refresh_table()

    def app_settings(self) -> Any:
        return host(self).settings

    def card_style(self) -> CardStyle:
        settings = self.app_settings()
        return CardStyle(ascii=settings.card_style == "ascii",
                         four_colour=settings.colours == "four", colours=app_colours(self.app))

    def card_words(self) -> Callable[[str], str]:
        """Writes the cards in a line of text as the table shows them (player names are
        left alone); the same function while the card style and names stay the same."""
        style = self.card_style()
        names = tuple(p.name for p in self.view_now.players)
        key = (style, names)
        if self._words is None or self._words[0] != key:
            self._words = (key, CardWords(style, names))
        return self._words[1]

    def refresh_table(self) -> None:
        """Read this seat's view in a thread; `_show_view` applies it when it arrives."""
        task = asyncio.get_running_loop().create_task(self._read_view(self._generation))
        self._readings.add(task)
        task.add_done_callback(self._readings.discard)

    async def _read_view(self, generation: int) -> None:
        """A plain thread hop, not a Textual worker: a move's reading is the table's
        hottest path, and a worker's state messages cost a share of a move's redraw (a
        thread worker also keeps its last screen alive in its executor thread).  Not
        exclusive: a stale reading is dropped on arrival, by its generation."""

        def read() -> tuple[SeatView, bool, tuple[object, str]]:
            view = self.table.view(self.seat)
            return view, self.table.can_undo(self.seat), self._penalty_of(view)

        try:
            view, can_undo, penalty = await asyncio.to_thread(read)
        except Exception as exc:  # noqa: BLE001 - judged on the UI thread: stale, or a bug
            self._view_failed(exc, generation)
            return
        self._show_view(view, can_undo, generation, penalty)

    def _penalty_of(self, view: SeatView) -> tuple[object, str]:
        """The hand's "penalty now" as the rules score it (the best arrangement, where
        they score one), worked out with the view it belongs to, in the same worker: it
        shows in the same redraw, with no worker and no redraw of its own.  Kept while
        the hand stays the same."""
        from tui.engine.scoring import hand_points

        key = (view.deal, tuple(sorted(c.uid for c in view.hand)))
        known = self._penalty  # (read from the worker: at worst worked out again)
        if known[0] == key:
            return known
        hand = tuple(view.hand)
        return key, (f"penalty now {hand_points(hand, view.rules, view.schedule_round)}"
                     if hand else "")

    def _view_failed(self, exc: Exception, generation: int) -> None:
        """A reading the table changed under may fail half-way: dropped, a newer one is on
        its way.  Any other failure is a bug, and fails as one."""
        if generation == self._generation and still_shown(self):
            raise exc

    def _show_view(self, view: SeatView, can_undo: bool, generation: int,
                   penalty: tuple[object, str] = ((), "")) -> None:
        """Bring the hand model up to date with a view just read and redraw what changed,
        unless the table changed while it was read (its own reading follows) or the
        screen was left meanwhile."""
        if generation != self._generation or not still_shown(self):
            return
        if self._view is None:  # the first view: what was logged before is not news
            self._log_seen = self._fresh_from = len(view.log)
            self.refresh_bindings()
        self._view, self._can_undo, self._penalty = view, can_undo, penalty
        self._shown_generation = generation
        self.hand.keep_sorted = self.app_settings().new_cards == "sorted"
        if view.deal != self._deal_seen:
            self._deal_seen = view.deal
            self.hand.reset()
            self.hand.sync(view.hand)
            self.hand.sort(self.hand.chosen_sort, self._rank_keys())
            self.hand.set_cursor(0)
            self._fresh_from = len(view.log)
        else:
            self.hand.sync(view.hand)
        if len(view.log) < self._log_seen:  # undone
            self._fresh_from = len(view.log)
        elif any(e.seat == self.seat for e in view.log[self._log_seen:]):
            self._fresh_from = len(view.log)
        for seat in acted_seats(view, self._log_seen, self.seat):
            for pane in self._opponent_panes():
                if pane.seat == seat:
                    pane.flash()
        self._log_seen = len(view.log)
        if self._hint is not None and self._hint[1] != len(view.log):  # moved on
            self.hand.hinted.clear()
            self._hinted_pile = None
        self._draw()
        self.view_shown(view)

    def _seat_context(self, view: SeatView) -> SeatContext:
        hint = self._hint[0] if self._hint is not None and self._hint[1] == len(view.log) \
            else ""
        return SeatContext(
            seat=self.seat, style=self.card_style(), width=self.size.width,
            levels=tuple(spec.bot or "person" for spec in self.table.seats),
            narrow=self.has_class("-narrow"), chat=self.session.chat is not None,
            can_undo=self._can_undo, penalty=self._penalty[1],
            rejoin_code=self.session.rejoin_code or "", selected=bool(self.hand.selected),
            groups=len(self.hand.groups), sort_mode=self.hand.sort_mode or "",
            targets=frozenset(self._targets(view)), fresh_from=self._fresh_from, hint=hint,
            clock=self.table.turn_seconds_left() if isinstance(self.table, TurnClock) else None,
            words=self.card_words())

    def _draw(self) -> None:
        """Hand each widget the part of the table's contents that changed since the last
        time (everything after a resize or a change of card style)."""
        view = self._view
        if view is None:
            return  # nothing to show until the first view arrives
        ctx = self._seat_context(view)
        now = present(view, ctx)
        old = self._shown if self._shown_style == ctx.style else None
        self._shown, self._shown_style = now, ctx.style
        style = ctx.style
        if old is None or now.bar != old.bar:
            self.query_one("#roundbar", Static).update(now.bar, layout=False)
        panes = {pane.seat: pane for pane in self._opponent_panes()}
        refit = old is None or now.my_melds != old.my_melds
        for i, part in enumerate(now.opponents):
            if (old is None or part != old.opponents[i]) and panes[part.seat].show(part, style):
                refit = True
        if refit and self._panes_cut:  # melds came or went: the panes may have rows back
            self._panes_cut = False  # (a style set, even to None, lays the screen out)
            for pane in panes.values():
                pane.styles.max_height = None
        stock = self.query_one(StockPile)
        pile = self.query_one(DiscardPile)
        _set_class(stock, self._hinted_pile == "stock", "-hinted")
        _set_class(pile, self._hinted_pile == "discard", "-hinted")
        if old is None or now.stock != old.stock:
            stock.show(now.stock.count, now.stock.active, style)
        if old is None or now.pile != old.pile:
            _set_class(pile, now.pile.deep, "-deep")
            pile.show(now.pile.cards, now.pile.count, now.pile.deep, now.pile.active, style,
                      view.is_wild)
        if old is None or (now.my_melds, now.targets) != (old.my_melds, old.targets):
            my_melds = self.query_one("#my-melds", MeldList)
            my_melds.display = bool(now.my_melds)
            my_melds.show(now.my_melds, style, set(now.targets))
        if old is None or now.prompt != old.prompt:
            # of fixed height, but for a hint: that is as tall as it needs (`.-hint`)
            hinting = bool(ctx.hint)
            prompt = self.query_one("#prompt", Static)
            _set_class(prompt, hinting, "-hint")
            prompt.update(now.prompt, layout=hinting)
        # only the log in sight is drawn: the centre's on narrow screens, else the side's
        if ctx.narrow and (old is None or now.recent != old.recent):
            self.query_one("#recent", LogTail).show(now.recent.events, self.seat,
                                                    now.recent.fresh_from, ctx.words)
        if not ctx.narrow and (old is None or now.log != old.log):
            self.query_one("#log", LogTail).show(now.log.events, self.seat,
                                                 now.log.fresh_from, ctx.words)
        if old is None or (now.hand_title, now.hand_subtitle, now.my_turn) != (
                old.hand_title, old.hand_subtitle, old.my_turn):
            me = self.query_one("#me")  # (a title set, even to the same, redraws it)
            _set_own_class(me, now.my_turn, TURN)
            if old is None or now.hand_title != old.hand_title:
                me.border_title = now.hand_title
            if old is None or now.hand_subtitle != old.hand_subtitle:
                me.border_subtitle = now.hand_subtitle
        hand_key = (view.deal, style, self.hand.drawn_state())
        if old is None or hand_key != self._hand_shown:
            self._hand_shown = hand_key
            self.query_one(HandView).show(self.hand, style, view.is_wild)
        if old is None or now.scores != old.scores:
            scores = now.scores
            self.query_one(ScoreSheet).show(scores.names, scores.scores, scores.totals,
                                            scores.lowest_wins, self.seat, style.ascii,
                                            scores.made, scores.phases)
        if old is None or now.hints != old.hints:
            self.query_one(KeyBar).show(now.hints)

    def _keep_piles_whole(self) -> None:
        """The stock and the pile keep their rows: where the opponents' melds and the
        player's own leave the middle too short (at 70×20 the art was cut at the
        bottom), the opponents' panes give up rows (their melds scroll out of sight).
        Checked after each layout of the screen (`on_mount` subscribes it): an ordinary
        move lays nothing out, so costs nothing here."""
        if not still_shown(self) or self.has_class("-too-small"):
            return
        short = PILE_ROWS - self.query_one("#middle").region.height
        panes = self._opponent_panes()
        tallest = max((pane.region.height for pane in panes), default=0)
        if short > 0 and tallest > MIN_PANE_ROWS:
            self._panes_cut = True
            for pane in panes:
                pane.styles.max_height = max(MIN_PANE_ROWS, tallest - short)

    def _opponent_panes(self) -> list[OpponentPane]:
        """The opponents' panes, found once (a query walks the whole screen)."""
        if self._panes is None:
            self._panes = list(self.query(OpponentPane))
        return self._panes

    def _rank_keys(self) -> dict[int, int]:
        rules = self.view_now.rules
        return {1: HIGH_ACE} if rules.ace == "high" else {}

    def _targets(self, view: SeatView) -> set[int]:
        if not self.hand.selected or not view.my_turn:
            return set()
        selected = {c.face for c in self.hand.selected_cards()}
        return {a.meld_id for a in intents.legal_of(view, LayOff)
                if {c.face for c in a.cards} <= selected}

    def _redraw_hand(self, what: str = "") -> None:
        """The hand model changed (cursor, selection, groups, order): redraw what shows it;
        `what` the player did to it, if anything, is reported (`player_did`)."""
        self._draw()
        if what:
            self.player_did(what)

    def action_leave(self) -> None:
        """Back to the menu; the game is kept (saved as it goes)."""
        self.app.pop_screen()

    def player_did(self, what: str, action: Action | None = None) -> None:
        """Tell whoever follows the player (a guided game) what they just did."""
        self.post_message(PlayerDid(what, action))

    @staticmethod
    def _arrange(hand: Sequence[Card], view: SeatView) -> Any:
        return best_arrangement(list(hand), view.rules, view.schedule_round)

    def arranger(self) -> Callable[[Sequence[Card]], Any]:
        view = self.view_now
        return lambda cards: self._arrange(cards, view)


TURN = "-turn"
"""The class of the box of the player to move: it styles that box alone (its border),
nothing inside it (`test_table_redraw` checks the stylesheet for it)."""


def _set_own_class(widget: Widget, on: bool, name: str) -> None:
    """`_set_class` for a class that styles the widget alone: restyles the widget, not
    everything inside it (Textual restyles a node's whole subtree on a class change; for
    the hand's box that is the melds and the hand, on two screens each time the turn
    passes)."""
    if widget.has_class(name) != on:
        widget.set_class(on, name, update=False)
        widget.app.stylesheet.update_nodes([widget])


def _set_class(widget: Widget, on: bool, name: str) -> None:
    """`set_class` only for a change: each call checks the name and compares the classes
    (a few of them each draw, on every screen at the table, every move)."""
    if widget.has_class(name) != on:
        widget.set_class(on, name)
