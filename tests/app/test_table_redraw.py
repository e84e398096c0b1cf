"""An ordinary move redraws what changed and lays nothing out again: a layout of the
screen costs a whole reflow and a redraw of every pane that moved, on every screen at the
table (a check after each move once made every draw and discard lay out every screen
again, most of a move's cost over SSH)."""

from __future__ import annotations

from app_driver import HUMAN, at_table, rigged_app, table_screen, wait_until
from textual.css.model import CombinatorType, RuleSet, SelectorType

from tui.app.screens.table import TableScreen
from tui.app.screens.table_view import TURN


async def test_a_draw_and_a_discard_lay_the_table_out_no_more() -> None:
    app = rigged_app("three_thirteen", ["2C 7D KH", "4C 8D QH", "5C 9D JH", "6C 10D AH"], 3,
                     discard="4S", stock_top="9S")  # nothing melds: a plain draw and discard
    table = app.env.table
    layouts: list[object] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        assert isinstance(screen, TableScreen) and screen.view_now.my_turn
        await pilot.pause()
        screen.screen_layout_refresh_signal.subscribe(screen.query_one("#prompt"),
                                                      layouts.append, immediate=True)
        before = len(table.view(HUMAN).log)
        for key in ("s", "d"):  # the stock's top card, then the card under the cursor
            await pilot.press(key)
            await wait_until(pilot, lambda seen=before: at_table(app)
                             and len(screen.view_now.log) > seen)
            before = len(screen.view_now.log)
            await pilot.pause()
        assert table.view(HUMAN).turn != HUMAN  # the turn passed: the next pane lit up
        assert screen.query_one("#seat-1").has_class("-turn")
        assert layouts == []


def _styles_inside_through(rules: list[RuleSet], name: str) -> list[str]:
    """Rules that style something inside a widget through its class `name` (the class
    in a selector that another one follows as a descendant or child)."""
    found = []
    for rule in rules:
        for selector_set in rule.selector_set:
            selectors = selector_set.selectors
            for i, selector in enumerate(selectors):
                if selector.type == SelectorType.CLASS and selector.name == name.lstrip(".") \
                        and any(s.combinator != CombinatorType.SAME for s in selectors[i + 1:]):
                    found.append(rule.css)
    return found


async def test_the_turn_passing_restyles_the_hands_box_not_what_is_inside_it() -> None:
    """The box of the player to move has its own border; Textual restyles every widget
    inside a widget whose class changes (the melds and the hand, on two screens each time
    the turn passes), which nothing in it needs: no rule styles them through that class."""
    app = rigged_app("three_thirteen", ["2C 7D KH", "4C 8D QH", "5C 9D JH"], 3, discard="4S",
                     stock_top="9S")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        assert _styles_inside_through(app.stylesheet.rules, TURN) == []
        assert _styles_inside_through(app.stylesheet.rules, "-ascii")  # (it finds them)
        me = screen.query_one("#me")
        await pilot.press("s")
        await wait_until(pilot, lambda: at_table(app) and screen.view_now.phase != "draw"
                         and me.has_class(TURN))
        turn_border = me.styles.border_top
        restyled: list[object] = []
        apply = app.stylesheet.apply

        def recorded(node, **kwargs):  # noqa: ANN001, ANN202 - Stylesheet.apply's
            restyled.append(node)
            return apply(node, **kwargs)

        app.stylesheet.apply = recorded  # type: ignore[method-assign]
        await pilot.press("d")
        await wait_until(pilot, lambda: at_table(app) and not me.has_class(TURN))
        await pilot.pause()
        assert me in restyled and me.styles.border_top != turn_border
        inside = set(me.query("*"))
        assert inside and not inside & set(restyled)
