"""A chair at a shared table and who it belongs to: the state the table keeps for each
seat (and writes down with `tui.service.kept_tables`), apart from the table's play."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Seat:
    """One chair: open, a bot's, or a person's (present or away)."""

    person: str | None = None
    """The name of the person who owns the chair (kept while they are away)."""
    owner: str = ""
    """What proves who that person is (`Identity.proof`): their key, or their session."""
    rejoin_code: str | None = None
    """A keyless owner's one-time code to take the chair back from a new session."""
    bot: str | None = None
    """Level of the bot in a bot's chair."""
    name: str = ""
    """The name shown at the table."""
    present: bool = False
    """The person is at the table now."""
    standin: bool = False
    """A bot plays for the person while they are away."""

    @property
    def is_open(self) -> bool:
        return self.person is None and self.bot is None

    def describe(self, standin_level: str) -> str:
        """A few words for the table and the lobby: `person`, `medium`, `away`..."""
        if self.person is None:
            return self.bot or "open"
        if self.present:
            return "person"
        return f"away, {standin_level} bot plays" if self.standin else "away"


def same_name(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a.casefold() == b.casefold()
