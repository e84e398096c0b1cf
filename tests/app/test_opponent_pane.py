"""An opponent's pane is one widget drawing its own lines: what they hold, their score,
then a line a meld; a click on a meld's line names that meld."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult

from tui.app.cardart import CardStyle
from tui.app.messages import MeldClicked
from tui.app.table_presenter import OpponentContent
from tui.app.widgets.opponent import OpponentPane
from tui.engine.cards import Card
from tui.engine.meld import Meld


def meld(rank: int, id: int) -> Meld:
    cards = tuple(Card(rank, suit, uid=10 * id + i) for i, suit in enumerate("CDH"))
    return Meld("set", cards, tuple((rank, s) for s in "CDH"), owner=1, id=id)


class PaneApp(App[None]):
    CSS = "OpponentPane { border: round white; padding: 0 1; }"  # as at the table

    def __init__(self) -> None:
        super().__init__()
        self.clicked: list[int] = []

    def compose(self) -> ComposeResult:
        yield OpponentPane(1)

    @on(MeldClicked)
    def _clicked(self, message: MeldClicked) -> None:
        self.clicked.append(message.meld_id)


async def test_the_pane_shows_its_lines_and_a_click_names_the_meld_under_it() -> None:
    app = PaneApp()
    async with app.run_test(size=(40, 12)) as pilot:
        pane = app.query_one(OpponentPane)
        content = OpponentContent(1, Text("Ada"), Text("dealer"),
                                  Text("6 cards · 0 pts\n1 buy left"), False,
                                  (meld(7, 4), meld(9, 5)), frozenset())
        pane.show(content, CardStyle())
        await pilot.pause()
        lines = str(pane.render()).split("\n")
        assert lines[:2] == ["6 cards · 0 pts", "1 buy left"]
        assert lines[2].split() == ["7♣", "7♦", "7♥"] and lines[3].split() == ["9♣", "9♦", "9♥"]
        assert pane.size.height == 4  # laid out to its lines
        # the border and the padding come first: the content starts at (2, 1)
        await pilot.click(OpponentPane, offset=(4, 1 + 3))
        await pilot.click(OpponentPane, offset=(4, 1 + 0))  # the cards held: no meld
        await pilot.pause()
        assert app.clicked == [5]
