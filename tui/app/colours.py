"""Every colour the app paints with, taken from the Textual theme the player chose.

The `.tcss` files use the theme's `$variables` directly.  Text painted in Python (cards,
the hand, the key bar, logs, score sheets) takes its colours from a `Colours` built from
the same variables, so changing the theme in the settings recolours the whole table.  Cards
stay cards in every theme: their face is the lighter of the theme's foreground and
background, their ink the darker, red suits the theme's error colour.

Where the terminal has only 256 or 16 colours, the colours a card needs to read right are
named from the terminal's own palette (a red that stays red rather than turning brown when
rounded to the nearest of 256), and the rest is left to Textual's conversion.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from textual.color import Color


@dataclass(frozen=True)
class Colours:
    """Rich colour strings for what Python code paints."""

    face: str  # a card's face
    wild_face: str  # a wild card's face
    ink: str  # clubs and spades
    red: str  # diamonds and hearts
    green: str  # clubs in a four-colour deck
    blue: str  # diamonds in a four-colour deck
    joker: str
    wild_mark: str  # the star on a wild card and what it stands for
    edge: str  # a card's border
    cursor: str  # the card under the cursor
    selected: str  # a selected card
    back: str  # the back of a card (the stock)
    back_ink: str
    faint: str  # an empty pile, dimmed labels
    highlight: str  # whose turn, the leader, keys: the theme's warning colour
    on_highlight: str  # text on the highlight
    good: str  # a win, a suggested meld
    bad: str  # a loss
    text: str
    panel: str  # behind the dimmed keys
    seats: tuple[str, ...]  # one colour per seat (log, chat, charts)


def _hex(colour: Color) -> str:
    return colour.hex6


@lru_cache(maxsize=64)
def _from_theme(items: tuple[tuple[str, str], ...], depth: str) -> Colours:
    v = dict(items)

    def get(name: str) -> Color:
        return Color.parse(v[name])

    fg, bg = get("foreground"), get("background")
    face, ink = (fg, bg) if fg.brightness >= bg.brightness else (bg, fg)
    face = face.lighten(0.06)
    primary, secondary, accent = get("primary"), get("secondary"), get("accent")
    warning, error, success = get("warning"), get("error"), get("success")
    seats = tuple(_hex(c) for c in (primary.lighten(0.15), accent, success, error.lighten(0.1),
                                    secondary.lighten(0.25), warning.darken(0.1),
                                    primary.blend(success, 0.5), accent.blend(error, 0.5)))
    colours = Colours(
        face=_hex(face), wild_face=_hex(face.blend(warning, 0.45)), ink=_hex(ink),
        red=_hex(error.darken(0.05)), green=_hex(success.darken(0.25)),
        blue=_hex(primary.darken(0.1)), joker=_hex(secondary.blend(error, 0.4)),
        wild_mark=_hex(warning.darken(0.4)), edge=_hex(face.blend(ink, 0.45)),
        cursor=_hex(primary), selected=_hex(accent), back=_hex(primary.darken(0.3)),
        back_ink=_hex(primary.lighten(0.25)), faint=_hex(fg.blend(bg, 0.55)),
        highlight=_hex(warning), on_highlight=_hex(warning.get_contrast_text(1.0)),
        good=_hex(success), bad=_hex(error.lighten(0.1)), text=_hex(fg),
        panel=_hex(get("panel")), seats=seats)
    if depth == "256":
        # exact entries of the 256-colour palette: no rounding towards brown or grey
        return _replace(colours, red="color(160)", face="color(255)", ink="color(16)",
                        green="color(28)", blue="color(26)", joker="color(91)",
                        wild_face="color(222)", back="color(24)", back_ink="color(110)")
    if depth in ("standard", "windows"):
        return _replace(colours, red="red", face="bright_white", ink="black", green="green",
                        blue="blue", joker="magenta", wild_face="bright_yellow",
                        wild_mark="black", edge="black", back="blue", back_ink="bright_white",
                        highlight="yellow", on_highlight="black", cursor="blue",
                        selected="magenta")
    return colours


def _replace(colours: Colours, **changes: Any) -> Colours:
    from dataclasses import replace

    return replace(colours, **changes)


def colours_from(variables: Mapping[str, str], depth: str | None = "truecolor") -> Colours:
    """The colours for a theme's CSS variables (`App.theme_variables`) at a colour depth
    (`truecolor`, `256`, `standard`: Rich's names for them)."""
    wanted = ("foreground", "background", "primary", "secondary", "accent", "warning",
              "error", "success", "panel")
    return _from_theme(tuple((k, variables[k]) for k in wanted), depth or "truecolor")


@lru_cache(maxsize=1)
def default_colours() -> Colours:
    """The default theme's colours (for text drawn outside a running app); worked out
    once (generating a theme's variables takes longer than drawing a log line)."""
    from textual.theme import BUILTIN_THEMES

    return colours_from(BUILTIN_THEMES["textual-dark"].to_color_system().generate())


def app_colours(app: Any) -> Colours:
    """The colours of a running app: its theme, at its terminal's colour depth."""
    variables = getattr(app, "theme_variables", None) or {}
    if "foreground" not in variables:
        return default_colours()
    depth = getattr(getattr(app, "console", None), "color_system", None)
    return colours_from(variables, depth)
