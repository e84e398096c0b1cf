"""Screens in one process showing the same opponent's pane lay its lines out once; a pane
showing anything else (other cards held, another width, another theme) lays out its own."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from tui.app.cardart import CardStyle
from tui.app.messages import DiscardClicked, KeyHintClicked
from tui.app.table_presenter import OpponentContent
from tui.app.widgets.keybar import Hint, KeyBar
from tui.app.widgets.opponent import OpponentPane
from tui.app.widgets.piles import DiscardPile
from tui.engine.cards import parse_cards


class PaneApp(App[None]):
    CSS = "OpponentPane { border: round $success; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield OpponentPane(1)


def content(cards: int, name: str = "Ada") -> OpponentContent:
    return OpponentContent(1, Text(name), Text("dealer"), Text(f"{cards} cards · 0 pts"),
                           False, (), frozenset())


async def _lines(app: PaneApp, shown: OpponentContent, size: tuple[int, int]) -> list[object]:
    async with app.run_test(size=size) as pilot:
        pane = app.query_one(OpponentPane)
        pane.show(shown, CardStyle())
        await pilot.pause()
        await pilot.pause()
        assert str(pane.render()).startswith(shown.info.plain)
        # the whole box, border and padding too, as the compositor asks for it
        styled = pane.render_lines(Region(0, 0, pane.region.width, pane.region.height))
        pane.refresh()  # its text laid out again (or taken from another screen's)
        pane._render_content()
        return [pane._render_cache.lines, styled]


async def test_the_same_pane_on_two_screens_is_laid_out_once() -> None:
    first = await _lines(PaneApp(), content(6), (40, 8))
    again = await _lines(PaneApp(), content(6), (40, 8))
    assert again[0] is first[0] and again[1] is first[1]
    # another title: the box is drawn again, the text inside is the same
    titled = await _lines(PaneApp(), content(6, "Ben"), (40, 8))
    assert titled[0] is first[0] and titled[1] is not first[1] and titled[1] != first[1]
    other_cards = await _lines(PaneApp(), content(5), (40, 8))
    other_width = await _lines(PaneApp(), content(6), (30, 8))
    themed = PaneApp()
    themed.theme = "nord"
    other_theme = await _lines(themed, content(6), (40, 8))
    assert all(lines[0] is not first[0] and lines[1] is not first[1]
               for lines in (other_cards, other_width, other_theme))
    assert other_cards != first


class PileApp(App[None]):
    CSS = "DiscardPile { width: 23; }"

    def __init__(self) -> None:
        super().__init__()
        self.clicked: list[int] = []

    def compose(self) -> ComposeResult:
        yield DiscardPile()

    @on(DiscardClicked)
    def _clicked(self, message: DiscardClicked) -> None:
        self.clicked.append(message.depth)


async def test_a_click_on_a_pile_drawn_from_another_screens_lines_takes_the_card_under_it(
        ) -> None:
    """The fanned cards a click picks are worked out from the pile, not from the last
    paint: the second screen never paints the pile, it shows the first one's lines."""
    pile = tuple(parse_cards("2C 5D 8H KS 9C"))
    depths = []
    for _ in range(2):
        app = PileApp()
        async with app.run_test(size=(30, 6)) as pilot:
            app.query_one(DiscardPile).show(pile, len(pile), True, False, CardStyle(),
                                            lambda card: False)
            await pilot.pause()
            # three of the four cards below the top fit: 5D 8H KS, 3 to 1 deep
            await pilot.click(DiscardPile, offset=(1, 2))
            await pilot.click(DiscardPile, offset=(9, 2))
            await pilot.pause()
            depths.append(app.clicked)
    assert depths == [[3, 1], [3, 1]]


class BarApp(App[None]):
    def __init__(self, hints: tuple[Hint, ...]) -> None:
        super().__init__()
        self.hints = hints
        self.clicked: list[str] = []

    def compose(self) -> ComposeResult:
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(KeyBar).show(self.hints)

    @on(KeyHintClicked)
    def _clicked(self, message: KeyHintClicked) -> None:
        self.clicked.append(message.action)


DRAW = (Hint("s", "Stock", "draw_stock"), Hint("t", "Take", "take_discard"),
        Hint("u", "Undo", "undo", enabled=False))


async def test_a_key_bar_another_screen_drew_is_taken_as_it_is_and_its_keys_still_click(
        ) -> None:
    """The keys of a turn recur on every screen at every table: a bar showing the same
    keys at the same width takes the lines already drawn (and a click finds its key from
    the hints, not from a render it never made)."""
    drawn = []
    for hints in (DRAW, DRAW, DRAW[:2]):
        app = BarApp(hints)
        async with app.run_test(size=(40, 3)) as pilot:
            await pilot.pause()
            bar = app.query_one(KeyBar)
            drawn.append(bar.render_lines(bar.size.region))
            await pilot.click(KeyBar, offset=(10, 0))  # " t Take ": the second key
            await pilot.pause()
            assert app.clicked == ["take_discard"]
    assert drawn[1] is drawn[0]
    assert drawn[2] is not drawn[0] and drawn[2] != drawn[0]


class RowApp(App[None]):
    """An opponent's pane first or last in its row, as it is on different screens at a
    table (seat 1's pane is first on seat 0's screen, last on seat 2's)."""

    def __init__(self, first: bool, css: str = "") -> None:
        super().__init__()
        self.first = first
        self.extra_css = css

    CSS = """
    Horizontal { height: 5; }
    OpponentPane { width: 30; border: round $success; padding: 0 1; }
    Static { width: 10; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            if not self.first:
                yield Static("x")
            yield OpponentPane(1)
            if self.first:
                yield Static("x")

    def on_mount(self) -> None:
        if self.extra_css:
            self.stylesheet.add_source(self.extra_css, read_from=("test", "extra"))
            self.stylesheet.parse()
            self.stylesheet.update(self.screen)


async def _row_lines(app: RowApp) -> list[Strip]:
    async with app.run_test(size=(60, 6)) as pilot:
        pane = app.query_one(OpponentPane)
        pane.show(content(6), CardStyle())
        await pilot.pause()
        await pilot.pause()
        return pane.render_lines(Region(0, 0, pane.region.width, pane.region.height))


async def test_a_pane_first_in_its_row_on_one_screen_and_last_on_another_is_drawn_once(
        ) -> None:
    first = await _row_lines(RowApp(first=True))
    last = await _row_lines(RowApp(first=False))
    assert last is first
    # where a rule styles the pane by its place, each place is drawn for itself
    placed = "OpponentPane:first-child { border: heavy $warning; }"
    first = await _row_lines(RowApp(first=True, css=placed))
    last = await _row_lines(RowApp(first=False, css=placed))
    assert last is not first and last != first
