"""Melding by keys on a stacked deck: select, group, lay down, lay off onto a chosen meld,
and the mouse doing the same."""

from __future__ import annotations

from app_driver import HUMAN, at_table, rigged_table, table_screen, wait_until

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.pickers import PickScreen
from tui.app.screens.table import TableScreen
from tui.app.widgets.hand import HandView
from tui.service.table import Table


def stacked_table(mine: str = "7H 7S 7D 9C 9D 9S 4H 5H 7C KC",
                  third: str = "5S 6S JK 2D 3D 4D AH AS 10H 10S",
                  discard: str = "QS", stock_top: str = "8C 2H 3S") -> Table:
    """A contract game, the human to play, with the hands and piles stacked."""
    return rigged_table("contract_rummy", [mine, "2C 3C 4C 8D 8S 8H JD QD KD 10C", third], 5,
                        discard=discard, stock_top=stock_top)


async def press_on(pilot, app: RummyApp, face: str, *keys: str) -> None:  # noqa: ANN001
    """Move the cursor to the card shown as `face` (e.g. "7♥"), then press `keys`."""
    screen = table_screen(app)
    style = screen.card_style()
    for _ in range(len(screen.hand.order) + 1):
        card = screen.hand.cursor_card
        if card is not None and style.label(card) == face:
            await pilot.press(*keys)
            return
        await pilot.press("right")
    raise AssertionError(f"{face} not in hand")


async def test_group_lay_down_and_lay_off_by_keys() -> None:
    table = stacked_table()
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.press("s")
        for face in ("7♥", "7♠", "7♦"):
            await press_on(pilot, app, face, "space")
        await pilot.press("g")
        for face in ("9♣", "9♦", "9♠"):
            await press_on(pilot, app, face, "space")
        await pilot.press("g")
        assert len(table_screen(app).hand.groups) == 2
        await pilot.press("m")
        await pilot.pause()
        melds = table.view(HUMAN).table
        assert sorted(sorted(str(c) for c in m.cards) for m in melds) == [
            ["7D", "7H", "7S"], ["9C", "9D", "9S"]]
        assert table_screen(app).hand.groups == []
        await press_on(pilot, app, "7♣", "space", "l")  # one meld takes it: no question
        await pilot.pause()
        sevens = next(m for m in table.view(HUMAN).table if m.cards[0].rank == 7)
        assert len(sevens.cards) == 4
        assert "7C" not in [str(c) for c in table.view(HUMAN).hand]


async def test_mouse_draws_selects_and_discards() -> None:
    table = stacked_table()
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.click("#stock")
        await pilot.pause()
        view = table.view(HUMAN)
        assert view.phase == "play" and len(view.hand) == 11
        hand = app.screen.query_one(HandView)
        offset, step = hand._geometry
        await pilot.click(HandView, offset=(offset + 1, 2))  # the first card
        first = table_screen(app).hand.hand[0]
        assert table_screen(app).hand.selected == {first.uid}
        await pilot.click("#discard", offset=(4, 2))
        await pilot.pause()
        after = table.view(HUMAN)
        assert after.top_discard is not None and after.top_discard.uid == first.uid
        assert len(after.hand) == 10


async def test_take_from_deep_in_the_pile_by_keys() -> None:
    table = stacked_table("7H 7S 9D 9C 9S 4H 5D 6S JC KC", "5S 6D JK 2D 3D 4D AH AS 10H 10S",
                          discard="QS 7C 5H", stock_top="8C")
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.press("t")
        assert isinstance(app.screen, PickScreen)
        await pilot.press("down", "enter")  # the second choice: 7C and the 5H above it
        await pilot.pause()
        hand = sorted(str(c) for c in table.view(HUMAN).hand)
        assert "7C" in hand and "5H" in hand
        assert [str(c) for c in table.view(HUMAN).discard] == ["QS"]


async def _lay_down_sevens_and_nines(pilot, app: RummyApp) -> None:  # noqa: ANN001
    await pilot.press("s")
    for face in ("7♥", "7♠", "7♦"):
        await press_on(pilot, app, face, "space")
    await pilot.press("g")
    for face in ("9♣", "9♦", "9♠"):
        await press_on(pilot, app, face, "space")
    await pilot.press("g", "m")
    await pilot.pause()


async def test_lay_off_offers_only_the_melds_that_take_the_card() -> None:
    table = stacked_table(mine="7H 7S 7D 9C 9D 9S 4H JK 7C KC",
                          third="5S 6S 6H 2D 3D 4D AH AS 10H 10S")
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, drive_bots=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await _lay_down_sevens_and_nines(pilot, app)
        assert len(table.view(HUMAN).table) == 2
        before = table.view(HUMAN)
        await press_on(pilot, app, "K♣", "space", "l")  # fits no meld: refused, no list
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert table.view(HUMAN).table == before.table
        assert any(n.title == "Not allowed" for n in app._notifications)
        await pilot.press("escape")
        await press_on(pilot, app, "JK", "space", "l")  # fits both: asked which
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, PickScreen)
        assert sorted(value for value, _ in picker.choices) == sorted(m.id for m in before.table)
        await pilot.press("down", "down")  # moving never plays
        assert table.view(HUMAN).hand == before.hand
        await pilot.press("escape")
        await pilot.pause()
        assert table.view(HUMAN).hand == before.hand


async def test_deep_take_offers_only_legal_depths_and_waits_for_enter() -> None:
    table = stacked_table("7H 7S 9D 9C 9S 4H 5D 6S JC KC", "5S 6D JK 2D 3D 4D AH AS 10H 10S",
                          discard="QS 3H 7C 5H", stock_top="8C")
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.press("t")
        picker = app.screen
        assert isinstance(picker, PickScreen)
        assert [value for value, _ in picker.choices] == [0, 1]  # not 3H or QS: no meld
        options = picker.query_one("OptionList")
        assert all(not options.get_option_at_index(i).disabled
                   for i in range(options.option_count))
        before = table.view(HUMAN)
        await pilot.press("down", "down")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen) and table.view(HUMAN).hand == before.hand
        await pilot.press("escape")


async def test_t_takes_at_once_when_only_the_top_card_may_be_taken() -> None:
    """(It used to ask anyway, a dialog of one choice: issue 33.)"""
    table = stacked_table("7H 7S 9D 9C 9S 4H 5D 6S JC KC", "5S 6D JK 2D 3D 4D AH AS 10H 10S",
                          discard="QS 3H", stock_top="8C")
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.press("t")
        await wait_until(pilot, lambda: "3H" in [str(c) for c in table.view(HUMAN).hand])
        assert not isinstance(app.screen, PickScreen)
