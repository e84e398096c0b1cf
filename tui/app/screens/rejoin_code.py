"""The rejoin code a keyless player was shown when they sat down: asked for when they
come back to a seat held under their name, since their name alone could be anyone's."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label


class RejoinCodeScreen(ModalScreen[str | None]):
    """Dismisses with the code as typed (the lobby checks it), or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, table_id: int) -> None:
        super().__init__(classes="picker")
        self.table_id = table_id

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="rejoin-dialog"):
            yield Label(f"Take your seat back at table {self.table_id}",
                        classes="dialog-title")
            yield Label("The rejoin code you were shown when you sat down:")
            yield Input(placeholder="ABC-123", max_length=12, id="rejoin-code")
            yield Label("Enter take the seat · Esc cancel", classes="dialog-help")

    @on(Input.Submitted, "#rejoin-code")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
