"""Apps of one process share their parsed CSS, and each still gets its own theme."""

from __future__ import annotations

import pytest
import textual.css.stylesheet as textual_stylesheet
from textual.app import App, ComposeResult
from textual.color import Color
from textual.css.stylesheet import StylesheetParseError
from textual.screen import Screen
from textual.widgets import Static

from tui.net.stylesheets import SharedStylesheet, share_stylesheet


class Panel(Static):
    DEFAULT_CSS = "Panel { background: $primary; color: $text; }"


class Other(Screen[None]):
    CSS = "Other Panel { background: $secondary; }"

    def compose(self) -> ComposeResult:
        yield Panel("other", id="other")


class Themed(App[None]):
    CSS = "Screen { background: $surface; }"

    def __init__(self, theme: str) -> None:
        super().__init__()
        self.theme = theme

    def compose(self) -> ComposeResult:
        yield Panel("hello", id="panel")


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The CSS texts Textual's parser is asked to parse from now on."""
    seen: list[str] = []
    real = textual_stylesheet.parse

    def counting(scope, css, *args, **kwargs):  # noqa: ANN001, ANN202 - Textual's signature
        seen.append(css)
        return real(scope, css, *args, **kwargs)

    monkeypatch.setattr(textual_stylesheet, "parse", counting)
    return seen


async def _colours(theme: str, shared: bool) -> tuple[Color, Color, Color]:
    app = Themed(theme)
    if shared:
        share_stylesheet(app)
    async with app.run_test() as pilot:
        assert isinstance(app.stylesheet, SharedStylesheet) == shared
        panel = app.query_one("#panel").styles.background
        screen = app.screen.styles.background
        await app.push_screen(Other())
        await pilot.pause()
        other = app.screen.query_one("#other").styles.background
    return panel, screen, other


async def test_shared_apps_look_like_unshared_ones_in_every_theme() -> None:
    for theme in ("textual-dark", "textual-light", "nord"):
        assert await _colours(theme, shared=True) == await _colours(theme, shared=False)
    assert (await _colours("textual-dark", True))[0] != (await _colours("nord", True))[0]


async def test_a_second_app_with_the_same_theme_parses_nothing(parses: list[str]) -> None:
    await _colours("gruvbox", shared=True)
    assert any("$primary" in css for css in parses)
    parses.clear()
    await _colours("gruvbox", shared=True)
    assert parses == []
    await _colours("gruvbox", shared=False)  # (a plain app parses it all again)
    assert any("$primary" in css for css in parses)


async def test_a_theme_change_in_one_app_changes_only_that_app() -> None:
    first, second = Themed("textual-dark"), Themed("textual-dark")
    share_stylesheet(first)
    share_stylesheet(second)
    async with first.run_test() as pilot_one, second.run_test() as pilot_two:
        before = second.query_one("#panel").styles.background
        first.theme = "textual-light"
        await pilot_one.pause()
        await pilot_two.pause()
        assert first.query_one("#panel").styles.background != before
        assert second.query_one("#panel").styles.background == before


def test_bad_css_is_still_refused_on_every_reparse() -> None:
    sheet = SharedStylesheet(variables={})
    sheet.add_source("Panel { color: red; }", read_from=("good", ""))
    sheet.parse()
    good = sheet.rules
    sheet.add_source("Panel { colour: red; }", read_from=("bad", ""))
    for _ in range(2):
        with pytest.raises(StylesheetParseError):
            sheet.reparse()
        assert sheet.rules == good
