"""A first game that teaches: the table screen itself, with a coach panel.

`LearnScreen` is the `TableScreen`, playing a `LessonTable` (a table service that lets
only each step's move pass and plays the others' moves from the script), with the coach
above the key bar.  Every key and click works as at a real table; the coach shows the
step the player is on, and moves on when the table does.  A lesson is one deal: when it
ends the coach says so, Enter shows the deal's summary and then leaves, and `q` leaves at
any step (nothing is saved: the player's saved game is untouched).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen

from tui.engine.view import SeatView
from tui.service.lesson import LessonTable

from ..host import host
from ..table_session import TableSession
from ..widgets.coach import CoachPanel
from .table import TableScreen

# The table's notices about a move not made, which the coach says instead.
COACHED = ("Not allowed", "Choose first", "Not yet", "Nothing to lay off onto",
           "Nothing to swap", "Not played")


class LearnScreen(TableScreen):
    def __init__(self, lesson: LessonTable) -> None:
        super().__init__(TableSession(lesson, seat=0, save_path=None, drive_bots=True))
        self.lesson = lesson

    def compose_coach(self) -> ComposeResult:
        yield CoachPanel(id="coach")

    def on_mount(self) -> None:
        self._coach()

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """A move refused or not yet possible is the coach's to answer, under the step it
        did not take (no notice over the table)."""
        if title in COACHED and self.is_mounted:
            self.query_one(CoachPanel).nudge(message)
            return
        super().notify(message, title=title, severity=severity, timeout=timeout,
                       markup=markup)

    def action_continue(self) -> None:
        """Enter: the deal's summary once it is over; after a lesson that ends before its
        deal does, back to where the lesson was opened."""
        if self.lesson.finished and self.view_now.phase not in ("round_over", "game_over"):
            self.action_leave()
            return
        super().action_continue()

    def _after_summary(self, leave: bool | None) -> None:
        """A lesson is one deal: after its summary, back to the menu."""
        self.action_leave()

    def view_shown(self, view: SeatView) -> None:
        """No autosave and no summary: the coach follows the lesson instead."""
        self._coach()

    def _coach(self) -> None:
        lesson = self.lesson
        steps = len(lesson.lesson.steps)
        words = self.card_words() if self._view is not None else (lambda text: text)
        step = lesson.current
        panel = self.query_one(CoachPanel)
        if step is not None:
            panel.show(f"{lesson.lesson.title}: {step.title}",
                       f"step {lesson.step + 1} of {steps}", words(step.say))
        elif lesson.finished:
            panel.show(f"{lesson.lesson.title}: done", f"all {steps} steps",
                       words(lesson.lesson.done), done=True)
        else:
            panel.show(f"{lesson.lesson.title}", f"step {steps} of {steps}",
                       "Well done. The others finish the deal…")


def choose_lesson(screen: Screen) -> None:
    """Ask which game to learn (the main menu's Learn to play, the lobby's `h` over SSH),
    then open that lesson."""
    from tui.service.lessons import lesson_keys

    from .pickers import PickScreen

    keys = lesson_keys()

    def chosen(index: int | None) -> None:
        if index is not None:
            host(screen).open_lesson(keys[index])

    screen.app.push_screen(PickScreen("Learn to play", [
        (i, f"{key.replace('_', ' ').title()}: a guided first deal")
        for i, key in enumerate(keys)]), chosen)
