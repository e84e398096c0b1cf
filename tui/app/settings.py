"""The player's preferences, kept as JSON in the user config folder.

Settings are read once when the app starts and written whenever the settings screen saves
them.  A damaged or hand-edited file never stops the game: unknown keys are ignored and bad
values fall back to their defaults, so the worst case is the defaults.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from tui.atomic import write_atomic
from tui.service.names import clean_name

SETTINGS_FILE = "settings.json"

CARD_STYLES = ("unicode", "ascii")
COLOUR_SCHEMES = ("two", "four")
# Seconds between two bot moves.
BOT_SPEEDS: dict[str, float] = {"slow": 1.6, "normal": 0.9, "fast": 0.4, "instant": 0.05}
# What undo takes back: the player's own moves of this turn, or (a house setting for solo
# play) whole turns, the bots' moves after them too; never a scored deal.
UNDO_REACH = ("turn", "turns")
# Where a card drawn or taken goes in the hand: at the right end, or sorted into place.
NEW_CARDS = ("end", "sorted")


@dataclass(frozen=True)
class Settings:
    """Everything the settings screen edits."""

    name: str = "Player"
    card_style: str = "unicode"  # suit symbols ♣♦♥♠, or plain letters C D H S
    colours: str = "two"  # red/black suits, or a four-colour deck
    theme: str = "textual-dark"
    bot_speed: str = "normal"
    undo: str = "turn"
    new_cards: str = "end"

    @property
    def bot_delay(self) -> float:
        return BOT_SPEEDS.get(self.bot_speed, BOT_SPEEDS["normal"])

    def cleaned(self) -> Settings:
        """A copy with every out-of-range value replaced by its default."""
        default = Settings()
        name = clean_name(self.name, "") if isinstance(self.name, str) else ""
        return Settings(
            name=name or default.name,
            card_style=self.card_style if self.card_style in CARD_STYLES else default.card_style,
            colours=self.colours if self.colours in COLOUR_SCHEMES else default.colours,
            theme=self.theme if isinstance(self.theme, str) and self.theme else default.theme,
            bot_speed=self.bot_speed if self.bot_speed in BOT_SPEEDS else default.bot_speed,
            undo=self.undo if self.undo in UNDO_REACH else default.undo,
            new_cards=self.new_cards if self.new_cards in NEW_CARDS else default.new_cards,
        )


class SettingsStore:
    """Loads and saves `Settings` at one path; `path=None` keeps them in memory only
    (used for SSH guests, who must not share one settings file)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    @classmethod
    def default(cls) -> SettingsStore:
        from tui.paths import user_config_dir

        return cls(user_config_dir() / SETTINGS_FILE)

    def load(self) -> Settings:
        if self.path is None or not self.path.exists():
            return Settings()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return Settings()
        if not isinstance(data, dict):
            return Settings()
        return _from_dict(data)

    def save(self, settings: Settings) -> None:
        """Write the settings; raises OSError when the folder cannot be written."""
        if self.path is None:
            return
        write_atomic(self.path, json.dumps(asdict(settings), indent=2) + "\n")


def _from_dict(data: dict[str, Any]) -> Settings:
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in data.items() if k in known and isinstance(v, str)}
    return replace(Settings(), **values).cleaned()
