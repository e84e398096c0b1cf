"""Playing a move: building it from the keys (and the dialogs that ask which card or
meld), sending it to the table, and explaining a refusal."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from rich.text import Text
from textual import on, work

from tui.engine.actions import (
    Action,
    DrawStock,
    IllegalAction,
    LayOff,
    SwapJoker,
    TakeDiscard,
)
from tui.engine.cards import Card
from tui.engine.view import SeatView

from .. import intents
from ..cardart import chips
from ..describe import name_of
from ..host import still_shown
from ..messages import (
    DiscardClicked,
    MeldClicked,
    StockClicked,
)
from ..widgets.melds import meld_text
from .pickers import PickScreen
from .table_view import TableView


class TableMoves(TableView):
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
        self.player_did(re.sub(r"(?<!^)(?=[A-Z])", "_", type(action).__name__).lower(), action)
        return True

    def action_draw_stock(self) -> None:
        self.play(intents.draw_stock)

    def action_take_discard(self) -> None:
        """Where the rules allow deep draws and a deeper card can be taken now, `t` asks
        how deep (the top card first, so `t` Enter takes it); elsewhere, or when only the
        top card can be taken, it takes the top card at once."""
        view = self.view_now
        if view.rules.draw.discard != "deep":
            self.play(lambda v: intents.take_discard(v, 0))
            return
        depths = sorted(a.depth for a in intents.legal_of(view, TakeDiscard))
        if depths in ([], [0]):
            self.play(lambda v: intents.take_discard(v, 0))  # (or explains why not)
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
            meld_id = self._onto_one_meld(
                legal, "Lay off onto which meld?", self.action_lay_off,
                lambda: self.play(lambda v: intents.lay_off(v, view.table[0].id, cards)))
            if meld_id is None:
                return
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
            target = next(m.id for m in view.table if m.wild_cards())
            meld_id = self._onto_one_meld(
                legal, "Swap the joker in which meld?", self.action_swap,
                lambda: self.play(lambda v: intents.swap_joker(v, target, card)))
            if meld_id is None:
                return
        if self.play(lambda v: intents.swap_joker(v, meld_id, card)):
            self.hand.clear_selection()

    def _onto_one_meld(self, legal: set[int], title: str, again: Callable[[int], None],
                       refused: Callable[[], object]) -> int | None:
        """The one meld a move onto the table can go onto, else None: with none legal,
        `refused` makes the move anyway so the table's refusal says why; with several, the
        player is asked which (`again` is called with their choice)."""
        if not legal:
            refused()
            return None
        if len(legal) > 1:
            self._pick_meld(title, legal, again)
            return None
        return next(iter(legal))

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

    def action_undo(self) -> None:
        if self._bot_busy:
            self.notify("Wait a moment: a computer player is moving.", title="Not yet")
            return
        if not self.table.can_undo(self.seat):
            if len(self.table.humans()) > 1:
                why = "undo is only possible when you play against computer players alone"
            elif self.view_now.phase == "round_over":
                why = "this deal is scored, and a scored deal is never taken back"
            elif self.app_settings().undo == "turns":
                why = "there is nothing of yours to undo in this deal"
            else:
                why = ("undo takes back only your own moves of this turn, before anyone "
                       "else moves (a card drawn from the stock stays)")
            self.notify(f"Cannot undo: {why}.\nRule: undo", title="Not allowed",
                        severity="warning")
            return
        try:
            self.table.undo(self.seat)
        except IllegalAction as exc:
            self.notify(f"{exc}\nRule: {exc.rule}", title="Not allowed", severity="warning")
            return
        what = "turn" if self.app_settings().undo == "turns" else "move"
        self.notify(f"Your last {what} was taken back.", title="Undone", timeout=3)

    # ------------------------------------------------------------------ mouse
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

