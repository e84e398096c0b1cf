"""Stacking the deck for engine tests: put chosen cards in hands, the pile and the stock.

Cards are taken from the game's own shoe (the engine's prepared deals), so every physical
card stays in exactly one place and the conservation check still holds after rigging.
"""

from __future__ import annotations

from tui.bots import Bot, make_bot
from tui.engine.cards import Card, parse_card
from tui.engine.game import Game
from tui.engine.prepared import PreparedDeal, deal_prepared
from tui.engine.ruleset.loader import load_ruleset


def new_game(rules: str, players: int = 3, seed: int = 1) -> Game:
    return Game(load_ruleset(rules), [f"P{i}" for i in range(players)], seed)


def rig(game: Game, hands: list[str], discard: str = "", stock_top: str = "",
        turn: int | None = None) -> None:
    """Re-deal the current deal as the engine's prepared deal (`tui.engine.prepared`):
    `discard` is bottom to top; `stock_top` lists the next cards to be drawn, first drawn
    first; the rest of the shoe forms the stock below them."""
    deal_prepared(game, PreparedDeal(tuple(hands), discard, stock_top,
                                     game.round.in_turn if turn is None else turn))
    game.check_conservation()


def card(game: Game, seat: int, token: str) -> Card:
    """The physical card with this face in `seat`'s hand."""
    face = parse_card(token).face
    for c in game.round.hands[seat]:
        if c.face == face:
            return c
    raise AssertionError(f"{token} not in hand {seat}")


def cards(game: Game, seat: int, tokens: str) -> tuple[Card, ...]:
    """Distinct physical cards with these faces from `seat`'s hand (duplicates allowed)."""
    out: list[Card] = []
    for token in tokens.split():
        face = parse_card(token).face
        found = next((c for c in game.round.hands[seat]
                      if c.face == face and all(o.uid != c.uid for o in out)), None)
        if found is None:
            raise AssertionError(f"{token} not in hand {seat}")
        out.append(found)
    return tuple(out)


def goto_deal(game: Game, number: int) -> None:
    """Skip ahead to deal `number` (a rig then re-deals it as the test wants)."""
    while game.round.number < number:
        game.round.phase = "round_over"
        game.next_round()


QUICK_STEPS = {"hard": 2, "expert": 12}  # exact re-evaluations / playouts a decision


def fast_bot(level: str, seed: int = 0, steps: int | None = None) -> Bot:
    """A bot of `level` on a small step budget (`steps` units of work a decision: exact
    re-evaluations for hard, playouts for expert; default `QUICK_STEPS`) and no time
    budget, so tests stay quick and play the same on any machine."""
    bot = make_bot(level, seed)
    if hasattr(bot, "steps"):
        bot.steps = QUICK_STEPS.get(level, 2) if steps is None else steps
    if hasattr(bot, "budget"):
        bot.budget = None
    return bot
