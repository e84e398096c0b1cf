"""The card table: opponents across the top, stock and discard pile in the middle, your
hand at the bottom, score sheet and log at the side (on wide terminals), and a key bar
that shows what you can do right now.

The screen plays only through the table service: it reads `table.view(seat)`, sends
actions with `table.act`, and redraws whenever the service says something changed: what
each widget shows comes from `table_presenter.present`, and only the widgets whose part
changed are drawn again (a draw or a discard lays nothing out again).  Bots are stepped on
a timer at the player's chosen speed: a bot thinks in a worker thread, so a slow one never
freezes the screen, and its move is made here, on the UI thread, like every change to the
game.  The autosave's text is taken after each change and written by a worker.  The
seat's view is read in a worker too (listing its legal moves may search for a go-out, which
never runs on the loop that draws): each change the table reports starts a new reading, and
a reading that began before the latest change is dropped when it arrives.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.events import Resize
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from tui.atomic import write_atomic
from tui.engine.actions import (
    Action,
    DrawStock,
    IllegalAction,
    LayOff,
    SwapJoker,
    TakeDiscard,
)
from tui.engine.cards import HIGH_ACE, Card
from tui.engine.solver import best_arrangement
from tui.engine.view import SeatView
from tui.service.turn_clock import TurnClock

from .. import intents
from ..cardart import CardStyle, card_words, chips
from ..colours import app_colours
from ..describe import name_of
from ..hand_model import SORT_MODES, HandModel
from ..host import host, still_shown
from ..messages import (
    ActionRefused,
    CardClicked,
    DiscardClicked,
    KeyHintClicked,
    MeldClicked,
    StockClicked,
    TableChanged,
)
from ..table_presenter import SeatContext, TableContents, acted_seats, opponent_seats, present
from ..table_session import TableSession
from ..widgets.chat import ChatBox
from ..widgets.gamelog import LogTail
from ..widgets.hand import HandView
from ..widgets.keybar import KeyBar
from ..widgets.melds import MeldList, meld_text
from ..widgets.opponent import OpponentPane
from ..widgets.piles import DiscardPile, StockPile
from ..widgets.scoresheet import ScoreSheet
from .pickers import PickScreen

NARROW = 100  # below this width the side column (scores, log) is hidden
MIN_WIDTH, MIN_HEIGHT = 70, 20  # below this the table is not drawn, only what to do
TALL = 34  # from this height on, the hand is drawn with tall cards
HINT_SECONDS = 12  # a hint shows this long at most (and only until the next move)
SAVE_EVERY = 1.0  # seconds: the autosave is at most this far behind the table


class TableScreen(Screen[None]):
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

    def __init__(self, session: TableSession) -> None:
        super().__init__(id="table-screen")
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
        self._words: tuple[tuple[object, ...], Callable[[str], str]] | None = None
        self._bot_timer: Timer | None = None
        self._shown: TableContents | None = None  # what the widgets show now
        self._shown_style: CardStyle | None = None
        self._hand_shown: tuple[object, ...] = ()

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

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Notifications carry engine and bot text: never read it as markup.  One at a
        time: a new one replaces the last (they never pile up over the table), and the same
        message again within a few seconds (a key pressed repeatedly) is shown once."""
        now = time.monotonic()
        if (message, title) == self._last_note[:2] and now - self._last_note[2] < 3:
            return
        self._last_note = (message, title, now)
        self.app.clear_notifications()
        style = self.card_style()
        super().notify(style.text(message), title=style.text(title), severity=severity,
                       timeout=timeout, markup=markup)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="roundbar")
        with Horizontal(id="opponents"):
            for seat in opponent_seats(len(self.table.seats), self.seat):
                yield OpponentPane(seat)
        with Horizontal(id="middle"):
            with Horizontal(id="centre"):
                yield StockPile(id="stock")
                yield DiscardPile(id="discard")
                with Vertical(id="info"):
                    yield Static(id="prompt")
                    yield LogTail(id="recent", headers=False)
            with Vertical(id="sidebar"):
                yield ScoreSheet(id="scores")
                yield LogTail(id="log")
        with Vertical(id="me"):
            yield MeldList(id="my-melds")
            yield HandView(id="hand")
        if self.session.chat is not None:
            yield ChatBox(self.session.chat, id="chat")
        yield KeyBar(id="keys")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.query_one("#me").border_title = "Your hand"
        if self.seat < 0:  # spectators have no hand
            self.query_one("#me").display = False
        self._unsubscribe = self.table.subscribe(self._on_table_change)
        self._unsubscribe_refusals = self.table.refusals(self._on_refused)
        # a new theme (settings, command palette) repaints the Python-painted panes too
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._draw())
        self._apply_size(self.size.width, self.size.height)
        self.refresh_table()
        self._restart_bot_timer()
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

    def _restart_bot_timer(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
        if self.session.drive_bots:
            self._bot_timer = self.set_interval(self.app_settings().bot_delay, self._tick_bots)

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

    # ------------------------------------------------------------------ service events
    def _on_table_change(self) -> None:
        # May be called from a bot worker thread or another session: post, never touch UI.
        # Changes that arrive faster than the screen redraws are drawn once.
        self._generation = next(self._changes)  # (atomic: any view being read is stale)
        if not self._refresh_pending:
            self._refresh_pending = True
            self.post_message(TableChanged())

    def _on_refused(self, exc: IllegalAction) -> None:
        self.post_message(ActionRefused(str(exc), exc.rule))

    @on(ActionRefused)
    def _action_refused(self, message: ActionRefused) -> None:
        rule = f"\nRule: {message.rule}" if message.rule else ""
        self.notify(f"{message.reason}{rule}", title="Not allowed", severity="warning",
                    timeout=6)

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
        if view.deal != self._deal_seen:
            self._deal_seen = view.deal
            self.hand.reset()
            self.hand.sync(view.hand)
            self.hand.sort(self.hand.sort_mode or "suit", self._rank_keys())
            self.hand.set_cursor(0)
            self._fresh_from = len(view.log)
        else:
            self.hand.sync(view.hand)
        if len(view.log) < self._log_seen:  # undone
            self._fresh_from = len(view.log)
        elif any(e.seat == self.seat for e in view.log[self._log_seen:]):
            self._fresh_from = len(view.log)
        for seat in acted_seats(view, self._log_seen, self.seat):
            for pane in self.query(OpponentPane):
                if pane.seat == seat:
                    pane.flash()
        self._log_seen = len(view.log)
        self._draw()
        self._autosave(view)
        self._maybe_show_summary(view)

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
        panes = {pane.seat: pane for pane in self.query(OpponentPane)}
        for i, part in enumerate(now.opponents):
            if old is None or part != old.opponents[i]:
                panes[part.seat].show(part, style)
        if old is None or now.stock != old.stock:
            self.query_one(StockPile).show(now.stock.count, now.stock.active, style)
        if old is None or now.pile != old.pile:
            pile = self.query_one(DiscardPile)
            if old is None or now.pile.deep != old.pile.deep:
                pile.set_class(now.pile.deep, "-deep")
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
            prompt.set_class(hinting, "-hint")
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
            me = self.query_one("#me")
            me.set_class(now.my_turn, "-turn")
            me.border_title = now.hand_title
            me.border_subtitle = now.hand_subtitle
        hand_key = (view.deal, style, self.hand.drawn_state())
        if old is None or hand_key != self._hand_shown:
            self._hand_shown = hand_key
            self.query_one(HandView).show(self.hand, style, view.is_wild)
        if old is None or now.scores != old.scores:
            scores = now.scores
            self.query_one(ScoreSheet).show(scores.names, scores.scores, scores.totals,
                                            scores.lowest_wins, self.seat, style.ascii)
        if old is None or now.hints != old.hints:
            self.query_one(KeyBar).show(now.hints)

    def _rank_keys(self) -> dict[int, int]:
        rules = self.view_now.rules
        return {1: HIGH_ACE} if rules.ace == "high" else {}

    def _targets(self, view: SeatView) -> set[int]:
        if not self.hand.selected or not view.my_turn:
            return set()
        selected = {c.face for c in self.hand.selected_cards()}
        return {a.meld_id for a in intents.legal_of(view, LayOff)
                if {c.face for c in a.cards} <= selected}

    def _autosave(self, view: SeatView) -> None:
        """Save after a change: at once when a deal ends, else within `SAVE_EVERY`
        seconds, every change in between saved together (bots at full speed change the
        table every few milliseconds; taking the game's text is about a millisecond and
        writing it as much again).  Leaving the table saves at once what is pending."""
        if self.session.save_path is None:
            return
        if view.phase in ("round_over", "game_over"):
            self._save_now()
        elif self._save_timer is None:
            self._save_timer = self.set_timer(SAVE_EVERY, self._save_now)

    def _save_now(self, in_worker: bool = True) -> None:
        """The game's text is taken here, on the UI thread, so it is one consistent state;
        writing it (atomically, with a sync to disk) is a worker's job.  Writes are
        numbered and an older one never replaces a newer."""
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = None
        path = self.session.save_path
        if path is None or self._view is None:
            return
        over = self._view.phase == "game_over"
        try:
            text = None if over else self.table.save_text()
        except Exception as exc:  # noqa: BLE001 - a failed save must never stop play
            self._save_failed(path, exc)
            return
        if not over and text is None:
            return  # a table that is not saved
        self._save_number += 1
        if in_worker:
            self._write_save(path, text, self._save_number)
        elif (failure := self._write_numbered(path, text, self._save_number)) is not None:
            self._save_failed(path, failure)

    @work(group="save")
    async def _write_save(self, path: Path, text: str | None, number: int) -> None:
        failure = await asyncio.to_thread(self._write_numbered, path, text, number)
        if failure is not None:
            self._save_failed(path, failure)

    def _write_numbered(self, path: Path, text: str | None, number: int) -> Exception | None:
        """Write save `number` (None: remove the save) unless a newer one is written;
        returns what went wrong, if anything."""
        with self._save_lock:
            if number < self._saved_number:
                return None  # a newer save is already written
            self._saved_number = number
            try:
                if text is None:
                    path.unlink(missing_ok=True)
                else:
                    write_atomic(path, text)
            except Exception as exc:  # noqa: BLE001 - a failed save must never stop play
                return exc
        return None

    def _save_failed(self, path: Path, exc: Exception) -> None:
        if not self._save_warned:
            self._save_warned = True
            self.notify(f"The game could not be saved to {path}: {exc}",
                        title="Autosave failed", severity="warning", timeout=8)

    def _maybe_show_summary(self, view: SeatView) -> None:
        if view.phase not in ("round_over", "game_over"):
            return
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

    # ------------------------------------------------------------------ bots and solver
    def _tick_bots(self) -> None:
        if self._bot_busy or self.app.screen is not self:
            return
        if self.table.bot_to_move() is None:
            return
        self._bot_busy = True
        self._run_bot()

    @work(exclusive=True, group="bot")
    async def _run_bot(self) -> None:
        """Think in a thread (a bot may take a while); move on the UI thread, where
        every change to the game is made."""
        try:
            choice = await asyncio.to_thread(self.table.bot_choice)
        except Exception as exc:  # noqa: BLE001 - a bot bug must not end the game for the player
            self._bot_failed(exc)
            return
        self._apply_bot(choice)

    def _apply_bot(self, choice: tuple[int, Action] | None) -> None:
        self._bot_busy = False
        if choice is None or self.table.bot_to_move() != choice[0]:
            return  # nothing to do, or the table moved on while the bot thought
        seat, action = choice
        try:
            self.table.act(seat, action)
        except IllegalAction:
            pass  # the table changed under the bot (nothing was played); it thinks again
        except Exception as exc:  # noqa: BLE001 - a bot bug must not end the game for the player
            self._bot_failed(exc)

    def _bot_failed(self, exc: Exception) -> None:
        self._bot_busy = False
        self.notify(f"A computer player's move failed: {exc}", title="Bot error",
                    severity="error")

    @staticmethod
    def _arrange(hand: Sequence[Card], view: SeatView) -> Any:
        return best_arrangement(list(hand), view.rules, view.schedule_round)

    def arranger(self) -> Callable[[Sequence[Card]], Any]:
        view = self.view_now
        return lambda cards: self._arrange(cards, view)

    # ------------------------------------------------------------------ acting
    def play(self, build: Callable[[SeatView], Action]) -> bool:
        """Build an action from the current view and send it; explain any refusal."""
        if self._bot_busy:
            self.notify("Wait a moment: a computer player is moving.", title="Not yet")
            return False
        if self._view is None:
            return False
        try:
            action = build(self._view)
        except intents.NeedChoice as exc:
            self.notify(self.card_words()(str(exc)), title="Choose first")
            return False
        try:
            self.table.act(self.seat, action)
        except IllegalAction as exc:
            rule = f"\nRule: {exc.rule}" if exc.rule else ""
            self.notify(self.card_words()(f"{exc}{rule}"), title="Not allowed",
                        severity="warning", timeout=6)
            return False
        except Exception as exc:  # noqa: BLE001 - a bug must not close the player's table
            self.log.error(f"{action!r} failed: {exc!r}")
            self.notify(f"That move failed inside the game ({type(exc).__name__}: {exc}). "
                        "The game was not changed; please report this.",
                        title="Something went wrong", severity="error", timeout=10)
            return False
        if not isinstance(action, DrawStock | TakeDiscard):
            self.hand.new.clear()
            self._redraw_hand()
        return True

    def action_draw_stock(self) -> None:
        self.play(intents.draw_stock)

    def action_take_discard(self) -> None:
        """Where the rules allow deep draws, `t` always asks how deep (the top card first,
        so `t` Enter takes it); elsewhere it takes the top card at once."""
        view = self.view_now
        if view.rules.draw.discard != "deep":
            self.play(lambda v: intents.take_discard(v, 0))
            return
        depths = sorted(a.depth for a in intents.legal_of(view, TakeDiscard))
        if not depths:
            self.play(lambda v: intents.take_discard(v, 0))  # explains why not
            return
        style = self.card_style()
        pile = list(view.discard)
        choices: list[tuple[int, Text | str]] = []
        for depth in depths:
            taken = pile[len(pile) - 1 - depth:]
            label = Text(f"{'top card' if depth == 0 else f'{depth + 1} cards'}: ")
            label.append_text(chips(taken, style))
            choices.append((depth, label))
        self.app.push_screen(PickScreen("Take from the discard pile", choices),
                             self._take_at_depth)

    def _take_at_depth(self, depth: int | None) -> None:
        if depth is not None:
            self.play(lambda v: intents.take_discard(v, depth))

    def action_discard(self) -> None:
        card = self._single_card()
        if self.play(lambda v: intents.discard(v, card)):
            self.hand.clear_selection()

    def _single_card(self) -> Card | None:
        selected = self.hand.selected_cards()
        if len(selected) == 1:
            return selected[0]
        return self.hand.cursor_card

    def action_buy(self) -> None:
        self.play(intents.buy)

    def action_pass_buy(self) -> None:
        self.play(intents.pass_buy)

    def action_meld(self) -> None:
        view = self.view_now
        if not view.rules.going_out.melding_during_play:
            self.action_go_out()
            return
        groups = self.hand.group_cards()
        extra = self.hand.selected_cards()
        if extra:
            groups.append(extra)
        self.play_searching(lambda v: intents.lay_down(v, groups, self.arranger()),
                            self._melded)

    def action_go_out(self) -> None:
        groups = self.hand.group_cards()
        hand = self.hand.hand
        cursor = self._single_card()
        self.play_searching(lambda v: intents.go_out(v, groups, hand, cursor, self.arranger()),
                            self._melded)

    def _melded(self) -> None:
        self.hand.clear_groups()
        self.hand.clear_selection()

    def play_searching(self, build: Callable[[SeatView], Action],
                       then: Callable[[], None]) -> None:
        """`play` for a move whose building may search the hand for melds (going out, or
        laying down with nothing grouped): the search runs in a worker, and the move is
        made here when it is found, unless the table changed meanwhile; `then` follows a
        move made."""
        if self._view is not None:
            self._search_move(build, self._view, self._generation, then)

    @work(exclusive=True, group="search")
    async def _search_move(self, build: Callable[[SeatView], Action], view: SeatView,
                           generation: int, then: Callable[[], None]) -> None:
        def search() -> Action | intents.NeedChoice:
            try:
                return build(view)
            except intents.NeedChoice as exc:
                return exc

        self._searched(await asyncio.to_thread(search), generation, then)

    def _searched(self, found: Action | intents.NeedChoice, generation: int,
                  then: Callable[[], None]) -> None:
        if not still_shown(self):
            return
        if generation != self._generation:
            self.notify("The table changed while your hand was searched: press again.",
                        title="Not played", timeout=4)
            return

        def built(view: SeatView) -> Action:
            if isinstance(found, intents.NeedChoice):
                raise found
            return found

        if self.play(built):
            then()

    def action_lay_off(self, meld_id: int | None = None) -> None:
        cards = self.hand.selected_cards() or (
            [self.hand.cursor_card] if self.hand.cursor_card else [])
        view = self.view_now
        if meld_id is None:
            if not view.table:
                self.notify("There are no melds on the table to lay off onto.",
                            title="Nothing to lay off onto")
                return
            faces = {c.face for c in cards}
            legal = {a.meld_id for a in intents.legal_of(view, LayOff)
                     if {c.face for c in a.cards} <= faces}
            if not legal:
                self.play(lambda v: intents.lay_off(v, view.table[0].id, cards))  # says why
                return
            if len(legal) > 1:
                self._pick_meld("Lay off onto which meld?", legal,
                                lambda mid: self.action_lay_off(mid))
                return
            meld_id = next(iter(legal))
        if self.play(lambda v: intents.lay_off(v, meld_id, cards)):
            self.hand.clear_selection()

    def action_swap(self, meld_id: int | None = None) -> None:
        card = self._single_card()
        view = self.view_now
        if meld_id is None:
            if not any(m.wild_cards() for m in view.table):
                self.notify("No meld on the table holds a joker you could swap.",
                            title="Nothing to swap")
                return
            legal = {a.meld_id for a in intents.legal_of(view, SwapJoker)
                     if card is not None and a.card is not None and a.card.face == card.face}
            if not legal:
                target = next(m.id for m in view.table if m.wild_cards())
                self.play(lambda v: intents.swap_joker(v, target, card))  # says why
                return
            if len(legal) > 1:
                self._pick_meld("Swap the joker in which meld?", legal,
                                lambda mid: self.action_swap(mid))
                return
            meld_id = next(iter(legal))
        if self.play(lambda v: intents.swap_joker(v, meld_id, card)):
            self.hand.clear_selection()

    def _pick_meld(self, title: str, legal: set[int], then: Callable[[int], None]) -> None:
        """Ask which of the `legal` melds (and only those) to play onto."""
        view = self.view_now
        style = self.card_style()
        choices: list[tuple[int, Text | str]] = []
        for meld in view.table:
            if meld.id in legal:
                label = Text(f"{name_of(view, meld.owner)}: ".ljust(10))
                label.append_text(meld_text(meld, style, 60))
                choices.append((meld.id, label))

        def chosen(meld_id: int | None) -> None:
            if meld_id is not None:
                then(meld_id)

        self.app.push_screen(PickScreen(title, choices), chosen)

    # ------------------------------------------------------------------ arranging the hand
    def _redraw_hand(self) -> None:
        """The hand model changed (cursor, selection, groups, order): redraw what shows it."""
        self._draw()

    def action_cursor(self, delta: int) -> None:
        self.hand.move_cursor(delta)
        self._redraw_hand()

    def action_cursor_to(self, index: int) -> None:
        self.hand.set_cursor(index if index >= 0 else len(self.hand.order) - 1)
        self._redraw_hand()

    def action_shift(self, delta: int) -> None:
        self.hand.shift(delta)
        self._redraw_hand()

    def action_select(self) -> None:
        self.hand.toggle()
        self._redraw_hand()

    def action_clear(self) -> None:
        if self.hand.selected:
            self.hand.clear_selection()
        else:
            self.hand.clear_groups()
        self._redraw_hand()

    def action_group(self) -> None:
        if not self.hand.selected:
            if self.hand.ungroup_at_cursor():
                self._redraw_hand()
                return
            self.notify("Select the cards of a meld with space first, then press g.",
                        title="Choose first")
            return
        self.hand.group_selection()
        self._redraw_hand()

    def action_arrange(self) -> None:
        current = self.hand.sort_mode
        mode = SORT_MODES[(SORT_MODES.index(current) + 1) % len(SORT_MODES)] \
            if current in SORT_MODES else SORT_MODES[0]
        if mode == "melds":  # the hand's best melds are searched in a worker
            self._search_melds(tuple(self.hand.hand), self.view_now)
            return
        self.hand.sort(mode, self._rank_keys())
        self._redraw_hand()

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
        self._redraw_hand()

    # ------------------------------------------------------------------ other keys
    def action_hint(self) -> None:
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

    def _show_hint(self, text: str, moves: int) -> None:
        """A hint takes the prompt's place, with as many lines as it needs (never a box over
        the table), until the next move or for `HINT_SECONDS`, whichever comes first; a new
        hint replaces it."""
        self._hint = (self.card_words()(text), moves)
        if self._hint_timer is not None:
            self._hint_timer.stop()
        self._hint_timer = self.set_timer(HINT_SECONDS, self._drop_hint)
        self._draw()

    def _drop_hint(self) -> None:
        self._hint = None
        self._draw()

    def card_words(self) -> Callable[[str], str]:
        """Writes the cards in a line of text as the table shows them (player names are
        left alone); the same function while the card style and names stay the same."""
        style = self.card_style()
        names = tuple(p.name for p in self.view_now.players)
        key = (style, names)
        if self._words is None or self._words[0] != key:
            self._words = (key, lambda text: card_words(text, style, names))
        return self._words[1]

    def action_undo(self) -> None:
        if self._bot_busy:
            self.notify("Wait a moment: a computer player is moving.", title="Not yet")
            return
        if not self.table.can_undo(self.seat):
            humans = self.table.humans()
            why = ("undo is only possible when you play against computer players alone"
                   if len(humans) > 1 else "there is nothing of yours to undo yet")
            self.notify(f"Cannot undo: {why}.\nRule: undo", title="Not allowed",
                        severity="warning")
            return
        try:
            self.table.undo(self.seat)
        except IllegalAction as exc:
            self.notify(f"{exc}\nRule: {exc.rule}", title="Not allowed", severity="warning")
            return
        self.notify("Your last turn was taken back.", title="Undone", timeout=3)

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

    def action_continue(self) -> None:
        view = self.view_now
        if view.phase == "round_over":
            from .summary import RoundSummaryScreen

            if not isinstance(self.app.screen, RoundSummaryScreen):
                self.app.push_screen(RoundSummaryScreen(self.session, self.card_style()),
                                     self._after_summary)
        elif view.phase == "game_over":
            from .summary import GameOverScreen

            if not isinstance(self.app.screen, GameOverScreen):
                self.app.push_screen(GameOverScreen(view, self.card_style()),
                                     self._after_summary)
        else:
            self.notify("The deal is still being played.", title="Not yet", timeout=3)

    def _after_summary(self, leave: bool | None) -> None:
        if leave:
            self.action_leave()

    def action_leave(self) -> None:
        self.app.pop_screen()

    # ------------------------------------------------------------------ mouse
    @on(CardClicked)
    def _card_clicked(self, message: CardClicked) -> None:
        self.hand.set_cursor(message.index)
        self.hand.toggle(message.index)
        self._redraw_hand()

    @on(StockClicked)
    def _stock_clicked(self) -> None:
        self.action_draw_stock()

    @on(DiscardClicked)
    def _discard_clicked(self, message: DiscardClicked) -> None:
        if self._view is None:
            return
        view = self._view
        if view.phase == "play" and view.my_turn:
            self.action_discard()
        else:
            self.play(lambda v: intents.take_discard(v, message.depth))

    @on(MeldClicked)
    def _meld_clicked(self, message: MeldClicked) -> None:
        view = self.view_now
        card = self._single_card()
        swappable = card is not None and any(
            a.meld_id == message.meld_id and a.card is not None and a.card.face == card.face
            for a in intents.legal_of(view, SwapJoker))
        layable = any(a.meld_id == message.meld_id for a in intents.legal_of(view, LayOff))
        if swappable and not layable:
            self.action_swap(message.meld_id)
        else:
            self.action_lay_off(message.meld_id)

    @on(KeyHintClicked)
    async def _hint_clicked(self, message: KeyHintClicked) -> None:
        await self.run_action(message.action)
