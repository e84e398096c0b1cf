"""Step through a recorded game, forward and back, seeing every hand.

The game is rebuilt from the record (its own ruleset text, names, seed) and its actions are
applied one by one; each new deal is a step of its own, so the dealt hands can be seen
before the first draw.  Going back rebuilds from the nearest saved checkpoint instead of
from the start, so stepping stays quick in long games.  Opening a replay plays it through
once and checks that it ends with exactly the recorded scores.
"""

from __future__ import annotations

import dataclasses
import random
import types
from dataclasses import dataclass
from typing import Any

from tui.engine.actions import Action, IllegalAction, action_from_json
from tui.engine.cards import Card
from tui.engine.game import Game
from tui.engine.meld import Meld
from tui.engine.ruleset import RulesetError, load_ruleset_text
from tui.engine.view import Event, Phase

from .record import GameRecord, RecordError

CHECKPOINT_EVERY = 64  # steps between saved copies of the game (a step takes ~50 µs)


@dataclass(frozen=True)
class Frame:
    """The whole state after `index` steps, hands and all."""

    index: int
    steps: int  # how many steps the game has in all
    action: Action | None  # the action of this step; None for a deal (and the start)
    events: tuple[Event, ...]  # the log lines this step wrote
    deal: int
    phase: Phase
    actor: int  # seat to act now (-1 between rounds and at the end)
    dealer: int
    names: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Meld, ...]
    discard: tuple[Card, ...]  # top card last
    stock_count: int
    totals: tuple[int, ...]
    scores: tuple[tuple[int, ...], ...]  # per finished round, per seat
    winners: tuple[int, ...]
    wild: frozenset[int] = frozenset()  # uids of the cards in hands that are wild now

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    @property
    def at_end(self) -> bool:
        return self.index == self.steps

    @property
    def caption(self) -> str:
        """The current step in words (its log lines, or what it was)."""
        if self.events:
            return " ".join(e.text for e in self.events)
        return "Start of the game." if self.index == 0 else "(nothing to show)"


class Replay:
    """A recorded game, positioned at one step; `goto`, `forward`, `back`, ..."""

    def __init__(self, record: GameRecord, checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        self.record = record
        self._every = max(1, checkpoint_every)
        try:
            self.rules = load_ruleset_text(record.ruleset_text,
                                           file=f"<recorded {record.ruleset_key}>",
                                           key=record.ruleset_key)
            actions = [action_from_json(raw) for raw in record.actions]
        except RulesetError as exc:
            raise RecordError(f"the recorded ruleset does not load:\n{exc}") from exc
        except ValueError as exc:
            raise RecordError(f"the recorded moves are damaged: {exc}") from exc
        self._steps: list[Action | None] = []
        self._round_of_step: list[int] = []  # round number after each step
        self._log_len: list[int] = []  # length of the log after each step (index 0: start)
        self._checkpoints: dict[int, Game] = {}
        self._game = self._play_through(actions)
        record.check_against(self._game)
        self._final = self._game
        self._position = len(self._steps)
        self.goto(0)

    # ------------------------------------------------------------------ building

    def _fresh(self) -> Game:
        try:
            return Game(self.rules, list(self.record.names), self.record.seed)
        except ValueError as exc:
            raise RecordError(f"the recorded game cannot be set up: {exc}") from exc

    def _play_through(self, actions: list[Action]) -> Game:
        """Play the whole record once: learn the steps, keep checkpoints, check legality."""
        game = self._fresh()
        self._snapshot(0, game)
        self._log_len.append(len(game.log))
        self._round_of_step.append(game.round.number)
        for n, action in enumerate(actions, 1):
            if game.phase == "round_over":
                self._advance(game, None)
            try:
                self._advance(game, action)
            except IllegalAction as exc:
                raise RecordError(f"recorded move {n} does not replay: {exc}") from exc
        return game

    def _advance(self, game: Game, step: Action | None) -> None:
        if step is None:
            game.next_round()
        else:
            game.apply(step)
        self._steps.append(step)
        self._log_len.append(len(game.log))
        self._round_of_step.append(game.round.number)
        if len(self._steps) % self._every == 0:
            self._snapshot(len(self._steps), game)

    def _snapshot(self, index: int, game: Game) -> None:
        self._checkpoints[index] = _clone(game)

    @staticmethod
    def _apply(game: Game, step: Action | None) -> None:
        if step is None:
            game.next_round()
        else:
            game.apply(step)

    # ------------------------------------------------------------------ moving

    @property
    def steps(self) -> int:
        return len(self._steps)

    @property
    def position(self) -> int:
        return self._position

    def goto(self, index: int) -> Frame:
        """Go to the state after `index` steps (clamped to the game)."""
        index = max(0, min(index, self.steps))
        if index < self._position or index - self._position > self._every:
            base = max(i for i in self._checkpoints if i <= index)
            self._game = _clone(self._checkpoints[base])
            self._position = base
        while self._position < index:
            self._apply(self._game, self._steps[self._position])
            self._position += 1
        return self.frame()

    def forward(self) -> Frame:
        return self.goto(self._position + 1)

    def back(self) -> Frame:
        return self.goto(self._position - 1)

    def start(self) -> Frame:
        return self.goto(0)

    def end(self) -> Frame:
        return self.goto(self.steps)

    def next_round(self) -> Frame:
        """To the deal of the next round (or the end)."""
        current = self._round_of_step[self._position]
        for i in range(self._position + 1, self.steps + 1):
            if self._round_of_step[i] > current:
                return self.goto(i)
        return self.end()

    def previous_round(self) -> Frame:
        """To the deal of this round, or of the one before when already there."""
        target = self._round_of_step[self._position]
        if self._position == self._round_start(target):
            target -= 1
        return self.goto(self._round_start(max(target, 1)))

    def _round_start(self, number: int) -> int:
        return next((i for i, r in enumerate(self._round_of_step) if r == number), 0)

    # ------------------------------------------------------------------ looking

    @property
    def game(self) -> Game:
        """The game at the current step (look, do not touch)."""
        return self._game

    def final_game(self) -> Game:
        """The game after its last step (checked against the record when opened)."""
        return self._final

    def frame(self) -> Frame:
        g = self._game
        st = g.round
        i = self._position
        first = self._log_len[i - 1] if i else 0
        return Frame(
            index=i,
            steps=self.steps,
            action=self._steps[i - 1] if i else None,
            events=tuple(g.log[first:self._log_len[i]]),
            deal=st.number,
            phase=st.phase,
            actor=g.actor,
            dealer=g.dealer,
            names=tuple(g.names),
            hands=tuple(tuple(h) for h in st.hands),
            table=tuple(st.table),
            discard=tuple(st.discard),
            stock_count=len(st.stock),
            totals=tuple(g.totals),
            scores=tuple(tuple(p) for p in g.scores),
            winners=tuple(g.winners),
            wild=frozenset(c.uid for hand in st.hands for c in hand
                           if self.rules.is_wild(c.rank, g.rules_round)),
        )


def _clone(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """A copy of a game that shares everything immutable (cards, melds, log lines, the
    ruleset) and copies every container and mutable object, so playing on from the copy
    never changes the original.  Much cheaper than `copy.deepcopy`, which would copy the
    whole log and history at every checkpoint.  What the original shares (the deal writes
    to the game's log and shuffles with the game's generator, and reports back through a
    bound method) is shared by the copy too: `memo` holds each copy made so far."""
    if memo is None:
        memo = {}
    hit = memo.get(id(value))
    if hit is not None:
        return hit
    twin: Any
    if isinstance(value, types.MethodType):
        return types.MethodType(value.__func__, _clone(value.__self__, memo))
    if isinstance(value, list):
        twin = memo[id(value)] = []
        if value and _mutable(value[0]):
            twin.extend(_clone(v, memo) for v in value)
        else:
            twin.extend(value)
    elif isinstance(value, dict):
        twin = memo[id(value)] = {}
        twin.update((k, _clone(v, memo)) for k, v in value.items())
    elif isinstance(value, set):
        twin = memo[id(value)] = set(value)
    elif isinstance(value, random.Random):
        twin = memo[id(value)] = random.Random()
        twin.setstate(value.getstate())
    elif _mutable(value):
        twin = memo[id(value)] = object.__new__(type(value))
        for name, attr in vars(value).items():
            object.__setattr__(twin, name, _clone(attr, memo))
    else:
        return value
    return twin


def _mutable(value: Any) -> bool:
    """Containers and plain objects; frozen dataclasses, tuples and scalars are shared."""
    if isinstance(value, list | dict | set | random.Random):
        return True
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return not value.__dataclass_params__.frozen  # type: ignore[attr-defined]
    return hasattr(value, "__dict__") and not isinstance(value, type)
