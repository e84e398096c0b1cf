"""What the screens may ask of the app that hosts them, as a protocol.

Screens reach the app through `host(screen)` rather than `self.app`, which Textual types
as a bare `App`: the protocol names every service a screen uses, so mypy checks each call,
and a screen never imports the app module (which imports the screens).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from textual.dom import DOMNode
from textual.screen import Screen

if TYPE_CHECKING:
    from tui.engine.rules import Ruleset
    from tui.service.interface import TableService

    from .cardart import CardStyle
    from .environment import AppEnvironment
    from .settings import Settings
    from .terminal_caps import TerminalCaps


class Host(Protocol):
    """The game services of `RummyApp` that screens call."""

    env: AppEnvironment
    settings: Settings
    terminal: TerminalCaps

    def card_style(self) -> CardStyle: ...

    def has_game_in_progress(self) -> bool: ...

    def claimed_save_path(self) -> Path | None: ...

    def start_game(self, rules: Ruleset, opponents: Sequence[tuple[str, str]],
                   seed: int | None) -> None: ...

    def resume_game(self) -> None: ...

    def game_over(self, table: TableService) -> None: ...

    def play_again(self, finished: TableService, rules: Ruleset,
                   opponents: Sequence[tuple[str, str]]) -> None: ...

    def open_lesson(self, key: str) -> object: ...

    def save_settings(self, settings: Settings) -> None: ...


def host(node: DOMNode) -> Host:
    """The app `node` runs in, as the game's host."""
    return cast(Host, node.app)


def still_shown(screen: Screen) -> bool:
    """Whether `screen` is still one of the app's open screens.  Work a screen started in a
    thread may come back after the player closed it, and must then leave it alone:
    `is_attached` is not enough, since a closed screen stays attached while its widgets
    are taken down, and a query made then finds some of them gone (a session crashed so
    when its player closed the rules while they were being read).  An app shutting down
    (its window closed, its SSH session ended) takes every screen down while they are
    still stacked: nothing is shown then."""
    return screen.is_attached and screen.app.is_running and screen in screen.app.screen_stack
