"""A cache of Textual's that keeps closed widgets' rendered lines, and letting go of it.

Textual caches `StylesCache.get_inner_outer` with a process-wide `functools.lru_cache`
whose key holds the widget's styles cache itself (Textual 8.2, issue #6665), so up to
1,024 closed widgets' styles caches, each holding every line that widget drew, stayed in
memory: about 2,000 objects for each screen a player opened and closed, in a cache every
session of a server process shares.  The cached function only builds two colours, so
emptying the cache now and then costs nothing worth measuring.
"""

from __future__ import annotations

from textual._styles_cache import StylesCache


def release_closed_widgets() -> None:
    """Empty the cache (the app does it at each change of screen, an SSH session when its
    app has ended); widgets still on screen fill it again as they draw."""
    cache_clear = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if cache_clear is not None:  # gone once Textual stops caching on the instance
        cache_clear()
