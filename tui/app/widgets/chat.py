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
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from tui.service.chat import MAX_LENGTH, ChatError, ChatMessage
from tui.service.interface import ChatService

from ..colours import Colours, app_colours, default_colours


def message_text(message: ChatMessage, colours: Colours | None = None) -> Text:
    """One message on one line: `name: text`, or the table's own news, dimmed."""
    seats = (colours or default_colours()).seats
    if message.is_announcement:
        return Text("· " + message.text, Style(dim=True, italic=True), no_wrap=True,
                    overflow="ellipsis")
    colour = seats[sum(map(ord, message.sender)) % len(seats)]
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(message.sender, Style(color=colour, bold=True))
    line.append(": " + message.text)
    return line


class ChatInput(Input):
    """The typing line; Esc hands the keys back to the table."""

    BINDINGS = [Binding("escape", "close_chat", "Close chat", show=False)]

    def _on_paste(self, event: events.Paste) -> None:
        """A paste goes in whole, as one line, or cut to what a message holds - and then
        the player is told (Textual's input would drop a paste that does not fit)."""
        event.stop()
        text = " ".join(event.text.split())
        start, end = sorted(self.selection)
        room = max(0, MAX_LENGTH - (len(self.value) - (end - start)))
        if len(text) > room:
            text = text[:room]
            self.notify(f"Your paste was cut to fit: a message holds at most {MAX_LENGTH} "
                        "characters.", title="Chat", severity="warning")
        if text:
            self.replace(text, start, end)

    def action_close_chat(self) -> None:
        parent = self.parent
        if isinstance(parent, ChatBox):
            parent.close()


class ChatBox(Vertical):
    """The last `lines` messages of a table's chat and, when open, a line to type in."""

    DEFAULT_CSS = """
    ChatBox { height: auto; padding: 0 1; background: $panel; }
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
                        max_length=MAX_LENGTH, compact=True, id="chat-input", disabled=True)

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
            colours = app_colours(self.app)
            body = Text("\n").join(message_text(m, colours) for m in recent)
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
