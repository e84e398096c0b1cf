"""One reading of what a terminal can show (TERM and the locale), for SSH and local play:
which terminals get ASCII, 16 colours or no full screen, and how the app draws for them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from textual.driver import Driver
from textual.widgets import Select

from tui.app.app import RummyApp
from tui.app.environment import AppEnvironment
from tui.app.screens.settings import SettingsScreen
from tui.app.settings import Settings, SettingsStore
from tui.app.terminal_caps import local_terminal, plain_driver, terminal_caps, to_ascii
from tui.cli import main


@pytest.mark.parametrize("term, env, unicode, colors, full", [
    ("xterm-256color", {}, True, "256", True),
    ("xterm-256color", {"LANG": "en_GB.UTF-8"}, True, "256", True),
    ("xterm", {"LC_CTYPE": "C.utf8"}, True, "standard", True),
    ("xterm-256color", {"LANG": "C"}, False, "256", True),
    ("xterm-256color", {"LANG": "en_US.UTF-8", "LC_ALL": "POSIX"}, False, "256", True),
    ("xterm-256color", {"LANG": "en_US.UTF-8", "LC_CTYPE": "en_US.ISO-8859-1"}, False,
     "256", True),
    ("xterm", {"LANG": "de_DE"}, False, "standard", True),  # no codeset: Latin-1
    ("vt100", {}, False, "standard", True),
    ("vt220", {"LANG": "en_US.UTF-8"}, False, "standard", True),
    ("linux", {}, False, "standard", True),
    ("screen.linux", {}, False, "standard", True),
    ("vte-256color", {}, True, "256", True),  # not a DEC terminal
    ("xterm", {"COLORTERM": "truecolor"}, True, "truecolor", True),
    ("dumb", {}, True, "standard", False),
    ("unknown", {}, True, "standard", False),
    ("emacs", {}, True, "standard", False),
    ("", {}, True, "standard", False),
])
def test_what_a_terminal_can_show(term, env, unicode, colors, full) -> None:
    caps = terminal_caps(term, env)
    assert (caps.unicode, caps.colors, caps.full_screen) == (unicode, colors, full)


def test_local_play_reads_the_environment_and_trusts_a_terminal_that_says_nothing() -> None:
    caps = local_terminal({"TERM": "linux", "LANG": "en_US.UTF-8"})
    assert caps is not None and not caps.unicode and caps.colors == "standard"
    assert local_terminal({"LANG": "C"}) is None  # no TERM: Textual's detection decides


def test_ascii_keeps_every_width_and_reads_cards_and_boxes() -> None:
    assert to_ascii("╭───╮ 10♥ Q♠ │ ┏━┓ ═ … — é") == "+---+ 10H QS | +-+ = . - e"
    assert to_ascii("中x\u0301") == "??x"  # a wide character stays two columns wide


@given(st.text())
def test_ascii_is_ascii_and_as_wide_as_what_it_replaces(text: str) -> None:
    plain = to_ascii(text)
    assert plain.isascii()
    assert cell_len(plain) == cell_len(text)


def env_for(tmp_path: Path, term: str, env: dict[str, str],
            settings: Settings | None = None) -> AppEnvironment:
    store = SettingsStore(tmp_path / "settings.json")
    store.save(settings or Settings(name="Tess"))
    return AppEnvironment(settings_store=store, save_path=None,
                          terminal=terminal_caps(term, env))


async def test_a_plain_terminal_starts_with_plain_letters_and_ascii_borders(tmp_path) -> None:
    app = RummyApp(env_for(tmp_path, "vt100", {}))
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.settings.card_style == "ascii" and app.plain_output
        assert app.has_class("-ascii")
        assert app.card_style().label(_ten_of_hearts()) == "10H"
        assert app.console.color_system == "standard"
        app.push_screen(SettingsScreen())
        await pilot.pause()
        assert app.screen.query_one("#card_style", Select).value == "ascii"


async def test_choosing_suit_symbols_on_a_plain_terminal_turns_unicode_back_on(
        tmp_path) -> None:
    app = RummyApp(env_for(tmp_path, "xterm", {"LANG": "C"}))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        app.screen.query_one("#card_style", Select).value = "unicode"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.settings.card_style == "unicode" and not app.plain_output
        assert not app.has_class("-ascii")


async def test_the_plain_letters_a_terminal_forces_are_not_saved_as_a_choice(
        tmp_path) -> None:
    env = env_for(tmp_path, "linux", {})
    app = RummyApp(env)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        await pilot.press("ctrl+s")  # saved (as the name, say, was changed)
        await pilot.pause()
    assert env.settings_store.load().card_style == "unicode"  # a UTF-8 terminal's choice


def test_a_utf8_terminal_draws_as_the_settings_say(tmp_path) -> None:
    app = RummyApp(env_for(tmp_path, "xterm-256color", {"LANG": "C.UTF-8"}))
    assert app.settings.card_style == "unicode" and not app.plain_output


async def test_the_local_driver_sends_ascii_only_while_the_output_is_plain(tmp_path) -> None:
    written: list[str] = []

    class Recorder(Driver):
        def write(self, data: str) -> None:
            written.append(data)

        def start_application_mode(self) -> None: ...

        def stop_application_mode(self) -> None: ...

        def disable_input(self) -> None: ...

    plain = RummyApp(env_for(tmp_path, "vt100", {}))
    driver = plain_driver(Recorder)(plain)
    driver.write("\x1b[1m╭─╮ 7♥\x1b[0m")
    fancy = RummyApp(env_for(tmp_path, "xterm-256color", {}))
    plain_driver(Recorder)(fancy).write("7♥")
    assert written == ["\x1b[1m+-+ 7H\x1b[0m", "7♥"]


def test_rummy_on_a_dumb_terminal_says_why_and_fails(monkeypatch, capsys) -> None:
    monkeypatch.setenv("TERM", "dumb")
    assert main(["play"]) == 1
    out = capsys.readouterr()
    assert "\x1b" not in out.out + out.err
    assert "TERM=dumb" in out.err and out.err.strip().count("\n") == 0


def _ten_of_hearts():  # noqa: ANN202
    from tui.engine.cards import Card

    return Card(10, "H", 1)
