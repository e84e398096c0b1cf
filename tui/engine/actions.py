"""What a player can do, as small immutable values.

Front ends and bots build these and hand them to `Game.apply`; the game checks each against
the ruleset and refuses an illegal one with an `IllegalAction` naming the rule.  Actions
serialise to plain JSON so a game is saved as its seed plus its actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import Card
from .meld import Face, Meld


class IllegalAction(Exception):
    """An action the rules forbid; `rule` names the rule, the message explains it."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True)
class MeldSpec:
    """Cards a player wants to meld, with optional declarations for the wilds among them
    (card uid -> the face it stands for).  Undeclared wilds get a sensible identity."""

    cards: tuple[Card, ...]
    declare: tuple[tuple[int, Face], ...] = ()
    kind: str = ""  # "set" or "run": how the meld was read when offered ("": either)


def meld_specs(melds: Sequence[Meld]) -> tuple[MeldSpec, ...]:
    """Melds (a solver's arrangement, say) as an action names them: the cards, what each
    wild stands for, and how the meld was read."""
    return tuple(MeldSpec(m.cards, tuple((card.uid, face) for card, face in m.wild_cards()),
                          m.kind)
                 for m in melds)


@dataclass(frozen=True)
class Action:
    kind: ClassVar[str] = ""
    seat: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class DrawStock(Action):
    kind: ClassVar[str] = "draw_stock"


@dataclass(frozen=True)
class TakeDiscard(Action):
    """Take the top discard (`depth` 0) or, where the ruleset allows deep draws, the card
    `depth` places below the top together with every card above it."""

    kind: ClassVar[str] = "take_discard"
    depth: int = 0


@dataclass(frozen=True)
class LayDown(Action):
    """Lay the round's contract down: all its melds in one go."""

    kind: ClassVar[str] = "lay_down"
    melds: tuple[MeldSpec, ...] = ()


@dataclass(frozen=True)
class LayOff(Action):
    """Add cards from hand to a meld on the table.  `end` picks the end of a run a wild
    goes to ("low"/"high"); empty lets the game choose."""

    kind: ClassVar[str] = "lay_off"
    meld_id: int = -1
    cards: tuple[Card, ...] = ()
    end: str = ""


@dataclass(frozen=True)
class SwapJoker(Action):
    """Put the natural card a joker stands for into a run, taking the joker into hand."""

    kind: ClassVar[str] = "swap_joker"
    meld_id: int = -1
    card: Card | None = None


@dataclass(frozen=True)
class Discard(Action):
    kind: ClassVar[str] = "discard"
    card: Card | None = None


@dataclass(frozen=True)
class GoOut(Action):
    """Declare the whole hand as melds (all but the discard, if the round asks for one)."""

    kind: ClassVar[str] = "go_out"
    melds: tuple[MeldSpec, ...] = ()
    discard: Card | None = None


@dataclass(frozen=True)
class Buy(Action):
    """"May I?": claim the discard the player in turn passed over, with penalty cards."""

    kind: ClassVar[str] = "buy"


@dataclass(frozen=True)
class PassBuy(Action):
    """Decline the discard offered for buying."""

    kind: ClassVar[str] = "pass_buy"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (DrawStock, TakeDiscard, LayDown, LayOff, SwapJoker, Discard, GoOut, Buy, PassBuy)
}


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return {"card": str(value), "uid": value.uid}
    if isinstance(value, MeldSpec):
        out: dict[str, Any] = {
            "cards": [_encode(c) for c in value.cards],
            "declare": [[uid, list(face)] for uid, face in value.declare],
        }
        if value.kind:
            out["kind"] = value.kind
        return out
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _decode_card(data: dict[str, Any]) -> Card:
    from .cards import parse_card

    return parse_card(data["card"], uid=int(data["uid"]))


def action_from_json(data: dict[str, Any]) -> Action:
    """Inverse of `Action.to_json`; raises `ValueError` on anything malformed."""
    try:
        cls = ACTION_TYPES[data["kind"]]
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            raw = data[f.name]
            if f.name in ("card", "discard"):
                kwargs[f.name] = None if raw is None else _decode_card(raw)
            elif f.name == "cards":
                kwargs[f.name] = tuple(_decode_card(c) for c in raw)
            elif f.name == "melds":
                kwargs[f.name] = tuple(
                    MeldSpec(
                        tuple(_decode_card(c) for c in m["cards"]),
                        tuple((int(uid), (int(face[0]), str(face[1]))) for uid, face in
                              m.get("declare", [])),
                        str(m.get("kind", "")),
                    )
                    for m in raw
                )
            else:
                kwargs[f.name] = raw
        return cls(**kwargs)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"malformed action {data!r}: {exc}") from exc
