"""Text from players and files is data, never markup: names and rule names holding markup
or control characters crash nobody, plant no click action and send no hyperlink.

Two guests with hostile names play at a table whose house rules have a hostile name and
description (made from files a remote player can write), chat hostile lines and open the
rules screens; every screen they see is rendered and searched, segment by segment, for a
link (OSC 8 on a terminal) or a click action, and for the hostile text shown literally.
"""

from __future__ import annotations

import io

from app_driver import wait_until as settle
from rich.console import Console
from test_lobby_screen import (
    FAST,
    SIZE,
    choose,
    create_by_keys,
    guest_app,
    join_the_table,
    open_create,
)

from tui.app.app import RummyApp
from tui.app.screens.create_table import CreateTableScreen
from tui.app.screens.lobby import LobbyScreen
from tui.app.screens.rules import RulesScreen
from tui.app.screens.table import TableScreen
from tui.app.settings import Settings
from tui.service.lobby import Lobby
from tui.service.names import MAX_NAME, clean_name

HOSTILE_NAMES = ("eve[/]", "[@click=app.quit]q", "[link=https://x.example]bob", "[b]al")
RULES_NAME = "x[/] [link=https://x.example]y"
RULES_ABOUT = "[@click=app.quit]about[/]"
HOSTILE_RULES = (f'extends: three_thirteen\nname: "{RULES_NAME}"\n'
                 f'description: "{RULES_ABOUT}"\n')


def planted(app: RummyApp) -> list[str]:
    """Every link or click action anywhere on the app's screen as it is drawn now."""
    found = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            style = segment.style
            if style is None:
                continue
            if style.link:
                found.append(f"link {style.link!r} on {segment.text!r}")
            if "@click" in (style.meta or {}):
                found.append(f"click {style.meta['@click']!r} on {segment.text!r}")
    return found


def shown(app: RummyApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def test_names_are_cleaned_at_the_door():
    assert clean_name("mal\x1b]8;;https://x\x07lory\x1b[2J") == "mal]8;;https://xlory[2J"
    assert clean_name("a\tb\nc") == "a b c"
    assert clean_name("\x00\x1b") == "player"
    assert len(clean_name("n" * 100)) == MAX_NAME
    assert Settings(name="x\x1b[31my").cleaned().name == "x[31my"


async def test_markup_in_names_rules_and_chat_is_shown_as_typed(tmp_path):  # noqa: ANN001
    folder = tmp_path / "eve"
    folder.mkdir()
    (folder / "evil.yaml").write_text(HOSTILE_RULES)
    lobby = Lobby(FAST)
    eve = guest_app(lobby, HOSTILE_NAMES[0], folder)
    mallory = guest_app(lobby, HOSTILE_NAMES[1])
    try:
        async with eve.run_test(size=SIZE) as pe, mallory.run_test(size=SIZE) as pm:
            await settle(pe, lambda: isinstance(eve.screen, LobbyScreen))
            await pe.press("r")  # the rules screen lists the player's own hostile rules
            await settle(pe, lambda: isinstance(eve.screen, RulesScreen) and eve.screen.ready)
            eve.screen.query_one("#rules-choice").value = "evil"
            await pe.pause(0.1)
            assert planted(eve) == [] and RULES_NAME in shown(eve)
            await pe.press("escape")
            dialog = await open_create(pe, eve)
            assert isinstance(dialog, CreateTableScreen)
            await choose(pe, dialog.query_one("#choose-rules"), "evil")
            await settle(pe, lambda: dialog.ready)
            await pe.pause(0.1)
            assert planted(eve) == [] and RULES_ABOUT in shown(eve)
            await pe.press("down")
            await choose(pe, dialog.query_one("#choose-seats"), 2)
            await pe.press("enter")
            await settle(pe, lambda: isinstance(eve.screen, LobbyScreen))
            await settle(pm, lambda: mallory.screen.query_one("#table-list").row_count == 1)
            await pm.pause(0.1)
            lobby_text = shown(mallory)
            assert planted(mallory) == [] and HOSTILE_NAMES[0] in lobby_text
            assert RULES_NAME[:10] in lobby_text
            await join_the_table(pm, mallory)
            await settle(pe, lambda: isinstance(eve.screen, TableScreen))
            await settle(pm, lambda: isinstance(mallory.screen, TableScreen))
            [shared] = lobby.tables
            shared.chat.say(HOSTILE_NAMES[2], "[link=https://x.example]click me[/link]")
            shared.chat.say(HOSTILE_NAMES[3], "[@click=app.quit]quit[/]")
            await pe.pause(0.2)
            await pm.pause(0.2)
            for app in (eve, mallory):
                assert app.is_running and isinstance(app.screen, TableScreen)
                assert planted(app) == []
            assert HOSTILE_NAMES[1][:8] in shown(eve)  # the opponent's name, as typed
            assert HOSTILE_NAMES[0] in shown(mallory)
            assert "[@click=app.quit]quit[/]" in shown(eve)
    finally:
        lobby.close()


async def test_a_chat_paste_too_long_is_cut_and_the_player_told():
    from textual import events

    from tui.app.widgets.chat import ChatInput
    from tui.service.chat import MAX_LENGTH

    lobby = Lobby(FAST)
    ann, bob = guest_app(lobby, "ann"), guest_app(lobby, "bob")
    try:
        async with ann.run_test(size=SIZE) as pa, bob.run_test(size=SIZE) as pb:
            await create_by_keys(pa, ann)
            await join_the_table(pb, bob)
            await settle(pa, lambda: isinstance(ann.screen, TableScreen))
            await pa.press("slash")
            line = ann.focused
            assert isinstance(line, ChatInput)
            line.post_message(events.Paste("word " * 50 + "\nsecond line " * 10))
            await settle(pa, lambda: len(line.value) == MAX_LENGTH)
            assert any("cut to fit" in str(n.message) for n in ann._notifications)
            await pa.press("enter")
            [shared] = lobby.tables
            said = shared.chat.messages[-1]
            assert said.sender == "ann" and said.text == ("word " * 40).strip()  # 200, cut
    finally:
        lobby.close()


def _played_to(table, phase: str) -> None:  # noqa: ANN001
    """Play the table (seat 0 by the simplest legal move, bots by themselves) to `phase`."""
    from tui.engine.actions import Discard, DrawStock, GoOut

    for _ in range(20000):
        v = table.view(0)
        if v.phase == phase or v.phase == "game_over":
            return
        if v.phase == "round_over":
            table.next_round()
        elif table.bot_to_move() is not None:
            table.step_bot()
        else:
            options = ([a for a in v.legal if isinstance(a, GoOut)]
                       or [a for a in v.legal if isinstance(a, DrawStock)]
                       or [a for a in v.legal if isinstance(a, Discard)])
            table.act(0, options[0])


async def test_markup_names_on_the_summary_and_game_over_screens(tmp_path):  # noqa: ANN001
    from tui.app.environment import AppEnvironment
    from tui.app.screens.summary import GameOverScreen, RoundSummaryScreen
    from tui.app.widgets.scoresheet import score_table
    from tui.engine.ruleset.loader import load_ruleset_text
    from tui.service.interface import SeatSpec
    from tui.service.table import Table

    rules = load_ruleset_text(f'extends: three_thirteen\nname: "{RULES_NAME}"\nrounds:\n'
                              "  - {cards: 3, wild: [3]}\n  - {cards: 4, wild: [4]}\n",
                              key="short")
    names = [HOSTILE_NAMES[3], HOSTILE_NAMES[1], HOSTILE_NAMES[2]]
    table = Table(rules, [SeatSpec(names[0]), SeatSpec(names[1], "random"),
                          SeatSpec(names[2], "random")], seed=4)
    _played_to(table, "round_over")
    view = table.view(0)
    app = RummyApp(AppEnvironment(table=table, seat=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        await pilot.pause(0.1)
        assert planted(app) == [] and names[1][:8] in shown(app)
        sheet = Console(width=100, file=io.StringIO(), color_system=None)
        sheet.print(score_table(names, view.scores, [p.total for p in view.players], True))
        assert names[0] in sheet.file.getvalue()  # the score sheet's column, as typed
    _played_to(table, "game_over")
    app = RummyApp(AppEnvironment(table=table, seat=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause(0.1)
        assert planted(app) == [] and names[2][:10] in shown(app)
