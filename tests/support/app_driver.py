"""Helpers for the app's pilot tests: an app around a fresh table, and a player who plays
only by pressing keys (and answers "Choose first" dialogs with Enter)."""

from __future__ import annotations

from pathlib import Path

from table_rig import rig

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment, GameRequest
from tui.app.screens.menu import MenuScreen
from tui.app.screens.pickers import PickScreen
from tui.app.screens.rules import RulesScreen
from tui.app.screens.summary import GameOverScreen, RoundSummaryScreen
from tui.app.screens.table import TableScreen
from tui.app.settings import Settings, SettingsStore
from tui.engine.actions import GoOut, LayDown, LayOff, TakeDiscard
from tui.engine.ruleset.loader import load_ruleset
from tui.engine.view import SeatView
from tui.service.interface import SeatSpec
from tui.service.table import Table

HUMAN = 0


def make_env(tmp_path: Path, rules: str | None = "three_thirteen", players: int = 3,
             bots: tuple[str, ...] = ("random",), seed: int = 7, speed: str = "instant",
             drive_bots: bool = True) -> AppEnvironment:
    store = SettingsStore(tmp_path / "settings.json")
    store.save(Settings(name="Tess", bot_speed=speed))
    request = GameRequest(rules, players, bots, seed) if rules else None
    return AppEnvironment(settings_store=store, save_path=tmp_path / "current_game.json",
                          request=request, drive_bots=drive_bots)


def rigged_table(rules: str, hands: list[str], seed: int, **rig_args: str) -> Table:
    """A table of `rules` for Tess and random bots (Ada, Ben, Cy: one a hand after hers),
    its deal stacked (`table_rig.rig`: `hands`, `discard`, `stock_top`), Tess to play."""
    bots = ("Ada", "Ben", "Cy")[:len(hands) - 1]
    table = Table(load_ruleset(rules), [SeatSpec("Tess")] + [SeatSpec(b, "random") for b in bots],
                  seed=seed)
    rig(table.game, hands, turn=HUMAN, **rig_args)
    return table


def rigged_app(rules: str, hands: list[str], seed: int, **rig_args: str) -> RummyApp:
    """Tess's app at a `rigged_table`, its bots not driven (the test moves them)."""
    table = rigged_table(rules, hands, seed, **rig_args)
    return RummyApp(AppEnvironment(table=table, seat=HUMAN, drive_bots=False))


def finished_table(seats: list[SeatSpec]) -> Table:
    """A game of Three Thirteen played to its end, unrecorded: the bots by their own
    choices, the people by the first legal move each time."""
    table = Table(load_ruleset("three_thirteen"), seats, seed=3, record=False)
    while table.game.phase != "game_over":
        if table.game.phase == "round_over":
            table.next_round()
        elif table.bot_to_move() is not None:
            table.step_bot()
        else:
            seat = table.game.actor
            table.act(seat, table.view(seat).legal[0])
    return table


def table_screen(app: RummyApp) -> TableScreen:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError(f"no table screen in {app.screen_stack}")


def at_table(app: RummyApp) -> bool:
    """The table screen is on top and shows the table's latest change (it reads the
    seat's view in a worker, a moment after it opens and after each change)."""
    screen = app.screen
    return isinstance(screen, TableScreen) and screen.caught_up


def view(app: RummyApp) -> SeatView:
    return table_screen(app).table.view(HUMAN)


async def wait_until(pilot, condition, timeout: float = 30.0, step: float = 0.02) -> None:  # noqa: ANN001
    waited = 0.0
    while not condition():
        await pilot.pause(step)
        waited += step
        if waited > timeout:
            raise AssertionError(f"timed out waiting for {condition.__doc__ or condition}")


async def past_the_bots(pilot, app: RummyApp) -> TableScreen:  # noqa: ANN001
    """At the table, the bots' moves made one by one up to the player's (an app whose bots
    are not driven): the table screen."""
    await wait_until(pilot, lambda: at_table(app))
    screen = table_screen(app)
    while screen.table.bot_to_move() is not None:
        screen.table.step_bot()
    return screen


async def open_rules(pilot, app: RummyApp) -> None:  # noqa: ANN001
    """From the menu, `r`: the rules screen, once it has read the rulesets."""
    await wait_until(pilot, lambda: isinstance(app.screen, MenuScreen))
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen.ready)


async def move_cursor_to(pilot, app: RummyApp, uid: int) -> None:  # noqa: ANN001
    screen = table_screen(app)
    for _ in range(len(screen.hand.order) + 1):
        card = screen.hand.cursor_card
        if card is not None and card.uid == uid:
            return
        await pilot.press("right")
    raise AssertionError(f"card {uid} not in the hand")


async def caught_up(pilot, app: RummyApp) -> None:  # noqa: ANN001
    """Wait until the table screen shows the table's latest change (it reads the seat's
    view in a worker, a moment after each change)."""
    screen = table_screen(app)
    await wait_until(pilot, lambda: screen.caught_up)


async def take_my_turn(pilot, app: RummyApp) -> None:  # noqa: ANN001
    """One decision by keys: buy/pass, draw, go out, lay down, lay off or discard."""
    await caught_up(pilot, app)
    v = view(app)
    if v.phase == "buy":
        await pilot.press("n")
    elif v.phase == "draw":
        await pilot.press("s")
    elif any(isinstance(a, GoOut) for a in v.legal):
        await pilot.press("o")
    elif any(isinstance(a, LayDown) for a in v.legal):
        await pilot.press("m")
    elif any(isinstance(a, LayOff) for a in v.legal):
        action = next(a for a in v.legal if isinstance(a, LayOff))
        await move_cursor_to(pilot, app, action.cards[0].uid)
        await pilot.press("space", "l")
        if isinstance(app.screen, PickScreen):
            await pilot.press("enter")
    else:
        before = len(v.log)
        await pilot.press("d")
        if len(view(app).log) == before:  # that card may not go: try the next one
            await caught_up(pilot, app)
            await pilot.press("right", "d")
    await pilot.pause()


async def play_round_by_keys(pilot, app: RummyApp, max_moves: int = 2000) -> SeatView:  # noqa: ANN001
    """Play until the round summary shows; returns the view at that moment."""
    for _ in range(max_moves):
        if isinstance(app.screen, RoundSummaryScreen | GameOverScreen):
            return view(app)
        v = view(app)
        if v.my_turn and isinstance(app.screen, TableScreen):
            await take_my_turn(pilot, app)
        else:
            await pilot.pause(0.03)
    raise AssertionError("the round did not end")


def legal_depths(v: SeatView) -> set[int]:
    return {a.depth for a in v.legal if isinstance(a, TakeDiscard)}


def screen_text(app: RummyApp) -> str:
    """Every character on the screen now, line by line (what a terminal would show)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()
