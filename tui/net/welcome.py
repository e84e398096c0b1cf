"""A stand-in app served by `rummy serve` until the lobby is plugged in.

It proves the whole path (keys, mouse, resize, colours, teardown) with a real player
at a real terminal: it greets the player by name and echoes what the server sees.
"""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.widgets import Footer, Static

from tui.net.session import SessionInfo


class WelcomeApp(App[None]):
    """Greets the SSH player; `q` leaves."""

    CSS = """
    Screen { align: center middle; }
    #card { width: auto; height: auto; padding: 1 4; border: round $accent; }
    """
    BINDINGS = [("q", "quit", "Leave")]

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.info = info
        self.keys = 0

    def compose(self) -> ComposeResult:
        yield Static(id="card")
        yield Footer()

    def on_mount(self) -> None:
        self._show()

    def on_key(self) -> None:
        self.keys += 1
        self._show()

    def on_resize(self, event: events.Resize) -> None:
        # Called before App updates its own size: the event has the new one.
        self._show(event.size)

    def _show(self, size: Size | None = None) -> None:
        width, height = size or self.size
        self.query_one("#card", Static).update(
            f"Welcome to the rummy table, {self.info.player_name}!\n\n"
            f"The lobby opens soon. Your terminal: {self.info.term_type}, "
            f"{width}x{height}, {self.info.color_system} colours.\n"
            f"Keys pressed: {self.keys}.   Press q to leave."
        )


def welcome_factory(info: SessionInfo) -> App[None]:
    """App factory for `start_server`: one `WelcomeApp` per player."""
    return WelcomeApp(info)
