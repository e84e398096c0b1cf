"""A compositor that, for a partial update, renders only the widgets it will send.

Textual's compositor redraws a partial update from one rectangle around every dirty
region: at the table a move dirties the round bar at the top and the key bar at the
bottom, so every widget on the screen was asked for its lines each frame (each one
restyling its cached lines and having them cut to the screen's columns), though only the
dirty spans are written to the terminal.  A widget that overlaps no dirty region has no
cell in those spans, so leaving it out changes nothing that is sent: a widget behind it
(or nothing) fills its cells in the composition, and those cells are not written.  Full
updates (a layout, a resize) are Textual's own.
"""

from __future__ import annotations

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.widget import Widget


class DirtyCompositor(Compositor):
    """`Compositor` whose partial updates ask only widgets under a dirty region."""

    _updating: list[Region] | None = None

    def render_partial_update(self) -> ChopsUpdate | None:
        self.cuts  # noqa: B018 - worked out (and kept) from every widget, before the filter
        self._updating = list(self._dirty_regions)
        try:
            return super().render_partial_update()
        finally:
            self._updating = None

    @property
    def visible_widgets(self) -> dict[Widget, tuple[Region, Region]]:
        widgets = super().visible_widgets
        dirty = self._updating
        if not dirty:
            return widgets
        return {widget: (region, clip) for widget, (region, clip) in widgets.items()
                if any(region.intersection(clip).overlaps(part) for part in dirty)}
