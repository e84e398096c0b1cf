"""Computer players, by level.  `make_bot("medium", seed)` builds one."""

from __future__ import annotations

import importlib

from .base import Bot, Player

__all__ = ["LEVELS", "Bot", "Player", "available_levels", "make_bot"]

# level -> "module:Class"; modules are imported on first use.
LEVELS: dict[str, str] = {
    "random": "tui.bots.random_bot:RandomBot",
    "easy": "tui.bots.easy:EasyBot",
    "medium": "tui.bots.medium:MediumBot",
    "hard": "tui.bots.hard:HardBot",
    "expert": "tui.bots.expert:ExpertBot",
}


def available_levels() -> list[str]:
    return [level for level in LEVELS if _importable(level)]


def _importable(level: str) -> bool:
    try:
        _bot_class(level)
    except (ImportError, AttributeError):
        return False
    return True


def _bot_class(level: str) -> type[Bot]:
    module_name, class_name = LEVELS[level].split(":")
    bot_class: type[Bot] = getattr(importlib.import_module(module_name), class_name)
    return bot_class


def make_bot(level: str, seed: int = 0) -> Bot:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}")
    return _bot_class(level)(seed)
