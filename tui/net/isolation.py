"""Make a Textual app safe to run next to other apps in the same process.

Textual assumes one app per process. While an app runs it wraps its message loop in
`contextlib.redirect_stdout(app._capture_stdout)` (and stderr): that swaps the
*process-wide* `sys.stdout`, and each redirect restores whatever it saw on entry. With
sessions starting and ending in any order the restores happen out of order, so
`sys.stdout` can be left pointing at a finished app's capture object - which keeps that
app alive forever and swallows every later `print` of the server.

Every SSH app therefore gets the same two forwarding streams as its "capture" objects:
the redirects swap one shared object for another, nothing refers to an app, and text
printed by any app's code goes to the server's own output (its log), never into a
player's channel - a player sees only what their own app's driver draws.

The per-app parts: the driver bound to the session's channel and the colour depth of
the player's terminal (the console's colour system would otherwise come from the
server's TERM).  What apps can share, they do: the parsed CSS (`tui.net.stylesheets`).

Colour codes: Rich and Textual remember the escape codes of a style *on the style
object* (`Style._ansi`), worked out for whichever colour depth rendered it first, and
Textual keeps a strip's rendered text on the strip; both objects are shared between
apps (style and blank-strip caches are process-wide).  So the first truecolor session
would hand its 24-bit codes to a vt100 client.  `isolate_colours` makes both caches
depend on the colour depth asked for.

Thread workers: Textual runs them on the loop's default executor and sets its
`active_worker` context variable *in the executor thread's own context*, which outlives
the work - so each pool thread would keep the last worker it ran, its task, and through
that task's context a finished player's whole app.  `isolate_executor` gives the loop
an executor that runs every job in a fresh context instead.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import io
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import IO, Any, NamedTuple

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style as RichStyle
from textual.app import App
from textual.cache import LRUCache
from textual.strip import SGR_STYLES, Strip

from tui.net.colors import rich_color_system
from tui.net.driver import SSHDriver
from tui.net.stylesheets import share_stylesheet
from tui.net.terminal import RemoteTerminal


class _ServerStream:
    """A stand-in for sys.stdout / sys.stderr while SSH apps run: forwards to the
    stream the server had before the first app started."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.target: IO[str] | None = None

    def _stream(self) -> IO[str] | None:
        return self.target or getattr(sys, f"__{self.name}__")

    def write(self, text: str) -> int:
        stream = self._stream()
        if stream is not None:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        stream = self._stream()
        if stream is not None:
            stream.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        stream = self._stream()
        if stream is None:
            raise OSError("no stream")
        return stream.fileno()


SERVER_STDOUT = _ServerStream("stdout")
SERVER_STDERR = _ServerStream("stderr")
_running_apps = 0


def acquire_streams() -> None:
    """Called before an SSH app starts: remember where the server's output goes."""
    global _running_apps
    if _running_apps == 0:
        SERVER_STDOUT.target = sys.stdout if sys.stdout is not SERVER_STDOUT else None
        SERVER_STDERR.target = sys.stderr if sys.stderr is not SERVER_STDERR else None
    _running_apps += 1


def release_streams() -> None:
    """Called after an SSH app ended: once none runs, put the server's streams back."""
    global _running_apps
    _running_apps = max(0, _running_apps - 1)
    if _running_apps:
        return
    if sys.stdout is SERVER_STDOUT:
        sys.stdout = SERVER_STDOUT.target or sys.__stdout__
    if sys.stderr is SERVER_STDERR:
        sys.stderr = SERVER_STDERR.target or sys.__stderr__
    SERVER_STDOUT.target = None
    SERVER_STDERR.target = None


def prepare_app(app: App[Any], terminal: RemoteTerminal, color_system: str) -> None:
    """Bind `app` to one session: its driver, its colours, no process-wide capture."""
    app._capture_stdout = SERVER_STDOUT  # type: ignore[assignment]
    app._capture_stderr = SERVER_STDERR  # type: ignore[assignment]
    app.driver_class = partial(SSHDriver, terminal=terminal)  # type: ignore[assignment]
    app.console._color_system = rich_color_system(color_system)
    # A crash is logged in one line by the session; Textual's own report (a whole
    # traceback printed at exit) would only flood the server's output.
    app.error_console = Console(file=io.StringIO(), markup=False, highlight=False)
    app.console.size = terminal.size
    share_stylesheet(app)


class _Sgr(NamedTuple):
    """A style's escape codes at one colour depth, whole and in parts (for changes)."""

    codes: str
    attributes: int
    foreground: str
    background: str


# Per colour depth: id(style) -> (style, codes).  Keyed by identity, which is cheap to
# hash; the entry holds the style itself, so its id cannot be reused while it is there.
_CODES: dict[ColorSystem, dict[int, tuple[RichStyle, _Sgr]]] = {s: {} for s in ColorSystem}
MAX_CODES = 8192
"""Styles whose codes are kept per colour depth (all forgotten past that; they refill)."""


def _sgr(style: RichStyle, system: ColorSystem) -> _Sgr:
    """The escape codes of `style` at colour depth `system`, never cached on the style."""
    known = _CODES[system]
    entry = known.get(id(style))
    if entry is not None and entry[0] is style:
        return entry[1]
    codes = _TEXTUAL_RENDER_ANSI(style, system)
    style._ansi = None  # never left on the shared style for another depth to find
    color, bgcolor = style._color, style._bgcolor
    sgr = _Sgr(codes, style._attributes & style._set_attributes,
               "" if color is None else ";".join(color.downgrade(system).get_ansi_codes()),
               "" if bgcolor is None else
               ";".join(bgcolor.downgrade(system).get_ansi_codes(False)))
    if len(known) >= MAX_CODES:
        known.clear()
    known[id(style)] = (style, sgr)
    return sgr


def _codes(style: RichStyle, system: ColorSystem) -> str:
    return _sgr(style, system).codes


_NO_SGR = _Sgr("", 0, "", "")


def _change(was: _Sgr, now: _Sgr) -> str:
    """The escape sequence that turns the attributes `was` into `now` ("" for none):
    only what `now` adds when nothing must be switched off, else a reset and `now`."""
    if was.attributes & ~now.attributes or (was.foreground and not now.foreground) or (
            was.background and not now.background):
        return f"\x1b[0;{now.codes}m" if now.codes else "\x1b[0m"
    added = now.attributes & ~was.attributes
    parts = [SGR_STYLES[bit] for bit in range(added.bit_length()) if added & (1 << bit)]
    if now.foreground != was.foreground:
        parts.append(now.foreground)
    if now.background != was.background:
        parts.append(now.background)
    return f"\x1b[{';'.join(parts)}m" if parts else ""


@functools.lru_cache(maxsize=8192)
def _rich_codes(style: RichStyle, system: ColorSystem) -> str:
    style._ansi = None
    codes = _RICH_MAKE_CODES(style, system)
    style._ansi = None
    return codes


def _styled(style: RichStyle, text: str, ansi: str) -> str:
    output = f"\x1b[{ansi}m{text}\x1b[0m" if ansi else text
    if style._link:
        output = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{output}\x1b]8;;\x1b\\"
    return output


def _render_style(cls: type[Strip], style: RichStyle, text: str, color_system: ColorSystem) -> str:
    return _styled(style, text, _codes(style, color_system))


RENDERED_KEPT = 4096
"""Strips' text kept per colour depth: a move at a table sends a few dozen strips to
each screen, most of them the same objects on every screen (lines shared between the
screens of a process, `tui.app.widgets.shared_lines`, and their pieces), so the other
screens at the table send the text the first one wrote (a few hundred bytes each)."""

_RENDERED: LRUCache[tuple[int, ColorSystem], tuple[Strip, str]] = LRUCache(RENDERED_KEPT)


def _render_strip(self: Strip, console: Console) -> str:
    # Not Textual's cache on the strip: a strip (e.g. a cached blank line) may be drawn
    # for sessions of different depths, so its text is kept per depth (`_RENDERED`; the
    # entry holds the strip, so no other object takes its id while it is kept), and the
    # codes of each style per depth.  Between two segments only what changes is sent
    # (most neighbours differ in one colour), not a reset and the whole next style: a
    # third fewer bytes per frame.
    system = console._color_system or ColorSystem.TRUECOLOR
    key = (id(self), system)
    kept = _RENDERED.get(key)
    if kept is not None and kept[0] is self:
        return kept[1]
    text = _strip_text(self, system)
    _RENDERED[key] = (self, text)
    return text


def _strip_text(self: Strip, system: ColorSystem) -> str:
    known = _CODES[system]
    parts = []
    state = _NO_SGR
    for text, style, _ in self._segments:
        if style is None:
            sgr = _NO_SGR
        else:
            entry = known.get(id(style))
            sgr = entry[1] if entry is not None and entry[0] is style else _sgr(style, system)
            if style._link:
                if state is not _NO_SGR:
                    parts.append("\x1b[0m")
                    state = _NO_SGR
                parts.append(_styled(style, text, sgr.codes))
                continue
        if sgr != state:
            parts.append(_change(state, sgr))
            state = sgr
        parts.append(text)
    if state.codes:
        parts.append("\x1b[0m")
    return "".join(parts)


def _make_ansi_codes(self: RichStyle, color_system: ColorSystem) -> str:
    return _rich_codes(self, color_system)


_TEXTUAL_RENDER_ANSI = Strip.render_ansi
_RICH_MAKE_CODES = RichStyle._make_ansi_codes


def isolate_colours() -> None:
    """Make colour codes depend on each session's colour depth (idempotent)."""
    Strip.render_style = classmethod(_render_style)  # type: ignore[method-assign,assignment]
    Strip.render = _render_strip  # type: ignore[method-assign]
    RichStyle._make_ansi_codes = _make_ansi_codes  # type: ignore[method-assign]


class FreshContextExecutor(ThreadPoolExecutor):
    """A thread pool whose jobs each run in a new, empty `contextvars.Context`, so no
    context variable set by a job stays behind in the pool's threads."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return super().submit(contextvars.Context().run, fn, *args, **kwargs)


def isolate_executor(loop: asyncio.AbstractEventLoop) -> None:
    """Make `loop`'s default executor a `FreshContextExecutor` (once per loop)."""
    current = getattr(loop, "_default_executor", None)
    if isinstance(current, FreshContextExecutor):
        return
    loop.set_default_executor(FreshContextExecutor(thread_name_prefix="rummy-worker"))
    if current is not None:
        current.shutdown(wait=False)
