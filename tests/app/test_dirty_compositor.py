"""The table's compositor leaves the widgets under no dirty region out of a partial update:
what it sends must still be, cell for cell, what the whole screen shows there."""

from __future__ import annotations

from app_driver import HUMAN, at_table, rigged_app, table_screen, wait_until
from textual._compositor import ChopsUpdate
from textual.strip import Strip

from tui.app.dirty_compositor import DirtyCompositor


def _cells(strip: Strip) -> list[tuple[str, object]]:
    return [(char, segment.style) for segment in strip for char in segment.text]


def _sent_against_whole(compositor: DirtyCompositor, update: ChopsUpdate) -> list[str]:
    """Each span the update sends, against the same span of the whole screen now."""
    whole = compositor.render_strips()
    wrong = []
    for y, x1, x2 in update.spans:
        line = update.chops[y]
        sent = Strip.join([strip for strip in line.values() if strip is not None])
        cuts = [x for x, strip in line.items() if strip is not None]
        start = cuts[0] if cuts else 0
        got = _cells(sent)[x1 - start:x2 - start]
        want = _cells(whole[y])[x1:x2]
        if got != want:
            wrong.append(f"line {y} {x1}-{x2}: {''.join(c for c, _ in got)!r} != "
                         f"{''.join(c for c, _ in want)!r}")
    return wrong


async def test_what_a_move_sends_is_what_the_whole_screen_shows() -> None:
    app = rigged_app("three_thirteen", ["2C 7D KH", "4C 8D QH", "5C 9D JH"], 3, discard="4S",
                     stock_top="9S")
    table = app.env.table
    updates: list[ChopsUpdate] = []
    wrong: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        compositor = screen._compositor
        assert isinstance(compositor, DirtyCompositor)
        partial = compositor.render_partial_update

        def checked() -> ChopsUpdate | None:
            update = partial()
            if update is not None:
                updates.append(update)
                wrong.extend(_sent_against_whole(compositor, update))
            return update

        compositor.render_partial_update = checked  # type: ignore[method-assign]
        moves = len(table.view(HUMAN).log)
        for key in ("s", "right", "space", "d"):  # draw, move, select, discard
            await pilot.press(key)
            await wait_until(pilot, lambda: at_table(app))
            await pilot.pause()
        await wait_until(pilot, lambda: len(screen.view_now.log) >= moves + 2)
        await pilot.pause()
        # (a frame after a layout is a full update, Textual's own: not checked here)
        assert updates and not wrong, wrong[:5]
