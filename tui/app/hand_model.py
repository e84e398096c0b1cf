"""The player's own arrangement of their hand: card order, cursor, selection and the
melds they have grouped ready to lay down.

The engine's hand is a set of cards; the order on screen is the player's business, so it
lives here (per app, never in the shared table).  Cards are tracked by `uid`, so two
identical cards from two decks stay distinct.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tui.engine.cards import Card

SORT_MODES = ("suit", "rank", "melds")


@dataclass
class HandModel:
    order: list[int] = field(default_factory=list)  # uids, left to right
    cards: dict[int, Card] = field(default_factory=dict)
    cursor: int = 0
    selected: set[int] = field(default_factory=set)
    groups: list[list[int]] = field(default_factory=list)  # staged melds, uids
    new: set[int] = field(default_factory=set)  # drawn since the last sync
    sort_mode: str = ""  # last sort applied ("" = the player's own order)
    suggested: list[list[int]] = field(default_factory=list)  # best melds, when sorted so
    hinted: set[int] = field(default_factory=set)  # the cards the hint names
    keep_sorted: bool = False  # a setting: cards that arrive go to their place in the sort
    chosen_sort: str = "suit"  # the order the player last chose (a new deal is dealt so)
    rank_keys: dict[int, int] = field(default_factory=dict)  # of the last sort by rank

    # --- keeping in step with the engine -------------------------------------------------
    def sync(self, hand: Sequence[Card]) -> None:
        """Adopt the engine's hand: keep the player's order, drop cards that left, add
        new ones (marked new) at the right end, or in their place when the hand is kept
        sorted by suit or rank; a hand no longer in the order it was sorted in stops
        saying it is (its label tells the truth)."""
        uids = {c.uid for c in hand}
        first = not self.order
        self.cards = {c.uid: c for c in hand}
        kept = [u for u in self.order if u in uids]
        added = [c.uid for c in hand if c.uid not in set(kept)]
        self.order = kept + added
        self.new = set() if first else set(added) | (self.new & uids)
        self.selected &= uids
        self.hinted &= uids
        self.groups = [[u for u in g if u in uids] for g in self.groups]
        self.groups = [g for g in self.groups if g]
        if any(u not in uids for g in self.suggested for u in g) or added:
            self.suggested = []  # the hand changed: the suggestion no longer holds,
            if self.sort_mode == "melds":  # nor does saying the hand is sorted by it
                self.sort_mode = ""
        self.cursor = max(0, min(self.cursor, len(self.order) - 1))
        if added and not first and self.sort_mode in ("suit", "rank"):
            if self.keep_sorted:
                self.sort(self.sort_mode, self.rank_keys)
            else:
                self.sort_mode = ""

    def reset(self) -> None:
        """A new deal: forget order, selection and groups."""
        self.order.clear()
        self.cards.clear()
        self.selected.clear()
        self.groups.clear()
        self.new.clear()
        self.suggested.clear()
        self.hinted.clear()
        self.cursor = 0

    # --- reading ---------------------------------------------------------------------------
    def drawn_state(self) -> tuple[object, ...]:
        """Everything the hand's drawing depends on, as a value: equal states draw the same
        (so the table redraws the hand only when this changes)."""
        return (tuple(self.order), self.cursor, frozenset(self.selected),
                tuple(map(tuple, self.groups)), frozenset(self.new),
                tuple(map(tuple, self.suggested)), frozenset(self.hinted))

    @property
    def hand(self) -> list[Card]:
        return [self.cards[u] for u in self.order]

    @property
    def cursor_card(self) -> Card | None:
        return self.cards[self.order[self.cursor]] if self.order else None

    def selected_cards(self) -> list[Card]:
        return [self.cards[u] for u in self.order if u in self.selected]

    def suggestion_of(self, uid: int) -> int | None:
        for i, meld in enumerate(self.suggested):
            if uid in meld:
                return i
        return None

    def group_of(self, uid: int) -> int | None:
        for i, group in enumerate(self.groups):
            if uid in group:
                return i
        return None

    def group_cards(self) -> list[list[Card]]:
        return [[self.cards[u] for u in self._in_order(g)] for g in self.groups]

    def ungrouped(self) -> list[Card]:
        grouped = {u for g in self.groups for u in g}
        return [self.cards[u] for u in self.order if u not in grouped]

    def _in_order(self, uids: Iterable[int]) -> list[int]:
        wanted = set(uids)
        return [u for u in self.order if u in wanted]

    # --- cursor and selection --------------------------------------------------------------
    def move_cursor(self, delta: int) -> None:
        if self.order:
            self.cursor = (self.cursor + delta) % len(self.order)

    def set_cursor(self, index: int) -> None:
        if self.order:
            self.cursor = max(0, min(index, len(self.order) - 1))

    def toggle(self, index: int | None = None) -> None:
        if not self.order:
            return
        uid = self.order[self.cursor if index is None else index]
        self.selected ^= {uid}

    def mark_hinted(self, cards: Sequence[Card]) -> None:
        """Mark the hand's cards a hint names (each physical card once: of two cards
        of one face, the first) and put the cursor on the first of them."""
        free = list(self.order)
        marked: list[int] = []
        for card in cards:
            uid = next((u for u in free if self.cards[u].face == card.face), None)
            if uid is not None:
                free.remove(uid)
                marked.append(uid)
        self.hinted = set(marked)
        if marked:
            self.cursor = min(self.order.index(u) for u in marked)

    def clear_selection(self) -> None:
        self.selected.clear()

    # --- arranging -------------------------------------------------------------------------
    def shift(self, delta: int) -> None:
        """Move the card under the cursor (or the selected cards, together) left/right."""
        if not self.order:
            return
        moving = self._in_order(self.selected) if self.selected else [self.order[self.cursor]]
        cursor_uid = self.order[self.cursor]
        rest = [u for u in self.order if u not in set(moving)]
        start = self.order.index(moving[0])
        new_start = max(0, min(start + delta, len(rest)))
        self.order = rest[:new_start] + moving + rest[new_start:]
        self.cursor = self.order.index(cursor_uid)
        self.sort_mode = ""
        self.suggested = []

    def sort(self, mode: str, key_rank: dict[int, int] | None = None,
             melds: Sequence[Sequence[Card]] = ()) -> None:
        """Reorder by suit, by rank, or with the given melds first (then the rest by suit)."""
        cards = self.hand
        cursor_uid = self.order[self.cursor] if self.order else None
        if mode == "suit":
            cards.sort(key=lambda c: c.sort_key())
        elif mode == "rank":
            ranks = key_rank or {}
            cards.sort(key=lambda c: (ranks.get(c.rank, c.rank) if not c.is_joker else 99,
                                      c.sort_key()))
        elif mode == "melds":
            placed: list[Card] = []
            used: set[int] = set()
            for meld in melds:
                for card in meld:
                    if card.uid in self.cards and card.uid not in used:
                        placed.append(card)
                        used.add(card.uid)
            rest = sorted((c for c in cards if c.uid not in used), key=lambda c: c.sort_key())
            cards = placed + rest
        self.order = [c.uid for c in cards]
        if cursor_uid is not None:
            self.cursor = self.order.index(cursor_uid)
        self.sort_mode = mode
        if mode in ("suit", "rank"):
            self.chosen_sort = mode
            self.rank_keys = dict(key_rank or {})
        self.suggested = [[c.uid for c in meld if c.uid in self.cards] for meld in melds] \
            if mode == "melds" else []

    # --- staged melds ----------------------------------------------------------------------
    def group_selection(self) -> list[Card]:
        """Make the selected cards a staged meld (taking them out of other groups)."""
        chosen = self._in_order(self.selected)
        if not chosen:
            return []
        self.groups = [[u for u in g if u not in self.selected] for g in self.groups]
        self.groups = [g for g in self.groups if g]
        self.groups.append(chosen)
        self.selected.clear()
        # keep a group's cards together on screen
        first = min(self.order.index(u) for u in chosen)
        rest = [u for u in self.order if u not in set(chosen)]
        at = len([u for u in self.order[:first] if u not in set(chosen)])
        cursor_uid = self.order[self.cursor]
        self.order = rest[:at] + chosen + rest[at:]
        self.cursor = self.order.index(cursor_uid)
        return [self.cards[u] for u in chosen]

    def ungroup_at_cursor(self) -> bool:
        if not self.order:
            return False
        index = self.group_of(self.order[self.cursor])
        if index is None:
            return False
        del self.groups[index]
        return True

    def clear_groups(self) -> None:
        self.groups.clear()
