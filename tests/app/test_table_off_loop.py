"""Nothing slow on the loop that draws the table: the seat's view (its legal moves, which
may search for a go-out) is read in a worker, and a reading the table changed under is
never shown.  A finished game offers no undo."""

from __future__ import annotations

import threading

from app_driver import HUMAN, at_table, finished_table, make_env, table_screen, wait_until

from tui.app.app import RummyApp
from tui.app.command_palette import table_commands
from tui.app.environment import AppEnvironment
from tui.app.screens.table import TableScreen
from tui.app.widgets.keybar import KeyBar
from tui.engine.actions import DrawStock
from tui.engine.deal.moves import Deal
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.view import SeatView
from tui.service.interface import SeatSpec
from tui.service.table import Table


async def test_the_legal_moves_are_never_listed_on_the_loop(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    listed_on: list[int] = []
    real = Deal.legal

    def watched(self: Deal, seat: int) -> tuple:  # noqa: ANN401
        if seat == HUMAN:
            listed_on.append(threading.get_ident())
        return real(self, seat)

    monkeypatch.setattr(Deal, "legal", watched)
    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=8))
    loop_thread = threading.get_ident()  # the test runs on the app's loop
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = table_screen(app)
        game = screen.table.game
        for _ in range(2):  # two of my turns, by keys, the bots moving between them
            await wait_until(pilot, lambda: game.actor == HUMAN and game.phase == "draw")
            await wait_until(pilot, lambda: screen.view_now.phase == "draw")
            await pilot.press("s")
            await wait_until(pilot, lambda: screen.view_now.phase == "play")
            assert len(screen.hand.order) == len(game.round.hands[HUMAN])
            assert screen.view_now.discardable  # the listing arrived with the view
            await pilot.press("d")
            await wait_until(pilot, lambda: game.actor != HUMAN or game.phase != "play")
    assert listed_on, "the human seat's moves were never listed"
    assert loop_thread not in listed_on


class HeldTable(Table):
    """A table whose next reading of a view waits, once read, until the test lets it go."""

    hold: threading.Event | None = None
    reading = threading.Event()

    def view(self, seat: int) -> SeatView:
        view = super().view(seat)
        hold = self.hold
        if hold is not None:
            self.hold = None
            self.reading.set()
            hold.wait(10)
        return view


async def test_a_view_read_before_a_move_is_not_shown_after_it(tmp_path) -> None:  # noqa: ANN001
    table = HeldTable(load_ruleset("three_thirteen"), [SeatSpec("Ann"), SeatSpec("Bo", "random")],
                      seed=8, record=False)
    while table.bot_to_move() is not None:
        table.step_bot()
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, player_name="Ann",
                                  drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = table_screen(app)
        await wait_until(pilot, lambda: screen._view is not None
                         and screen.view_now.phase == "draw")
        arrived: list[tuple[SeatView, bool]] = []
        show = screen._show_view

        def arriving(view: SeatView, can_undo: bool, generation: int, *more: object) -> None:
            show(view, can_undo, generation, *more)  # type: ignore[arg-type]
            arrived.append((view, screen._view is view))

        screen._show_view = arriving  # type: ignore[method-assign]
        release = table.hold = threading.Event()
        screen.refresh_table()  # a reading of the draw phase starts, and is held
        await wait_until(pilot, table.reading.is_set)
        table.act(HUMAN, DrawStock(HUMAN))  # the move, while that reading is out
        await wait_until(pilot, lambda: any(v.phase == "play" for v, _ in arrived))
        assert screen.view_now.phase == "play"
        release.set()
        await wait_until(pilot, lambda: any(v.phase == "draw" for v, _ in arrived))
        assert [shown for v, shown in arrived if v.phase == "draw"] == [False]
        assert screen.view_now.phase == "play"
        assert len(screen.hand.order) == len(table.game.round.hands[HUMAN])


async def test_a_finished_game_offers_no_undo(tmp_path) -> None:  # noqa: ANN001
    table = finished_table([SeatSpec("Ann"), SeatSpec("Bo", "random")])
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, player_name="Ann",
                                  drive_bots=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: any(isinstance(s, TableScreen)
                                            for s in app.screen_stack))
        screen = table_screen(app)
        await wait_until(pilot, lambda: screen._view is not None)
        await wait_until(pilot, lambda: screen.query_one(KeyBar).hints != ())
        assert "undo" not in {hint.action for hint in screen.query_one(KeyBar).hints}
        assert not any("Undo" in command.title for command in table_commands(screen))
        assert screen.check_action("undo", ()) is False  # the key does nothing either


def _policy_moves(table: Table, moves: int | None = None) -> int:
    """Play `table` (the person taking the first legal move) for `moves` actions, or to the
    end of the game; returns how many actions were played."""
    played = 0
    while table.game.phase != "game_over" and (moves is None or played < moves):
        if table.game.phase == "round_over":
            table.next_round()
            continue
        if table.bot_to_move() is not None:
            table.step_bot()
        else:
            table.act(HUMAN, table.view(HUMAN).legal[0])
        played += 1
    return played


async def test_the_record_of_a_game_finished_at_the_table_is_announced(tmp_path) -> None:  # noqa: ANN001
    """The record is written after the last move, away from the loop; the player is told
    its number when it is done."""
    def fresh(record: bool) -> Table:
        return Table(load_ruleset("three_thirteen"),
                     [SeatSpec("Ann"), SeatSpec("Bo", "random")], seed=3, record=record)

    total = _policy_moves(fresh(record=False))  # a rehearsal, to count the moves
    table = fresh(record=True)
    _policy_moves(table, total - 1)
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, player_name="Ann",
                                  drive_bots=False))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = table_screen(app)
        await wait_until(pilot, lambda: screen._view is not None)
        _policy_moves(table, 1)  # the last move, made on the app's loop
        assert table.game.phase == "game_over" and table.record_outcome is None
        await wait_until(pilot, lambda: any(n.title == "Records" for n in app._notifications))
        [note] = [n for n in app._notifications if n.title == "Records"]
        assert table.record_outcome is not None
        assert f"#{table.record_outcome.record_id}" in str(note.message)


async def test_searching_the_hand_for_melds_is_done_off_the_loop(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """`o` with no go-out listed, and `a` sorting by melds, search the hand: in a worker,
    the answer (a notice, the new order) shown when it comes."""
    import tui.app.screens.table_view as table_module
    from tui.engine.actions import GoOut

    searched_on: list[int] = []
    real = table_module.best_arrangement

    def watched(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        searched_on.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(table_module, "best_arrangement", watched)
    table = Table(load_ruleset("three_thirteen"), [SeatSpec("Ann"), SeatSpec("Bo", "random")],
                  seed=8, record=False)
    while table.bot_to_move() is not None:
        table.step_bot()
    table.act(HUMAN, DrawStock(HUMAN))
    assert not any(isinstance(a, GoOut) for a in table.view(HUMAN).legal)
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, player_name="Ann",
                                  drive_bots=False))
    loop_thread = threading.get_ident()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        await pilot.press("o")
        await wait_until(pilot, lambda: any("cannot go out" in str(n.message)
                                            for n in app._notifications))
        while screen.hand.sort_mode != "melds":
            mode = screen.hand.sort_mode
            await pilot.press("a")
            await wait_until(pilot, lambda mode=mode: screen.hand.sort_mode != mode)
    assert searched_on and loop_thread not in searched_on


async def _hint_and_a_move(pilot, app: RummyApp) -> None:  # noqa: ANN001
    """A hint, one move of mine and the bot's answer: work in threads of every kind."""
    screen = table_screen(app)
    game = screen.table.game
    await pilot.press("h")  # a hint, worked out in a thread
    await wait_until(pilot, lambda: game.actor == HUMAN and game.phase == "draw")
    await wait_until(pilot, lambda: screen.view_now.phase == "draw")
    await pilot.press("s")  # a move (saved in a thread); then the bot's (thought in one)
    await wait_until(pilot, lambda: screen.view_now.phase == "play")
    await pilot.press("d")
    await wait_until(pilot, lambda: game.actor == HUMAN and game.phase == "draw")
    await app.workers.wait_for_complete()


async def test_a_table_left_is_not_kept_alive_by_the_work_it_did_in_threads(tmp_path) -> None:  # noqa: ANN001
    """A bug that happened: the save, bot, search and hint work ran in Textual thread
    workers, and the worker a thread ran last stayed in that thread's context, holding
    the table screen (with its widgets and its game) after the player left it."""
    import gc

    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, bots=("medium",), seed=8))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await _hint_and_a_move(pilot, app)
        table_screen(app).action_leave()
        await wait_until(pilot, lambda: not any(isinstance(s, TableScreen)
                                                for s in app.screen_stack))

        def freed() -> bool:
            gc.collect()
            return not [o for o in gc.get_objects() if isinstance(o, TableScreen)]

        # a reading cancelled on leaving lets go of the screen once its thread returns
        # (at once on a quiet machine, later under load); a kept screen never does
        await wait_until(pilot, freed, timeout=5.0, step=0.1)
