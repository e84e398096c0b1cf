"""One parse of the app's CSS for every SSH session of a process, not one per session.

Each Textual app parses its whole stylesheet (every widget's `DEFAULT_CSS` and the
`.tcss` files) when it starts and again each time a screen with CSS of its own or a new
kind of widget appears: `Stylesheet.reparse` starts from an empty stylesheet, so its
per-stylesheet cache never helps.  With one app per player, a worker re-parsed the same
text a dozen times per player joining.

`SharedStylesheet` keeps the parsed rules of each source in one cache for the process,
keyed by the source text and where it came from *and the CSS variables* (the theme), so
apps with different themes never see each other's colours.  The parsed rules are only
read after parsing (Textual itself reuses them between parses of one stylesheet), so
apps can share them.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation

MAX_PARSED = 512
"""Sources (per theme) whose parsed rules are kept for the process."""

_parsed: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(MAX_PARSED)


class SharedStylesheet(Stylesheet):
    """A stylesheet whose parsed sources come from (and go to) one cache per process."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._variables_key: frozenset[tuple[str, str]] | None = None

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._variables_key = None

    def _parse_rules(self, css: str, read_from: CSSLocation, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        if self._variables_key is None:
            self._variables_key = frozenset(self._variables.items())
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._variables_key)
        rules = _parsed.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            _parsed[key] = rules
        return rules

    def reparse(self) -> None:
        """Parse every source again (after new variables or sources).

        Textual's version parses into a new plain `Stylesheet`, which would bypass the
        shared cache; `parse` gives the same result here: the rules are replaced only
        once every source has parsed, and a failing source is raised again.
        """
        self._invalid_css = set()
        self.parse()


def share_stylesheet(app: App[Any]) -> None:
    """Give `app` a `SharedStylesheet` (before it runs) with what its own one holds."""
    old = app.stylesheet
    if isinstance(old, SharedStylesheet):
        return
    shared = SharedStylesheet(variables=old._variables)
    shared.source = old.source.copy()
    shared._require_parse = bool(shared.source)
    app.stylesheet = shared
