"""How much a Three Thirteen player loses by feeding the next player the card it goes out
with, and how much of that the public log lets a bot see coming.

    python tests/bench/feed_diagnostics.py oracle --deals 20 --seed 9100
    python tests/bench/feed_diagnostics.py reading --games 6 --seed 3000
    python tests/bench/feed_diagnostics.py going-out --games 30 --seed 2900 --players 2
    python tests/bench/feed_diagnostics.py dead-cards --deals 30 --seed 9500 --players 2
    python tests/bench/feed_diagnostics.py hazard --deals 30 --seed 9500 --players 2
    python tests/bench/feed_diagnostics.py sight --deals 20 --seed 9700 --told both

`oracle` plays mirrored 2-player games of `hard` against a `hard` that looks at the next
player's true hand (a yardstick only: no bot may) and, when its discard would let that
player go out, throws the best other card that would not, if one leaves at most `--slack`
points more.  The margin is what never feeding the winning card is worth.  With
`--judged` the peeking player is instead the judgement `expert` starts from, believing
fully what the true hand says of each card (`Judgement.out_scale` = 1), and with
`--judged --blind` the same judgement with no peeking (its yardstick on the same deals).

`reading` plays `hard` against `hard` and, at every discard with a choice, asks for each
candidate card how likely the next player goes out with it, over hands for that player
drawn three ways from the cards this seat has not seen: **blind** (dealt at random),
**model** (imagined by `opponents.OpponentModel`, as expert reads the table) and
**developed** (`OpponentModel.developed_order`: dealt at random, then played alone for as
many draws as the player has had, so they look like kept hands, not dealt ones), unweighed,
weighed as expert weighs them (flattened) and weighed fully; `--population` sets how many
hands the model weighs (whether a bigger population would let sharper weights pay).  It
prints, against the true hand, each reading's mean for the cards that do let the player
out and for those that do not, and its AUC: over all candidates, and *within* a decision
(what choosing between the cards in hand needs).

`going-out` plays `hard` at every seat and, whenever a player goes out with a choice of
the card it throws (several cards whose loss leaves the rest melded; the engine offers the
dearest), plays the deal's final turns out from copies of the game once for each choice:
what the best choice would have saved against the engine's (a ceiling: those copies know
the stock), and what choosing as `expert` reads the next player (the card its feeder says
that player can use least) gains or loses.

`dead-cards` plays mirrored games of `hard` against a `hard` told which of the cards it
has not seen are in the other hands, so its look-ahead draws only from what the stock
holds: what knowing where the cards are is worth to hard's own planning, as against what
its feeding charge would give (`oracle`).  `--pool loose` tells it only which are melded
there; `--pool pile` peeks at nothing and counts the buried discards as drawable too;
`--pool all --gain K` keeps hard's pool and counts what the next draw gains K times (a
stand-in for K draws).

`hazard` plays the judgement `expert` starts from, told by the other hands' true cards how
likely each goes out at its next draw from the stock (the race's chance that the deal
ends), against `hard`; `--blind`, the judgement as it is, on the same deals.

`sight` plays `expert` itself, at its default budget, told the other hands' true cards,
against `hard`: what expert's design could win if it read the table perfectly, the ceiling
of every reading of the public log.  `--told feed`: its feeder reads the next player's real
hand (and the race believes it fully); `--told search`: its search plays out the real deal,
the stock's cards in a fresh random order each time; `--told both`; `--told deal`: its
search plays out the whole real deal, the stock in the order it will be drawn (foresight,
not sight: what a search told the whole deal is worth, as against the hands alone);
`--told wide`: its search plays out the real hands (stock shuffled) at every draw and
discard, short hands too, where expert searches only the discards of long hands;
`--told nothing`: expert as it is, on the same deals.  Printed, not asserted.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tui.bots.evaluate import Evaluator, without_card  # noqa: E402
from tui.bots.expert import DECLARE_MAX_OPPONENTS, ExpertBot, Imagines  # noqa: E402
from tui.bots.hard import HardBot, weighed_discards  # noqa: E402
from tui.bots.judgement import Judgement, Odds  # noqa: E402
from tui.bots.lookahead import Feeder, Lookahead, next_player, unseen_faces  # noqa: E402
from tui.bots.medium import discard_action  # noqa: E402
from tui.bots.memory import Face, Knowledge, read_knowledge  # noqa: E402
from tui.bots.opponents import POPULATION, OpponentModel, World  # noqa: E402
from tui.bots.outs import Outs  # noqa: E402
from tui.bots.tactics import Decision, evaluator_for, play_mode  # noqa: E402
from tui.engine.actions import Action, GoOut, meld_specs  # noqa: E402
from tui.engine.cards import Card  # noqa: E402
from tui.engine.game import Game  # noqa: E402
from tui.engine.ruleset.loader import load_ruleset  # noqa: E402
from tui.engine.view import SeatView  # noqa: E402

HANDS = 60  # hands drawn for the next player, per reading and decision


def goes_out(ev: Evaluator, hand: Sequence[Card], card: Card) -> bool:
    return ev.after_best_discard(list(hand) + [card]) == 0


def feeding_position(view: SeatView) -> bool:
    return (view.phase == "play" and play_mode(view) == "declare" and not view.final_turns
            and bool(view.discardable) and next_player(view) is not None)


class FeedOracle(HardBot):
    """`hard`, told the next player's true hand by `peek` (a yardstick, not a bot); with
    `miss` / `false`, a reading that errs: it misses a card that lets that player go out
    with chance `miss`, and calls a card that does not a danger with chance `false`."""

    level = "feed-oracle"

    def __init__(self, seed: int, peek: Callable[[int], Sequence[Card]], slack: int,
                 miss: float = 0.0, false: float = 0.0) -> None:
        super().__init__(seed)
        self.peek = peek
        self.slack = slack
        self.miss = miss
        self.false = false
        self.errs = random.Random(seed)
        self.saved = 0

    def _fatal(self, ev: Evaluator, theirs: Sequence[Card], card: Card) -> bool:
        if goes_out(ev, theirs, card):
            return self.errs.random() >= self.miss
        return self.errs.random() < self.false

    def discard(self, view: SeatView, ev: Evaluator) -> Decision:
        decision = super().discard(view, ev)
        card = getattr(decision.action, "card", None)
        seat = next_player(view)
        if card is None or seat is None or not feeding_position(view):
            return decision
        theirs = self.peek(seat)
        if not self._fatal(ev, theirs, card):
            return decision
        kept = ev.penalty(without_card(list(view.hand), card))
        for pen, other in weighed_discards(view, ev):
            if other.face != card.face and pen <= kept + self.slack and \
                    not self._fatal(ev, theirs, other):
                self.saved += 1
                return Decision(discard_action(view, other), "the next player needs it")
        return decision


class JudgedOracle(Judgement):
    """The judgement, its feeder told by `peek` which cards let the next player go out."""

    level = "judged-oracle"

    def __init__(self, seed: int, peek: Callable[[int], Sequence[Card]] | None) -> None:
        super().__init__(seed)
        self.peek = peek
        self.out_scale = 0.0 if peek is None else 1.0  # blind: the judgement as it is

    def _feeder(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Feeder:
        feeder = super()._feeder(view, ev, know)
        seat = next_player(view)
        if self.peek is not None and seat is not None:
            theirs = list(self.peek(seat))
            feeder.out_chance = lambda card: float(goes_out(ev, theirs, card))  # type: ignore
        return feeder


def hand_of(game: Game, seat: int) -> Sequence[Card]:
    return game.round.hands[seat]


def turns(game: Game, deal_only: bool = False) -> Iterator[tuple[int, SeatView]]:
    """Every turn of the game to its end (`deal_only`: of the deal in play), deals dealt as
    they come: the seat to act and its view (the caller applies the action before asking
    for the next)."""
    while game.phase != "game_over":
        if game.phase == "round_over":
            if deal_only:
                return
            game.next_round()
            continue
        seat = game.actor
        yield seat, game.view(seat)


def play(game: Game, bots: Sequence[HardBot]) -> None:
    for seat, view in turns(game):
        game.apply(bots[seat].choose(view))


def mirrored(deals: int, seed: int, players: int,
             peeker: Callable[[int, Game], HardBot]) -> tuple[list[float], list[HardBot]]:
    """Games of `peeker(deal, game)` (even seats) against `hard` (odd seats), every deal
    played twice with the seats turned by one: hard's mean points a game less the
    peeker's, per deal, and the peekers that played.  Every bot of a deal has the same
    seed (`10 * deal`), so a peeker that plays as hard plays exactly as hard does and the
    margin is what its change made (with bots seeded apart, hard against hard measured
    +6.2 ± 1.7 over 20 deals of `--seed 9100`)."""
    rules = load_ruleset("three_thirteen")
    margins = []
    peekers: list[HardBot] = []
    for deal in range(deals):
        totals: dict[bool, list[int]] = {True: [], False: []}  # peeking: points a game
        for turn in (0, 1):
            game = Game(rules, [f"p{s}" for s in range(players)], seed + deal)
            peeks = [(s + turn) % players % 2 == 0 for s in range(players)]  # turned by one
            bots = [peeker(deal, game) if peek else HardBot(10 * deal) for peek in peeks]
            peekers.extend(b for b, peek in zip(bots, peeks, strict=True) if peek)
            play(game, bots)
            for seat, peek in enumerate(peeks):
                totals[peek].append(game.totals[seat])
        margins.append(statistics.mean(totals[False]) - statistics.mean(totals[True]))
    return margins, peekers


def summary(margins: Sequence[float]) -> str:
    mean = statistics.mean(margins)
    if len(margins) == 1:  # one deal has no spread to measure
        return f"{mean:+.1f} points a game against hard over 1 mirrored deal (no s.e.)"
    se = statistics.stdev(margins) / len(margins) ** 0.5
    return f"{mean:+.1f} ± {se:.1f} points a game against hard over {len(margins)} " \
        "mirrored deals"


def oracle(deals: int, seed: int, slack: int, judged: bool = False, blind: bool = False,
           miss: float = 0.0, false: float = 0.0) -> None:
    def peeker(deal: int, game: Game) -> HardBot:
        peek = partial(hand_of, game)
        if judged:
            return JudgedOracle(10 * deal, None if blind else peek)
        return FeedOracle(10 * deal, peek, slack, miss, false)

    margins, peekers = mirrored(deals, seed, 2, peeker)
    saved = sum(p.saved for p in peekers if isinstance(p, FeedOracle))
    if judged:
        what = "the judgement, blind" if blind else "the judgement told the going-out cards"
        print(f"{what}: {summary(margins)}")
        return
    errs = f", missing {miss:g} of them, fearing {false:g} of the others" if miss or false else ""
    print(f"never feeding the going-out card (slack {slack}{errs}): {summary(margins)}; "
          f"{saved / (2 * deals):.1f} discards changed a game")


class ScaledLookahead(Lookahead):
    """A look-ahead that counts the expected gain of the next draw `scale` times."""

    def __init__(self, ev: Evaluator, unseen: Counter[Face], scale: float) -> None:
        super().__init__(ev, unseen)
        self.scale = scale

    def expect(self, hand: Sequence[Card], exact: bool = False) -> float:
        now = self.ev.penalty(hand)
        return now - self.scale * (now - super().expect(hand, exact))


class DeadCardOracle(HardBot):
    """`hard` with another look-ahead (a yardstick, not a bot): over the pool `stock`, it
    is told by `peek` which unseen cards sit in the other hands and draws only what the
    stock holds; `loose` is told only which of them are melded there; `pile` (no peeking)
    also counts the buried discards, which come back when the stock is rebuilt; `all` is
    hard's own pool.  `gain` scales what the next draw is expected to gain."""

    level = "dead-card-oracle"

    def __init__(self, seed: int, peek: Callable[[int], Sequence[Card]], pool: str,
                 gain: float = 1.0) -> None:
        super().__init__(seed)
        self.peek = peek
        self.pool = pool
        self.gain = gain

    def _lookahead(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Lookahead:
        return ScaledLookahead(ev, self._pool(view, ev, know), self.gain)

    def _pool(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Counter[Face]:
        pool = Counter(know.unseen)
        if self.pool == "all":
            return pool
        if self.pool == "pile":
            return pool + Counter(c.face for c in know.pile[:-1])
        for seat in range(len(view.players)):
            if seat == view.seat:
                continue
            hand = list(self.peek(seat))
            dead = Counter(c.face for c in hand) if self.pool == "stock" else \
                Counter(c.face for m in ev.layout(hand).melds for c in m.cards)
            pool.subtract(dead - know.held.get(seat, Counter()))
        return +pool


POOLS = {"all": "with its own pool of unseen cards",
         "stock": "knowing which unseen cards are in the stock",
         "loose": "knowing which unseen cards are melded in other hands",
         "pile": "counting the buried discards as drawable"}


def dead_cards(deals: int, seed: int, players: int, pool: str, gain: float) -> None:
    margins, _ = mirrored(deals, seed, players, lambda deal, game: DeadCardOracle(
        10 * deal, partial(hand_of, game), pool, gain))
    scaled = f", a draw's gain counted {gain:g} times" if gain != 1 else ""
    print(f"hard {POOLS[pool]}{scaled}, {players} players: {summary(margins)}")


class HazardOracle(Judgement):
    """The judgement told, from the other hands' true cards (`peek`), how likely each goes
    out at its next draw from the stock, in place of its pace curve's guess (a yardstick,
    not a bot); with no `peek`, the judgement as it is."""

    level = "hazard-oracle"

    def __init__(self, seed: int, peek: Callable[[int], Sequence[Card]] | None) -> None:
        super().__init__(seed)
        self.peek = peek

    def _race_odds(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Odds:
        guess = super()._race_odds(view, ev, know)
        if self.peek is None:
            return guess
        faces, total = unseen_faces(know.unseen)
        stay = 1.0
        for seat in range(len(view.players)):
            if seat != view.seat:
                outs = Outs(ev, list(self.peek(seat)))
                hits = sum(n for card, n in faces if 0 < outs.penalty <= outs.gain(card))
                stay *= 1.0 - hits / total
        return Odds(tuple(1.0 - stay for _ in guess.ends), guess.credit)


def hazard(deals: int, seed: int, players: int, blind: bool) -> None:
    margins, _ = mirrored(deals, seed, players, lambda deal, game: HazardOracle(
        10 * deal, None if blind else partial(hand_of, game)))
    what = "the judgement, blind" if blind else "the judgement told how likely each " \
        "opponent goes out from the stock"
    print(f"{what}, {players} players: {summary(margins)}")


class TrueDeals:
    """The real deal, every hand as it is, the stock's cards in a fresh random order or,
    told `foresee`, in their real order (a yardstick: no bot may see it)."""

    def __init__(self, game: Game, foresee: bool = False) -> None:
        self.game = game
        self.foresee = foresee

    def imagine(self, rng: random.Random) -> World:
        stock = list(self.game.round.stock)
        if not self.foresee:
            rng.shuffle(stock)
        return World([list(hand) for hand in self.game.round.hands], stock)


class Told(NamedTuple):
    """What `sight` tells expert (--told), and how the result line says it."""

    feed: bool  # its feeder reads the next player's true hand
    search: bool  # its search plays out the true hands
    foresee: bool  # ... and the stock in its true order
    wide: bool  # ... searching every draw and discard, not only the long hands' discards
    says: str


TOLD = {"both": Told(True, True, False, False, "the true hands in its feeder and its search"),
        "feed": Told(True, False, False, False, "the true hands in its feeder"),
        "search": Told(False, True, False, False, "the true hands in its search"),
        "deal": Told(False, True, True, False,
                     "the whole deal, stock order too, in its search"),
        "wide": Told(False, True, False, True,
                     "the true hands in a search of every draw and discard"),
        "nothing": Told(False, False, False, False, "nothing")}


class SightedExpert(ExpertBot):
    """`expert` told the other hands' true cards (a yardstick, not a bot), as `told` says:
    its feeder reads the next player's real hand, its search plays out the real deal."""

    level = "sighted-expert"

    def __init__(self, seed: int, game: Game, told: Told) -> None:
        super().__init__(seed)
        self.game = game
        self.told = told
        if told.feed:
            self.out_scale = 1.0  # the truth is believed fully

    def _feeder(self, view: SeatView, ev: Evaluator, know: Knowledge) -> Feeder:
        if not self.told.feed or play_mode(view) != "declare":
            return super()._feeder(view, ev, know)
        return Feeder(view, ev, know, self._seed, 1,
                      lambda rng, seat: list(hand_of(self.game, seat)))

    def _declare_searched(self, view: SeatView, act: Action) -> bool:
        if not self.told.wide:
            return super()._declare_searched(view, act)
        return len(view.players) - 1 <= DECLARE_MAX_OPPONENTS

    def _search_deals(self, view: SeatView, know: Knowledge, ev: Evaluator) -> Imagines:
        if self.told.search:
            return TrueDeals(self.game, self.told.foresee)
        return super()._search_deals(view, know, ev)


def sight(deals: int, seed: int, players: int, told: str) -> None:
    what = TOLD[told]
    margins, _ = mirrored(deals, seed, players,
                          lambda deal, game: SightedExpert(10 * deal, game, what))
    print(f"expert, told {what.says}, {players} players: {summary(margins)}")


READINGS = {"model": (False, 1.0), "developed": (True, 0.0),
            "developed, weighed": (True, 0.2),  # as expert reads
            "dev., weighed fully": (True, 1.0)}  # name: (develop, weight power)


def reader(view: SeatView, know: Knowledge, ev: Evaluator, develop: bool,
           power: float, population: int) -> OpponentModel:
    model = OpponentModel(view, know, ev.params.wild_ranks, ev.params.run_min - 1, ev)
    model.develop, model.weight_power, model.population = develop, power, population
    return model


def auc(pairs: Sequence[tuple[float, float]]) -> float:
    """Chance that a card the player goes out with reads likelier than one it does not."""
    if not pairs:
        return float("nan")
    return sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs) / len(pairs)


def reading(games: int, seed: int, population: int = POPULATION) -> None:
    rules = load_ruleset("three_thirteen")
    names = ("blind", *READINGS)
    deals = fed = 0  # deals won by going out; of those, with the card just thrown
    rows: list[tuple[int, bool, dict[str, float]]] = []  # decision, truth, readings
    for number in range(games):
        game = Game(rules, ["a", "b"], seed + number)
        bots = [HardBot(number), HardBot(number + 1)]
        decision = 0
        drew: dict[int, str] = {}  # seat: how it drew last
        for seat, view in turns(game):
            if feeding_position(view):
                ev = evaluator_for(view)
                ranked = weighed_discards(view, ev)
                nxt = next_player(view)
                if len(ranked) > 1 and nxt is not None:
                    decision += 1
                    know = read_knowledge(view)
                    rng = random.Random(decision)
                    readings = {name: reader(view, know, ev, *how, population)
                                for name, how in READINGS.items()}
                    blind = readings["model"]

                    hands = {k: [m.imagine(rng).hands[nxt] for _ in range(HANDS)]
                             for k, m in readings.items()}
                    hands["blind"] = [blind.known[nxt] + rng.sample(blind.pool,
                                                                    blind.hidden[nxt])
                                      for _ in range(HANDS)]
                    truth_hand = game.round.hands[nxt]
                    for _, card in ranked:
                        read = {k: sum(goes_out(ev, h, card) for h in hs) / HANDS
                                for k, hs in hands.items()}
                        rows.append((decision + 1000 * number, goes_out(ev, truth_hand, card),
                                     read))
            action = bots[seat].choose(view)
            if action.kind in ("draw_stock", "take_discard"):
                drew[seat] = action.kind
            game.apply(action)
            if game.phase != "play" and game.phase != "draw" and game.round.went_out >= 0:
                deals += 1
                fed += drew.get(game.round.went_out) == "take_discard"
    out = [r for r in rows if r[1]]
    safe = [r for r in rows if not r[1]]
    if not out or not safe:
        print(f"{len(rows)} candidate discards: too few to compare (play more games)")
        return
    by_decision: dict[int, list[tuple[int, bool, dict[str, float]]]] = defaultdict(list)
    for row in rows:
        by_decision[row[0]].append(row)
    print(f"{fed} of {deals} deals ({100 * fed / max(1, deals):.0f}%) were won by going out "
          f"with the card the player before had just thrown")
    print(f"{len(rows)} candidate discards at {len(by_decision)} decisions; the next player "
          f"goes out with {len(out)} ({100 * len(out) / max(1, len(rows)):.1f}%)")
    print(f"{'reading':<20} {'mean, out':>10} {'mean, not':>10} {'AUC':>6} {'AUC within':>11}")
    for name in names:
        overall = [(a[2][name], b[2][name]) for a in out for b in safe[::5]]
        within = [(a[2][name], b[2][name]) for group in by_decision.values()
                  for a in group if a[1] for b in group if not b[1]]
        print(f"{name:<20} {statistics.mean(r[2][name] for r in out):>10.3f} "
              f"{statistics.mean(r[2][name] for r in safe):>10.3f} {auc(overall):>6.3f} "
              f"{auc(within):>11.3f}")


def going_out_choices(game: Game, seat: int, listed: GoOut) -> list[GoOut]:
    """Every way for `seat` to go out throwing a different card, the engine's offer first."""
    if listed.discard is None:
        return [listed]
    view = game.view(seat)
    ev = evaluator_for(view)
    hand = list(view.hand)
    found = [listed]
    seen = {listed.discard.face}
    for card in hand:
        if card.face in seen:
            continue
        seen.add(card.face)
        layout = ev.layout(without_card(hand, card))
        if not layout.deadwood:
            found.append(GoOut(seat, meld_specs(layout.melds), card))
    return found


def final_turns(game: Game, bots: Sequence[HardBot], seat: int, out: GoOut) -> float:
    """The others' mean points once the deal's final turns are played after `out`, on
    copies of the game and the bots."""
    game, bots = copy.deepcopy((game, list(bots)))
    game.apply(out)
    for actor, view in turns(game, deal_only=True):
        game.apply(bots[actor].choose(view))
    return statistics.mean(p for s, p in enumerate(game.scores[-1]) if s != seat)


def going_out(games: int, seed: int, players: int) -> None:
    rules = load_ruleset("three_thirteen")
    outs = 0
    ceiling: list[float] = []
    read: list[float] = []
    for number in range(games):
        bots = [HardBot(100 * number + s) for s in range(players)]
        game = Game(rules, [f"p{s}" for s in range(players)], seed + number)
        for seat, view in turns(game):
            action = bots[seat].choose(view)
            if isinstance(action, GoOut):
                outs += 1
                choices = going_out_choices(game, seat, action)
                if len(choices) > 1:
                    held = [final_turns(game, bots, seat, c) for c in choices]
                    ceiling.append(max(held) - held[0])
                    reader = ExpertBot(number)
                    reader.decide(view)  # starts its clock, as a decision would
                    feeder = reader._feeder(view, evaluator_for(view), read_knowledge(view))
                    # (more than one way out: each throws a card)
                    thrown = [c.discard for c in choices if c.discard is not None]
                    pick = min(range(len(thrown)), key=lambda i: feeder.gain(thrown[i]))
                    read.append(held[pick] - held[0])
            game.apply(action)
    changed = sum(1 for r in read if r)
    print(f"{players} players, {games} games: {outs} go-outs, {len(ceiling)} with a choice of "
          f"discard; the best choice would save {sum(ceiling) / games:.2f} points a game "
          f"({sum(1 for c in ceiling if c > 0)} choices mattered); choosing by expert's "
          f"reading changes {changed} and gains {sum(read) / games:+.2f} points a game "
          f"(+{sum(r for r in read if r > 0):.0f} / {sum(r for r in read if r < 0):.0f})")


def positive(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive whole number")
    return number


def share(text: str) -> float:
    number = float(text)
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a share between 0 and 1")
    return number


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    rules = load_ruleset("three_thirteen")
    seats = range(rules.players_min, rules.players_max + 1)  # what its table seats
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("oracle", help="what never feeding the going-out card is worth")
    one.add_argument("--deals", type=positive, default=20)
    one.add_argument("--seed", type=int, default=9100)
    one.add_argument("--slack", type=int, default=6)
    one.add_argument("--judged", action="store_true", help="the judgement peeks, not hard")
    one.add_argument("--blind", action="store_true", help="with --judged: no peeking")
    one.add_argument("--miss", type=share, default=0.0,
                     help="the share of going-out cards the peek misses")
    one.add_argument("--false", type=share, default=0.0,
                     help="the share of other cards the peek calls going-out cards")
    two = sub.add_parser("reading", help="how well each reading sees that card coming")
    two.add_argument("--games", type=positive, default=6)
    two.add_argument("--seed", type=int, default=3000)
    two.add_argument("--population", type=positive, default=POPULATION,
                     help="hands the opponent model weighs a decision (expert's: %(default)s)")
    three = sub.add_parser("going-out", help="what the choice of the going-out discard is worth")
    three.add_argument("--games", type=positive, default=30)
    three.add_argument("--seed", type=int, default=2900)
    three.add_argument("--players", type=int, choices=seats, default=2)
    four = sub.add_parser("dead-cards", help="hard knowing which unseen cards are in the stock")
    four.add_argument("--deals", type=positive, default=30)
    four.add_argument("--seed", type=int, default=9500)
    four.add_argument("--players", type=int, choices=seats, default=2)
    four.add_argument("--pool", choices=sorted(POOLS), default="stock")
    four.add_argument("--gain", type=float, default=1.0,
                      help="times the look-ahead counts what the next draw gains")
    five = sub.add_parser("hazard", help="the race told how soon the others go out")
    five.add_argument("--deals", type=positive, default=30)
    five.add_argument("--seed", type=int, default=9500)
    five.add_argument("--players", type=int, choices=seats, default=2)
    five.add_argument("--blind", action="store_true", help="no peeking: the judgement")
    six = sub.add_parser("sight", help="expert told the true hands: its design's ceiling")
    six.add_argument("--deals", type=positive, default=20)
    six.add_argument("--seed", type=int, default=9700)
    six.add_argument("--players", type=int, choices=seats, default=2)
    six.add_argument("--told", choices=sorted(TOLD), default="both",
                     help="which of expert's parts read the true hands")
    args = parser.parse_args(argv)
    if args.what == "oracle":
        if args.judged and (args.miss or args.false):
            one.error("--miss and --false make hard's peek err; the judgement's has no such knob")
        if args.blind and not args.judged:
            one.error("--blind goes with --judged (hard without its peek is hard itself)")
        oracle(args.deals, args.seed, args.slack, args.judged, args.blind, args.miss,
               args.false)
    elif args.what == "sight":
        if args.players - 1 > DECLARE_MAX_OPPONENTS and TOLD[args.told].search:
            six.error(f"expert does not search at more than {DECLARE_MAX_OPPONENTS + 1} "
                      "players; use --told feed")
        sight(args.deals, args.seed, args.players, args.told)
    elif args.what == "hazard":
        hazard(args.deals, args.seed, args.players, args.blind)
    elif args.what == "dead-cards":
        dead_cards(args.deals, args.seed, args.players, args.pool, args.gain)
    elif args.what == "going-out":
        going_out(args.games, args.seed, args.players)
    else:
        reading(args.games, args.seed, args.population)


if __name__ == "__main__":
    main()
