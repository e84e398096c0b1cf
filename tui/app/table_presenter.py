"""What each part of the table shows, worked out from a seat's view: no Textual here.

The table screen asks `present` for a `TableContents` after every change and hands each
widget only the part that differs from what it shows already, so a bot's discard redraws
the stock, the pile, the log and one opponent's pane, not the whole screen.  Every part is
a frozen value that compares by content (rich `Text` compares by its text and styles).
Being pure, all of it is tested without an app (`tests/app/test_table_presenter.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text

from tui.engine.actions import (
    Discard,
    DrawStock,
    GoOut,
    LayDown,
    LayOff,
    SwapJoker,
    TakeDiscard,
)
from tui.engine.meld import Meld
from tui.engine.view import Event, SeatView

from . import intents
from .cardart import CardStyle
from .describe import buys_left, deal_label, name_of, phase_marks, prompt
from .widgets.keybar import Hint

PHASE_WORDS = {"draw": "drawing", "play": "playing", "buy": "may buy?"}


@dataclass(frozen=True)
class SeatContext:
    """What the screen knows besides the view: who is looking, how, and the state of its
    hand (selection, groups) and its side panels."""

    seat: int
    style: CardStyle = field(default_factory=CardStyle)
    width: int = 80
    levels: tuple[str, ...] = ()  # per seat: a bot's level or "person"
    narrow: bool = True
    chat: bool = False
    can_undo: bool = False
    penalty: str = ""  # "penalty now N", once worked out
    rejoin_code: str = ""
    selected: bool = False  # some cards of the hand are selected
    groups: int = 0  # melds staged in the hand
    sort_mode: str = ""
    targets: frozenset[int] = frozenset()  # melds the selection could be laid off onto
    fresh_from: int = 0  # log index of the first move made since this seat last acted
    hint: str = ""  # a hint still fresh (no move since it was given)
    clock: float | None = None  # seconds left of a timed turn
    words: Callable[[str], str] = field(default=str, compare=False)  # cards in log text


@dataclass(frozen=True)
class OpponentContent:
    seat: int
    title: Text
    subtitle: Text
    info: Text
    turn: bool
    melds: tuple[Meld, ...]
    targets: frozenset[int]


@dataclass(frozen=True)
class StockContent:
    count: int
    active: bool


@dataclass(frozen=True)
class PileContent:
    cards: tuple
    count: int
    deep: bool
    active: bool


@dataclass(frozen=True)
class LogContent:
    """Log lines and which are fresh; compared by length, last line and freshness, not
    line by line (the log only grows within a game, and an undo changes its length)."""

    events: Sequence[Event] = field(compare=False)
    fresh_from: int
    length: int
    last: Event | None


@dataclass(frozen=True)
class ScoresContent:
    names: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    lowest_wins: bool
    made: tuple[tuple[bool, ...], ...] = ()  # `progression: per_player`: see `phase_marks`
    phases: tuple[int, ...] = ()


@dataclass(frozen=True)
class TableContents:
    bar: Text
    opponents: tuple[OpponentContent, ...]
    stock: StockContent
    pile: PileContent
    my_melds: tuple[Meld, ...]
    targets: frozenset[int]
    prompt: Text
    recent: LogContent
    log: LogContent
    hand_title: Text
    hand_subtitle: str
    my_turn: bool
    scores: ScoresContent
    hints: tuple[Hint, ...]


def present(view: SeatView, ctx: SeatContext) -> TableContents:
    """Everything the table shows for `view`, as seen from `ctx.seat`."""
    my_turn = view.my_turn
    deal_log = view.deal_events()
    start = len(view.log) - len(deal_log)
    return TableContents(
        bar=bar_text(view, ctx),
        opponents=tuple(opponent(view, seat, ctx)
                        for seat in opponent_seats(len(view.players), ctx.seat)),
        stock=StockContent(view.stock_count, my_turn and intents.can(view, DrawStock)),
        pile=PileContent(tuple(view.discard), view.discard_count,
                         view.rules.draw.discard == "deep",
                         my_turn and intents.can(view, TakeDiscard)),
        my_melds=tuple(m for m in view.table if m.owner == ctx.seat),
        targets=ctx.targets,
        prompt=prompt_text(view, ctx),
        recent=log_content(deal_log, max(0, ctx.fresh_from - start)),
        log=log_content(view.log, ctx.fresh_from),
        hand_title=hand_title(view, ctx),
        hand_subtitle=hand_subtitle(view, ctx),
        my_turn=my_turn,
        scores=ScoresContent(tuple(name_of(view, s) for s in range(len(view.players))),
                             tuple(view.scores), tuple(p.total for p in view.players),
                             view.rules.end.winner == "lowest", *phase_marks(view)),
        hints=tuple(key_hints(view, ctx)),
    )


def opponent_seats(count: int, seat: int) -> list[int]:
    """The seats across a table of `count` seats, in playing order from `seat`'s left (all
    of them for a spectator)."""
    if seat < 0:
        return list(range(count))
    return [(seat + i) % count for i in range(1, count)]


def log_content(events: Sequence[Event], fresh_from: int) -> LogContent:
    return LogContent(events, fresh_from, len(events), events[-1] if events else None)


def bar_text(view: SeatView, ctx: SeatContext) -> Text:
    """The top line: the deal and what it asks on the left, whose move on the right."""
    highlight = ctx.style.c.highlight
    text = Text(" " + ctx.style.text(deal_label(view)), Style(bold=True))
    if view.final_turns:
        text.append("   last turns", Style(color=highlight, bold=True))
    if view.phase in ("draw", "play", "buy"):
        who = "your" if view.turn == ctx.seat else f"{name_of(view, view.turn)}'s"
        word = {"draw": "draw", "play": "play", "buy": "buy?"}[view.phase]
        clock = f"· {ctx.clock:.0f}s " if ctx.clock is not None else ""
        status = Text(f"{who} {word} {clock}", Style(color=highlight if view.my_turn else None,
                                                     bold=view.my_turn))
        pad = max(1, ctx.width - text.cell_len - status.cell_len)
        text.append(" " * pad)
        text.append_text(status)
    return text


def opponent(view: SeatView, seat: int, ctx: SeatContext) -> OpponentContent:
    """One opponent's pane: name and level, tags, cards held, score, melds."""
    player = view.players[seat]
    ascii_only = ctx.style.ascii
    turn = view.turn == seat and view.phase in ("draw", "play", "buy")
    level = ctx.levels[seat] if seat < len(ctx.levels) else ""
    # the pane of the seat to move is lit by its title's own colour, not by restyling the
    # pane (a CSS colour change would redraw everything inside it)
    title = lit((("> " if ascii_only else "▶ ") if turn else "") + player.name
                + (f" ({level})" if level else ""),
                Style(color=ctx.style.c.highlight, bold=True) if turn else None)
    # (each player's own phase under `progression: per_player`: its contract may differ)
    contract = view.round.contract.required or player.phase > 0
    down = contract and player.contract_down
    tags = ["dealer"] if player.is_dealer else []
    if player.phase:
        tags.insert(0, f"phase {player.phase}")
    if down:
        tags.append("laid down" if ascii_only else "✓ contract")
    if turn:
        tags.append(PHASE_WORDS.get(view.phase, ""))
    info = Text()
    info.append(f"{player.hand_count}", Style(bold=True))
    info.append(" card" + ("s" if player.hand_count != 1 else ""))
    info.append(ctx.style.text(" · "), Style(dim=True))
    info.append(f"{player.total}", Style(bold=True))
    info.append(" pts")
    buys = buys_left(view, seat)
    if buys:
        info.append("\n" + buys)
    if player.went_out:
        info.append("\nwent out", Style(color=ctx.style.c.highlight, bold=True))
    subtitle = lit(ctx.style.text(" · ".join(t for t in tags if t)),
                   Style(color=ctx.style.c.good if down and not turn else ctx.style.c.highlight))
    return OpponentContent(seat, title, subtitle, info, turn,
                           tuple(m for m in view.table if m.owner == seat), ctx.targets)


def lit(words: str, style: Style | None) -> Text:
    """`words` as plain text in `style`, held as a span (rich `Text` compares by its text
    and spans, not its base style, and the screen redraws a pane when these differ)."""
    text = Text(words)
    if style is not None and words:
        text.stylize(style)
    return text


def prompt_text(view: SeatView, ctx: SeatContext) -> Text:
    """The hint while it is fresh, else what is happening and what the player can do."""
    if ctx.hint:
        return Text(f"Hint: {ctx.hint}", Style(bold=True, italic=True))
    return Text(ctx.style.text(prompt(view, ctx.style)),
                Style(bold=view.my_turn or view.asked_to_buy))


def hand_title(view: SeatView, ctx: SeatContext) -> Text:
    marker = ("> " if ctx.style.ascii else "▶ ") if view.my_turn else ""
    me = view.me
    parts = [f"{marker}{name_of(view, ctx.seat) if me is None else me.name}",
             f"{len(view.hand)} cards"]
    if me is not None:
        parts.append(f"{me.total} pts")
        if me.phase:
            parts.append(f"phase {me.phase}")
    buys = buys_left(view, ctx.seat)
    if buys:
        parts.append(buys)
    if ctx.penalty:
        parts.append(ctx.penalty)
    # a player's name is data, never markup; lit by its own colour on the player's turn
    return lit(ctx.style.text(" · ".join(parts)),
               Style(color=ctx.style.c.highlight, bold=True) if view.my_turn else None)


def hand_subtitle(view: SeatView, ctx: SeatContext) -> str:
    bits = []
    me = view.me
    if me is not None and view.round.contract.required and me.contract_down:
        bits.append("contract down")
    if ctx.groups:
        bits.append(f"{ctx.groups} meld(s) grouped")
    if ctx.sort_mode:
        bits.append(f"by {ctx.sort_mode}")
    if ctx.rejoin_code:
        bits.append(f"rejoin code {ctx.rejoin_code}")
    return ctx.style.text(" · ".join(bits))


def key_hints(view: SeatView, ctx: SeatContext) -> list[Hint]:
    """The keys of this moment, the turn's moves first; `rank` says which go first
    when the bar is short of room (`?` then lists every key)."""
    enter, space, move = ("Enter", "Spc", "<>") if ctx.style.ascii else ("⏎", "␣", "⇧←→")
    hints: list[Hint] = []
    chat = [Hint("/", "Chat", "chat", rank=3)] if ctx.chat else []
    if ctx.seat < 0:  # a spectator only watches
        if view.phase in ("round_over", "game_over"):
            hints.append(Hint(enter, "Summary", "continue"))
        return hints + chat + [Hint("c", "Scores", "scores", rank=2),
                               Hint("?", "Help", "help", rank=1),
                               Hint("q", "Leave", "leave", rank=1)]
    mine = view.my_turn
    rules = view.rules
    if view.phase in ("round_over", "game_over"):
        hints.append(Hint(enter, "Summary", "continue"))
    elif view.asked_to_buy:  # the seat being asked, or (first_to_ask) every seat asked
        hints += [Hint("b", "Buy", "buy"), Hint("n", "Pass", "pass_buy")]
    elif mine and view.phase == "draw":
        hints.append(Hint("s", "Stock", "draw_stock", intents.can(view, DrawStock)))
        if rules.draw.discard != "none":
            hints.append(Hint("t", "Take", "take_discard", intents.can(view, TakeDiscard)))
    elif mine and view.phase == "play":
        hints.append(Hint(space, "Select", "select"))
        if rules.going_out.melding_during_play:
            me = view.me
            down = view.round.contract.required and me is not None and me.contract_down
            if not down:
                hints.append(Hint("g", "Group", "group", ctx.selected))
                hints.append(Hint("m", "Meld", "meld", intents.can(view, LayDown)))
            if rules.lay_off.when != "never" and (down or not view.round.contract.required):
                hints.append(Hint("l", "Lay off", "lay_off", intents.can(view, LayOff)))
            if rules.joker_swap.enabled and down:
                hints.append(Hint("w", "Swap", "swap", intents.can(view, SwapJoker)))
        else:
            hints.append(Hint("o", intents.go_out_label(view), "go_out",
                              intents.can(view, GoOut)))
        hints.append(Hint("d", "Discard", "discard", intents.can(view, Discard)))
    hints.append(Hint("a", "Arrange", "arrange", rank=4))
    if not (mine and view.phase == "play"):
        hints.append(Hint(move, "Move", "shift(1)", rank=5))
    hints.append(Hint("h", "Hint", "hint", mine, rank=2))
    if ctx.can_undo:
        hints.append(Hint("u", "Undo", "undo", rank=2))
    if ctx.narrow:
        hints.append(Hint("c", "Scores", "scores", rank=3))
    hints += chat + [Hint("?", "Help", "help", rank=1), Hint("q", "Menu", "leave", rank=1)]
    return hints


def acted_seats(view: SeatView, seen: int, me: int) -> set[int]:
    """The other seats that acted in the log lines from index `seen` on (to flash)."""
    return {e.seat for e in view.log[seen:] if e.seat >= 0 and e.seat != me}
