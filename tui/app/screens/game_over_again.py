"""The game-over screen with "Play again" (p): a new game with the same rules and the
same opponents, offered where the player alone chose them (a game against computer
players in this window, not a shared table)."""

from __future__ import annotations

from textual.binding import Binding

from .summary import GameOverScreen


class GameOverAgainScreen(GameOverScreen):
    BINDINGS = [Binding("p", "play_again", "Play again")]

    again = False  # the player asked for another game like this one

    def action_play_again(self) -> None:
        self.again = True
        self.dismiss(True)  # (the table under it leaves too; the new one opens)
