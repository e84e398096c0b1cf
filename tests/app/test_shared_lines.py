"""Screens in one process showing the same opponent's pane lay its lines out once; a pane
showing anything else (other cards held, another width, another theme) lays out its own."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from tui.app.cardart import CardStyle
from tui.app.table_presenter import OpponentContent
from tui.app.widgets.opponent import OpponentPane


class PaneApp(App[None]):
    CSS = "OpponentPane { border: round $success; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield OpponentPane(1)


def content(cards: int) -> OpponentContent:
    return OpponentContent(1, Text("Ada"), Text("dealer"), Text(f"{cards} cards · 0 pts"),
                           False, (), frozenset())


async def _lines(app: PaneApp, shown: OpponentContent, size: tuple[int, int]) -> list[object]:
    async with app.run_test(size=size) as pilot:
        pane = app.query_one(OpponentPane)
        pane.show(shown, CardStyle())
        await pilot.pause()
        await pilot.pause()
        assert str(pane.render()).startswith(shown.info.plain)
        return pane._render_cache.lines


async def test_the_same_pane_on_two_screens_is_laid_out_once() -> None:
    first = await _lines(PaneApp(), content(6), (40, 8))
    again = await _lines(PaneApp(), content(6), (40, 8))
    assert again is first
    other_cards = await _lines(PaneApp(), content(5), (40, 8))
    other_width = await _lines(PaneApp(), content(6), (30, 8))
    themed = PaneApp()
    themed.theme = "nord"
    other_theme = await _lines(themed, content(6), (40, 8))
    assert all(lines is not first for lines in (other_cards, other_width, other_theme))
    assert other_cards != first
