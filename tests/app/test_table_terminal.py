"""Terminal conventions at the table: a one-line key bar at 80 columns, summaries that fit
80×24, a clear message below the smallest usable window, ASCII mode, the command palette."""

from __future__ import annotations

import pytest
from app_driver import (
    HUMAN,
    at_table,
    make_env,
    past_the_bots,
    rigged_table,
    table_screen,
    wait_until,
)

from tui.app.app import RummyApp
from tui.app.widgets.keybar import KeyBar, fitting
from tui.engine.actions import Discard, DrawStock, GoOut, LayDown, PassBuy
from tui.engine.ruleset.loader import list_rulesets

BUNDLED = [info.key for info in list_rulesets() if info.bundled and info.error is None]



def _my_move(view):  # noqa: ANN001, ANN202
    for kind in (GoOut, LayDown, PassBuy, DrawStock, Discard):
        found = [a for a in view.legal if isinstance(a, kind)]
        if found:
            return found[0]
    return view.legal[0]


@pytest.mark.parametrize("rules", BUNDLED)
async def test_the_key_bar_is_one_line_at_80_columns_with_every_move_of_the_turn(
        tmp_path, rules: str) -> None:  # noqa: ANN001
    app = RummyApp(make_env(tmp_path, rules, players=4 if rules != "three_thirteen" else 3,
                            seed=2, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        table = screen.table
        seen = set()
        for _ in range(60):
            view = table.view(HUMAN)
            if view.phase not in ("draw", "play", "buy"):
                break
            if table.bot_to_move() is not None:
                table.step_bot()
            else:
                await wait_until(pilot, lambda: screen.caught_up)
                await pilot.pause()
                bar = screen.query_one(KeyBar)
                assert bar.region.height == 1 and bar.region.bottom == 24
                shown = fitting(bar.hints, 80)
                assert sum(h.width for h in shown) <= 80
                wanted = {h.action for h in bar.hints if h.rank == 0} | {"help", "leave"}
                assert wanted <= {h.action for h in shown}, (view.phase, bar.hints)
                seen.add(view.phase)
                if view.phase == "play":
                    await pilot.press("space")  # a selection changes the hints too
                    await pilot.pause()
                    assert screen.query_one(KeyBar).region.height == 1
                table.act(HUMAN, _my_move(view))
        assert {"draw", "play"} <= seen


async def test_below_the_smallest_window_the_table_says_how_big_to_make_it(tmp_path) -> None:
    from textual.widgets import Static

    from tui.app.widgets.hand import HandView

    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=8, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await past_the_bots(pilot, app)
        await pilot.resize_terminal(40, 12)
        await pilot.pause(0.1)
        message = screen.query_one("#too-small", Static)
        assert message.region.width > 0
        assert "at least 70×20" in str(message.render()) and "40×12" in str(message.render())
        assert screen.query_one("#me").styles.display == "none"  # no half-drawn hand
        before = screen.table.view(HUMAN)
        await pilot.press("s")  # nothing is played blind
        await pilot.pause()
        assert screen.table.view(HUMAN).hand == before.hand
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert message.styles.display == "none" and screen.query_one(HandView).region.width > 0
        await pilot.press("s")
        await pilot.pause()
        assert len(screen.table.view(HUMAN).hand) == len(before.hand) + 1


class _Frozen:
    """A table that always shows one moment (a summary reads `view` and listens for changes)."""

    def __init__(self, view) -> None:  # noqa: ANN001
        self._view = view

    def view(self, seat: int):  # noqa: ANN201
        return self._view

    def subscribe(self, listener):  # noqa: ANN001, ANN201
        """Nothing ever changes here: the summary waits for a next deal that never comes."""
        return lambda: None


def _whole_game(rules_key: str, players: int, seed: int) -> list:
    """Every deal's end of one game (bots and a first-legal-move person), as views."""
    from tui.engine.ruleset.loader import load_ruleset
    from tui.service.table import SeatSpec, Table

    seats = [SeatSpec("Tess")] + [SeatSpec(f"Bot{i}", "random") for i in range(players - 1)]
    table = Table(load_ruleset(rules_key), seats, seed, record=False)
    ends = []
    for _ in range(100000):
        view = table.view(HUMAN)
        if view.phase in ("round_over", "game_over"):
            ends.append(view)
            if view.phase == "game_over":
                return ends
            table.next_round()
        elif table.bot_to_move() is not None:
            table.step_bot()
        else:
            table.act(HUMAN, _my_move(view))
    raise AssertionError("the game did not end")


async def _fits(pilot, screen) -> None:  # noqa: ANN001
    from textual.widgets import TabbedContent, TabPane

    tabs = screen.query_one(TabbedContent)
    for pane in screen.query(TabPane):
        tabs.active = pane.id
        await pilot.pause()
        assert pane.region.bottom <= 23, pane.id  # above the footer
        assert pane.max_scroll_y == 0 and pane.max_scroll_x == 0, (pane.id, pane.virtual_size)
    title = screen.query_one(".summary-title")
    assert title.region.height == 1


@pytest.mark.slow  # a whole game per ruleset
@pytest.mark.parametrize("rules", BUNDLED)
async def test_every_summary_fits_80x24(tmp_path, rules: str) -> None:  # noqa: ANN001
    from tui.app.cardart import CardStyle
    from tui.app.screens.summary import GameOverScreen, RoundSummaryScreen
    from tui.app.table_session import TableSession
    from tui.engine.ruleset.loader import load_ruleset

    players = min(load_ruleset(rules).players_max, 6)
    ends = _whole_game(rules, players, seed=3)
    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        for view in ends:
            if view.phase == "round_over":
                screen = RoundSummaryScreen(TableSession(_Frozen(view), HUMAN), CardStyle())
            else:
                screen = GameOverScreen(view, CardStyle())
            await app.push_screen(screen)
            await pilot.pause()
            await _fits(pilot, screen)
            app.pop_screen()
            await pilot.pause()


async def test_the_command_palette_plays_the_tables_moves_and_opens_screens(tmp_path) -> None:
    from textual.command import CommandPalette

    from tui.app.screens.rules import RulesScreen

    app = RummyApp(make_env(tmp_path, "three_thirteen", players=2, seed=8, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await past_the_bots(pilot, app)
        before = screen.table.view(HUMAN)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"draw from the stock")
        await wait_until(pilot, lambda: palette_highlights(app, "draw from the stock"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(screen.table.view(HUMAN).hand)
                         == len(before.hand) + 1)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"rules")
        await wait_until(pilot, lambda: palette_highlights(app, "rules"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen.ready)


def palette_highlights(app: RummyApp, words: str) -> bool:
    """The command palette is open and has found a command for what was typed (it
    searches as an async task: Enter before it has found one chooses nothing)."""
    from textual.command import CommandList, CommandPalette

    palette = app.screen
    if not isinstance(palette, CommandPalette):
        return False
    hits = palette.query_one(CommandList)
    at = hits.highlighted
    return at is not None and hits.option_count > 0 and \
        words in str(hits.get_option_at_index(at).prompt).lower()


def _downgraded(colour, system):  # noqa: ANN001, ANN202
    from rich.color import Color as RichColor

    if not isinstance(colour, RichColor):
        colour = RichColor.parse(colour)
    return colour.downgrade(system).get_truecolor()


THEMES = ["textual-dark", "textual-light", "nord", "gruvbox", "dracula", "monokai"]


@pytest.mark.parametrize("theme", THEMES)
def test_hearts_and_diamonds_stay_red_in_256_and_16_colours(theme: str) -> None:
    import colorsys

    from rich.color import ColorSystem
    from textual.theme import BUILTIN_THEMES

    from tui.app.colours import colours_from

    variables = BUILTIN_THEMES[theme].to_color_system().generate()
    for depth, system in (("truecolor", ColorSystem.TRUECOLOR), ("256", ColorSystem.EIGHT_BIT),
                          ("standard", ColorSystem.STANDARD)):
        colours = colours_from(variables, depth)
        r, g, b = _downgraded(colours.red, system)
        hue, _, saturation = colorsys.rgb_to_hls(r / 255, g / 255, b / 255)
        assert hue < 0.05 or hue > 0.9, (depth, colours.red, (r, g, b))  # not brown
        assert saturation > (0.25 if depth == "truecolor" else 0.6), (depth, (r, g, b))
        face = _downgraded(colours.face, system)
        ink = _downgraded(colours.ink, system)
        assert sum(face) > sum(ink) + 300, (depth, face, ink)  # light cards, dark ink


async def test_form_focus_shows_in_256_and_16_colours(tmp_path) -> None:
    from rich.color import ColorSystem
    from textual.widgets import Input, Select

    from tui.app.screens.settings import SettingsScreen

    app = RummyApp(make_env(tmp_path, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        name = app.screen.query_one("#name", Input)
        theme = app.screen.query_one("#theme", Select)
        name.focus()
        await pilot.pause()
        name_on = name.background_colors[1].rich_color
        theme_off = theme.query_one("SelectCurrent").background_colors[1].rich_color
        theme.focus()
        await pilot.pause()
        name_off = name.background_colors[1].rich_color
        theme_on = theme.query_one("SelectCurrent").background_colors[1].rich_color
        for system in (ColorSystem.EIGHT_BIT, ColorSystem.STANDARD):
            assert _downgraded(name_on, system) != _downgraded(name_off, system), system
            assert _downgraded(theme_on, system) != _downgraded(theme_off, system), system


def test_no_colour_is_written_down_in_the_app_only_taken_from_the_theme() -> None:
    import re
    from pathlib import Path

    app_dir = Path(__file__).resolve().parents[2] / "tui" / "app"
    found = [f"{path.name}: {match}" for path in sorted(app_dir.rglob("*"))
             if path.suffix in (".py", ".tcss")
             for match in re.findall(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b",
                                     path.read_text(encoding="utf-8"))]
    assert found == []


async def test_the_theme_setting_recolours_the_table(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    from tui.app.widgets.hand import HandView

    monkeypatch.setenv("COLORTERM", "truecolor")  # a terminal that shows the theme itself
    app = RummyApp(make_env(tmp_path, "contract_rummy", players=3, seed=2, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)

        def looks() -> tuple:
            hand = screen.query_one(HandView).render()
            bar = screen.query_one(KeyBar).render()
            return (screen.background_colors[1], {str(s.style) for s in hand.spans},
                    {str(s.style) for s in bar.spans},
                    screen.query_one("#me").styles.border_top[1])

        dark = looks()
        app.theme = "nord"  # the table redraws itself: no move, no refresh asked for
        await pilot.pause()
        await pilot.pause()
        light = looks()
        for before, after in zip(dark, light, strict=True):
            assert before != after


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@pytest.mark.parametrize("rules", BUNDLED)
async def test_ascii_mode_draws_the_table_in_ascii_only(tmp_path, rules: str, size) -> None:  # noqa: ANN001
    from app_driver import screen_text

    from tui.app.settings import Settings

    env = make_env(tmp_path, rules, players=4, seed=2, drive_bots=False)
    env.settings_store.save(Settings(name="Tess", card_style="ascii", bot_speed="instant"))
    app = RummyApp(env)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        table = table_screen(app).table
        for _ in range(12):  # a few turns round the table: melds, log, a discard pile
            if table.bot_to_move() is not None:
                table.step_bot()
            elif table.view(HUMAN).phase in ("draw", "play", "buy"):
                table.act(HUMAN, _my_move(table.view(HUMAN)))
        await pilot.press("s" if table.view(HUMAN).phase == "draw" else "a")
        await pilot.pause()
        text = screen_text(app)
        assert "Tess" in text
        assert {ch for ch in text if not ch.isascii()} == set(), text


async def test_ascii_mode_pickers_are_ascii_too(tmp_path) -> None:
    from app_driver import screen_text

    from tui.app.environment import AppEnvironment
    from tui.app.screens.pickers import PickScreen
    from tui.app.settings import Settings, SettingsStore

    table = rigged_table("contract_rummy", ["7H 7S 9D 9C 9S 4H 5D 6S JC KC",
                                            "2C 3C 4C 8D 8S 8H JD QD KD 10C",
                                            "5S 6D JK 2D 3D 4D AH AS 10H 10S"],
                         5, discard="QS 7C 5H")
    store = SettingsStore(tmp_path / "settings.json")
    store.save(Settings(name="Tess", card_style="ascii"))
    app = RummyApp(AppEnvironment(settings_store=store, table=table, seat=HUMAN,
                                  drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "7C 5H" in text
        assert {ch for ch in text if not ch.isascii()} == set(), text


async def test_a_deep_pile_growing_never_moves_the_prompt_and_log_beside_it(tmp_path) -> None:
    """Bug: the deep pile was as wide as its cards, so every discard laid the table out
    again and pushed the prompt and the log to the right (#14: fixed sizes on a move)."""
    from tui.app.widgets.piles import DiscardPile

    app = RummyApp(make_env(tmp_path, "contract_rummy", players=3, seed=5, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        table = screen.table
        pile, info = screen.query_one(DiscardPile), screen.query_one("#info")
        places, sizes, heights = set(), set(), set()
        for _ in range(12):  # four turns round the table: the pile grows
            while table.bot_to_move() is not None:
                table.step_bot()
            if table.view(0).phase != "draw":
                break
            await pilot.press("s")
            await wait_until(pilot, lambda: at_table(app))
            await pilot.press("d")
            await wait_until(pilot, lambda: at_table(app))
            places.add((info.region.x, info.region.width))  # (an opponent laying down
            sizes.add((pile.region.x, pile.region.width))   # may change the heights)
            heights.add(len(table.view(0).discard))
        assert len(heights) >= 3  # the pile grew and shrank under the player's eyes
        assert len(places) == 1 and len(sizes) == 1


async def test_the_palette_offers_only_the_moves_the_rules_and_the_moment_allow(tmp_path) -> None:
    """Issue 33: Ctrl+P in Contract Rummy (no buying) offered "Buy the offered discard",
    which answered "draw first"."""
    from tui.app.command_palette import table_commands

    app = RummyApp(make_env(tmp_path, "contract_rummy", players=3, seed=4, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await past_the_bots(pilot, app)
        await wait_until(pilot, lambda: at_table(app) and screen.view_now.phase == "draw"
                         and screen.view_now.my_turn)
        titles = [c.title for c in table_commands(screen)]
        assert "Draw from the stock" in titles
        assert not any(t.startswith(("Buy", "Pass", "Discard", "Go out", "Meld"))
                       for t in titles), titles
        await pilot.press("s")
        await wait_until(pilot, lambda: at_table(app) and screen.view_now.phase == "play")
        titles = [c.title for c in table_commands(screen)]
        assert "Discard the selected card" in titles
        assert not any(t.startswith(("Draw", "Take", "Buy")) for t in titles), titles


def _laid_down_and_to_play(rules_key: str, seed: int):  # noqa: ANN202
    """A table where the person has laid down, some opponent has too, and it is the
    person's turn to play (their melds and the opponents' melds all take rows)."""
    from tui.engine.ruleset.loader import load_ruleset
    from tui.service.table import SeatSpec, Table

    seats = [SeatSpec("Tess")] + [SeatSpec(f"Bot{i}", "easy") for i in range(3)]
    table = Table(load_ruleset(rules_key), seats, seed, record=False)
    for _ in range(20000):
        view = table.view(HUMAN)
        if view.phase == "round_over":
            table.next_round()
            continue
        me = view.me
        others_down = any(m.owner != HUMAN for m in view.table)
        if (view.my_turn and view.phase == "draw" and me is not None and me.contract_down
                and others_down):
            table.act(HUMAN, next(a for a in view.legal if isinstance(a, DrawStock)))
            return table
        if table.bot_to_move() is not None:
            table.step_bot()
        else:
            table.act(HUMAN, _my_move(view))
    raise AssertionError("no such moment")


async def test_the_piles_are_whole_at_70x20_with_melds_down() -> None:
    """Issue 33: at 70×20 the stock and discard art was cut at the bottom (the
    opponents' melds and the player's own took the rows): the opponents' panes give
    up rows first."""
    from tui.app.environment import AppEnvironment

    table = _laid_down_and_to_play("liverpool", 5)
    app = RummyApp(AppEnvironment(table=table, seat=HUMAN, player_name="Tess",
                                  drive_bots=False))
    async with app.run_test(size=(70, 20)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        await pilot.pause()
        await pilot.pause()
        middle = screen.query_one("#middle").region
        for pile in ("#stock", "#discard"):
            region = screen.query_one(pile).region
            assert region.height == 5 and middle.contains_region(region), (pile, region, middle)
        me = screen.query_one("#me").region
        assert me.bottom <= 19  # the hand whole, above the key bar
