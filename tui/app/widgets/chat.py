"""The chat line of a shared table: the last few messages, and a line to type one.

The box only shows messages and passes typed lines on; the chat service has already
cleaned every message (no control characters), and messages are drawn as plain `Text`,
never as markup, so nobody can restyle or break another player's screen.  The input
line is hidden until the player opens it (`/` at the table), so single-letter table keys
keep working; Enter sends, Esc closes it.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from tui.service.chat import ChatError, ChatMessage
from tui.service.interface import ChatService

NAME_COLOURS = ("#58a6ff", "#f39c12", "#2ecc71", "#e84393", "#1abc9c", "#9b59b6")


def message_text(message: ChatMessage) -> Text:
    """One message on one line: `name: text`, or the table's own news, dimmed."""
    if message.is_announcement:
        return Text("· " + message.text, Style(dim=True, italic=True), no_wrap=True,
                    overflow="ellipsis")
    colour = NAME_COLOURS[sum(map(ord, message.sender)) % len(NAME_COLOURS)]
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(message.sender, Style(color=colour, bold=True))
    line.append(": " + message.text)
    return line


class ChatInput(Input):
    """The typing line; Esc hands the keys back to the table."""

    BINDINGS = [Binding("escape", "close_chat", "Close chat", show=False)]

    def action_close_chat(self) -> None:
        parent = self.parent
        if isinstance(parent, ChatBox):
            parent.close()


class ChatBox(Vertical):
    """The last `lines` messages of a table's chat and, when open, a line to type in."""

    DEFAULT_CSS = """
    ChatBox { height: auto; padding: 0 1; background: #082a1f; }
    ChatBox #chat-lines { height: auto; }
    ChatBox ChatInput { display: none; height: 1; border: none; padding: 0; }
    ChatBox.-typing ChatInput { display: block; }
    """

    class Arrived(Message):
        """A message reached the table's chat (posted from the service's callback)."""

    def __init__(self, source: ChatService, *, lines: int = 2, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = source
        self.lines = lines
        self._unsubscribe: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="chat-lines")
        # disabled while closed: a hidden line must never take the keys (a screen focuses
        # its first focusable widget when it opens)
        yield ChatInput(placeholder="Say something to the table · Enter send · Esc close",
                        max_length=200, compact=True, id="chat-input", disabled=True)

    def _arrived(self) -> None:
        self.post_message(self.Arrived())

    def on_mount(self) -> None:
        self._unsubscribe = self.source.subscribe(lambda message: self._arrived())
        self.show_messages()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def on_chat_box_arrived(self, event: ChatBox.Arrived) -> None:
        event.stop()
        self.show_messages()

    def show_messages(self) -> None:
        recent = self.source.messages[-self.lines:]
        if recent:
            body = Text("\n").join(message_text(m) for m in recent)
        else:
            body = Text("No messages yet: press / to chat.", Style(dim=True))
        self.query_one("#chat-lines", Static).update(body)

    @property
    def typing(self) -> bool:
        return self.has_class("-typing")

    def open(self) -> None:
        """Show the typing line and give it the keys."""
        self.add_class("-typing")
        chat_input = self.query_one(ChatInput)
        chat_input.disabled = False
        chat_input.focus()

    def close(self) -> None:
        """Hide the typing line; the keys go back to the table."""
        chat_input = self.query_one(ChatInput)
        self.remove_class("-typing")
        chat_input.blur()
        chat_input.disabled = True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value
        event.input.value = ""
        if text.strip():
            try:
                self.source.say(text)
            except ChatError as exc:
                self.notify(str(exc), title="Chat", severity="warning", markup=False)
        self.close()
