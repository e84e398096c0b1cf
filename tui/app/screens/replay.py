"""Watch a recorded game again, one action at a time, with every hand face up.

← and → step back and forward, Home and End jump to the start and the end, PgUp and PgDn
(or [ and ]) to the deal of the previous or next round.  The stepping itself is done by
`tui.records.replay.Replay`; this screen only draws its frames.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.driver import Driver
from textual.screen import Screen
from textual.widgets import Static

from tui.engine.cards import JOKER_RANK, Card
from tui.records.record import GameRecord
from tui.records.replay import Frame, Replay

from ..cardart import CardStyle, card_words, chip, chips
from ..terminal_caps import plain_driver
from ..widgets.footer import Footer

SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3, "*": 4}
DIM = Style(dim=True)
BOLD = Style(bold=True)


def hand_order(cards: tuple[Card, ...], wild: frozenset[int]) -> list[Card]:
    """Naturals by suit then rank, wild cards last: the way a player would hold them."""
    return sorted(cards, key=lambda c: (c.uid in wild or c.rank == JOKER_RANK,
                                        SUIT_ORDER.get(c.suit, 5), c.rank))


def seat_text(frame: Frame, seat: int, style: CardStyle, level: str | None) -> Text:
    """One seat: name, level, running total, and the hand face up."""
    colour = style.c.seats[seat % len(style.c.seats)]
    out = Text()
    marker = "▶ " if seat == frame.actor else ("★ " if seat in frame.winners else "  ")
    if style.ascii:
        marker = marker.replace("▶", ">").replace("★", "*")
    out.append(marker, Style(color=style.c.highlight, bold=True))
    out.append(frame.names[seat], Style(color=colour, bold=True))
    out.append(f" ({level})" if level else " (person)", DIM)
    if seat == frame.dealer:
        out.append("  dealer", DIM)
    out.append(f"  total {frame.totals[seat]}", BOLD)
    hand = frame.hands[seat]
    out.append(f"  {len(hand)} card{'s' if len(hand) != 1 else ''}\n", DIM)
    cards = hand_order(hand, frame.wild)
    out.append("  ")
    if cards:
        out.append_text(chips(cards, style, [c for c in cards if c.uid in frame.wild]))
    else:
        out.append("(no cards)", DIM)
    return out


def table_text(frame: Frame, style: CardStyle) -> Text:
    """The melds on the table, each with its owner."""
    if not frame.table:
        return Text("No melds on the table.", Style(dim=True, italic=True))
    lines = []
    for meld in frame.table:
        line = Text()
        owner = frame.names[meld.owner] if 0 <= meld.owner < len(frame.names) else "?"
        seats = style.c.seats
        colour = seats[meld.owner % len(seats)] if meld.owner >= 0 else style.c.text
        line.append(f"{owner[:10]:<10} ", Style(color=colour))
        wild = [card for card, _ in meld.wild_cards()]
        line.append_text(chips(meld.cards, style, wild))
        lines.append(line)
    return Text("\n").join(lines)


def piles_text(frame: Frame, style: CardStyle) -> Text:
    out = Text()
    out.append("Stock ", DIM)
    out.append(f"{frame.stock_count}", BOLD)
    out.append("   Discard ", DIM)
    top = frame.top_discard
    if top is None:
        out.append("empty", DIM)
    else:
        out.append_text(chip(top, style))
        out.append(f" ({len(frame.discard)} in the pile)", DIM)
    return out


def scores_text(frame: Frame, style: CardStyle) -> Text:
    """Points per finished deal and the totals, one column per seat."""
    width = max(6, *(min(len(n), 10) for n in frame.names))
    head = Text(" Deal ", DIM)
    for seat, name in enumerate(frame.names):
        head.append(f"{name[:10]:>{width}} ",
                    Style(color=style.c.seats[seat % len(style.c.seats)], bold=True))
    lines = [head]
    for number, points in enumerate(frame.scores, 1):
        lines.append(Text(f"{number:>5} " + "".join(f"{p:>{width}} " for p in points)))
    lines.append(Text("Total " + "".join(f"{t:>{width}} " for t in frame.totals), BOLD))
    return Text("\n").join(lines)


def position_text(frame: Frame, rounds: int, style: CardStyle) -> Text:
    """Where the replay is: step, deal (of `rounds` deals played), whose move."""
    out = Text()
    out.append(f"Step {frame.index} of {frame.steps}", BOLD)
    out.append(f" · Deal {frame.deal} of {rounds}", DIM)
    if frame.phase == "game_over":
        names = " and ".join(frame.names[s] for s in frame.winners)
        out.append(f" · Game over: {names} won", Style(color=style.c.highlight, bold=True))
    elif frame.phase == "round_over":
        out.append(" · Deal scored", DIM)
    elif frame.actor >= 0:
        verb = {"draw": "to draw", "play": "to play", "buy": "may buy"}.get(frame.phase, "")
        out.append(f" · {frame.names[frame.actor]} {verb}", DIM)
    return out


class ReplayScreen(Screen[None]):
    """A recorded game, stepped through with the arrow keys."""

    CSS_PATH = "replay.tcss"
    # Priority: the arrow keys step the replay, even where a panel could scroll.
    BINDINGS = [
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("right", "step(1)", "Forward", priority=True),
        # (Home and End work too, unlisted: the key bar fits 80 columns with Close)
        Binding("home", "jump('start')", "Start", priority=True, show=False),
        Binding("end", "jump('end')", "End", priority=True, show=False),
        Binding("pageup,left_square_bracket", "jump('previous_round')", "Prev deal",
                priority=True),
        Binding("pagedown,right_square_bracket", "jump('next_round')", "Next deal",
                priority=True),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(self, record: GameRecord, replay: Replay | None = None) -> None:
        super().__init__(classes="replay-screen")
        self.record = record
        self.replay = replay or Replay(record)

    def compose(self) -> ComposeResult:
        yield Static(id="replay-title")
        yield Static(id="replay-position")
        with Horizontal(id="replay-body"):
            with VerticalScroll(id="replay-seats"):
                for seat in range(len(self.record.seats)):
                    yield Static(id=f"replay-seat-{seat}", classes="replay-seat")
            with Vertical(id="replay-side"):
                yield Static(id="replay-piles")
                with VerticalScroll(id="replay-table-box"):
                    yield Static(id="replay-table")
                yield Static(id="replay-scores")
        yield Static(id="replay-caption")
        yield Footer()

    def on_mount(self) -> None:
        rec = self.record
        when = rec.finished_at.astimezone().strftime("%Y-%m-%d %H:%M")
        number = f"#{rec.id} · " if rec.id is not None else ""
        players = ", ".join(s.label for s in rec.seats)
        title = Text()
        title.append(f"Replay {number}", Style(color=self.card_style().c.highlight, bold=True))
        title.append(f"{rec.ruleset_name} · {when} · {players}")
        if rec.undos:
            title.append(f" · {rec.undos} {'move' if rec.undos == 1 else 'moves'} taken back")
        self.query_one("#replay-title", Static).update(title)
        self.show(self.replay.frame())

    def card_style(self) -> CardStyle:
        getter = getattr(self.app, "card_style", None)
        style = getter() if callable(getter) else None
        return style if isinstance(style, CardStyle) else CardStyle()

    def show(self, frame: Frame) -> None:
        """Draw one frame."""
        style = self.card_style()
        self.query_one("#replay-position", Static).update(
            position_text(frame, max(self.record.rounds, frame.deal), style))
        for seat, spec in enumerate(self.record.seats):
            panel = self.query_one(f"#replay-seat-{seat}", Static)
            panel.update(seat_text(frame, seat, style, spec.bot))
            panel.set_class(seat == frame.actor, "-actor")
            panel.set_class(seat in frame.winners, "-winner")
        self.query_one("#replay-piles", Static).update(piles_text(frame, style))
        self.query_one("#replay-table", Static).update(table_text(frame, style))
        self.query_one("#replay-scores", Static).update(scores_text(frame, style))
        self.query_one("#replay-caption", Static).update(
            Text(card_words(frame.caption, style, self.record.names)))

    @property
    def frame(self) -> Frame:
        return self.replay.frame()

    def action_step(self, delta: int) -> None:
        before = self.replay.position
        frame = self.replay.goto(before + delta)
        if frame.index == before:
            self.app.bell()
        self.show(frame)

    def action_jump(self, where: str) -> None:
        moves = {"start": self.replay.start, "end": self.replay.end,
                 "previous_round": self.replay.previous_round,
                 "next_round": self.replay.next_round}
        self.show(moves[where]())

    def action_close(self) -> None:
        self.dismiss()


class ReplayApp(App[None]):
    """Just the replay, for `rummy replay ID|FILE`."""

    TITLE = "Rummy replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    def __init__(self, record: GameRecord, style: CardStyle | None = None) -> None:
        super().__init__()
        self.record = record
        self._style = style or CardStyle()

    def card_style(self) -> CardStyle:
        return self._style

    @property
    def plain_output(self) -> bool:
        """ASCII cards (`--ascii`, or a terminal without UTF-8): ASCII everything."""
        return self._style.ascii

    def get_driver_class(self) -> type[Driver]:
        return plain_driver(super().get_driver_class())

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.record), callback=lambda _: self.exit())
