"""House-rule knobs the deal and the game play by (#15): dealing, the stock, drawing,
buying, joker swaps, going out, scoring and the end.  Each test plays a stacked deal both
ways where it can, so it fails if the knob stops changing the game."""

from __future__ import annotations

import pytest
from bot_games import play_out
from table_rig import card, fast_bot, goto_deal, rig

from tui.engine.actions import (
    Buy,
    Discard,
    DrawStock,
    GoOut,
    IllegalAction,
    LayDown,
    MeldSpec,
    PassBuy,
    SwapJoker,
    TakeDiscard,
)
from tui.engine.cards import parse_card
from tui.engine.game import Game
from tui.engine.meld_rules import make_meld
from tui.engine.ruleset.loader import load_ruleset_text
from tui.engine.scoring import winners
from tui.engine.view import RoundResult


def game(base: str, text: str = "", players: int = 3, seed: int = 1) -> Game:
    rules = load_ruleset_text(f"extends: {base}\n{text}", file="house.yaml")
    return Game(rules, [f"P{i}" for i in range(players)], seed)


def kinds(g: Game, seat: int) -> set[str]:
    return {a.kind for a in g.legal_actions(seat)}


# --- dealing -------------------------------------------------------------------------------


def test_cards_dealt_by_player_count() -> None:
    text = "rounds:\n  - {cards: [{players: 2, cards: 10}, {players: 3, cards: 7}]}\n"
    for players, dealt in ((2, 10), (3, 7), (4, 7)):
        g = game("three_thirteen", text, players)
        assert [len(h) for h in g.round.hands] == [dealt] * players
        assert f"deals {dealt} cards" in next(e.text for e in g.log if e.kind == "deal")


def _cut(g: Game) -> dict[str, int]:
    """The last cut for the deal: each name's card as a (rank, ace-as-1) number."""
    text = [e.text for e in g.log if e.text.startswith("Cutting for the deal")][-1]
    pairs = text.removeprefix("Cutting for the deal: ").rstrip(".").split(", ")
    return {name: parse_card(tok).rank for name, tok in (p.split(" ") for p in pairs)}


@pytest.mark.parametrize("how", ["low", "high"])
def test_first_dealer_by_high_card_and_how_aces_count(how: str) -> None:
    aces_seen = 0
    for seed in range(40):
        g = game("contract_rummy", f"dealer: highest_card\ndealer_ace: {how}\n", seed=seed)
        cut = _cut(g)
        worth = {n: (14 if r == 1 and how == "high" else r) for n, r in cut.items()}
        top = max(worth.values())
        assert worth[g.names[g.dealer]] == top
        assert [worth[n] for n in cut].count(top) == 1
        aces_seen += 1 in cut.values()
    assert aces_seen  # an ace was cut, and counted as the knob says


# --- the stock -----------------------------------------------------------------------------


def _empty_stock(g: Game, pile: str) -> None:
    """Seat 0 to play, one card in the stock, and the rest of the shoe in the pile."""
    hands = ["4C 9D KS 2H 7C 8D JH", "4D 9H KC 2S 7D 8H JS", "4H 9S KD 2C 7H 8S JC"]
    rig(g, hands, discard=pile, turn=0)
    st = g.round
    st.discard = st.stock[:-1] + st.discard  # all but one card go to the pile's bottom
    st.stock = st.stock[-1:]


@pytest.mark.parametrize("limit", ["2", "null"])
def test_unlimited_stock_rebuilds(limit: str) -> None:
    g = game("three_thirteen", f"stock: {{max_rebuilds: {limit}}}\n", 3)
    _empty_stock(g, "5C 6C")
    g.round.rebuilds = 500  # far past any limit the schema allows
    g.apply(DrawStock(0))
    g.apply(Discard(0, card(g, 0, "KS")))
    rebuilt = g.round.phase == "draw" and len(g.round.stock) > 0
    assert rebuilt == (limit == "null")
    g.check_conservation()


@pytest.mark.parametrize("how", ["shuffle", "turn_over"])
def test_turning_the_pile_over_without_shuffling(how: str) -> None:
    g = game("three_thirteen", f"stock: {{rebuild: {how}}}\n", 3)
    _empty_stock(g, "5C 6C")
    pile = list(g.round.discard)
    g.apply(DrawStock(0))
    g.apply(Discard(0, card(g, 0, "KS")))
    stock = g.round.stock
    assert sorted(c.uid for c in stock) == sorted(c.uid for c in pile)
    assert (stock == pile[::-1]) == (how == "turn_over")  # first discarded, first drawn


# --- drawing and buying --------------------------------------------------------------------

LIVERPOOL_HANDS = [
    "7C 7D 7H 9C 9D 9S 2H 4S 6D QC",
    "3C 3D 5H 8S JD KH 2C 4D 6S QS",
    "AC 5D 8H 10S JC KS 2D 4H 6C QH",
]


def _contract_down(text: str):
    """Liverpool (2 sets in deal 1): seat 0 lays its contract down on its first turn."""
    g = game("liverpool", text)
    rig(g, LIVERPOOL_HANDS, discard="10D", stock_top="KD 3H 5C 8C 10C", turn=0)
    g.apply(DrawStock(0))
    while g.phase == "buy":
        g.apply(PassBuy(g.actor))
    lay = next(a for a in g.legal_actions(0) if isinstance(a, LayDown))
    g.apply(lay)
    g.apply(Discard(0, card(g, 0, "QC")))
    return g


def test_stock_only_once_the_contract_is_down() -> None:
    usual, strict = _contract_down(""), _contract_down("draw: {stock_only_after_contract: true}\n")
    for g in (usual, strict):  # seats 1 and 2 pass over QC
        _play_out_turns(g, 2)
    assert "take_discard" in kinds(usual, 0)
    assert kinds(strict, 0) == {"draw_stock"}
    with pytest.raises(IllegalAction, match="stock only"):
        strict.apply(TakeDiscard(0, 0))


def test_no_buying_once_the_contract_is_down() -> None:
    usual, strict = _contract_down(""), _contract_down("buying: {after_contract: false}\n")
    for g in (usual, strict):
        _play_out_turns(g, 1)  # seat 1 draws and discards
        g.apply(DrawStock(2))  # seat 2 passes that card over: seat 0, whose contract is down,
    assert usual.round.buy_queue == [0]  # may buy it only under the usual rule
    assert strict.phase == "play" and not strict.round.buy_queue


def test_unlimited_buys() -> None:
    for limit, queued in (("3", [1]), ("null", [1, 2])):
        g = game("liverpool", f"buying: {{limit_per_deal: {limit}}}\n")
        rig(g, LIVERPOOL_HANDS, discard="10D", turn=0)
        g.round.buys = [0, 0, 7]
        g.apply(DrawStock(0))
        assert g.round.buy_queue == queued


def test_buying_priority_first_to_ask() -> None:
    nearest = game("liverpool")
    first = game("liverpool", "buying: {priority: first_to_ask}\n")
    for g in (nearest, first):
        rig(g, LIVERPOOL_HANDS, discard="10D", turn=0)
        g.apply(DrawStock(0))
        assert g.round.buy_queue == [1, 2] and g.actor == 1
    assert nearest.legal_actions(2) == []
    with pytest.raises(IllegalAction):
        nearest.apply(Buy(2))
    assert {a.kind for a in first.legal_actions(2)} == {"buy", "pass_buy"}
    first.apply(Buy(2))  # seat 2 asked first: the card is theirs
    assert any(c.face == (10, "D") for c in first.round.hands[2])
    assert first.phase == "play" and first.actor == 0


# --- joker swaps ---------------------------------------------------------------------------


def _swap_table(when: str, down: bool) -> tuple[Game, SwapJoker]:
    """Contract Rummy: seat 1's run 4S 5S JK(=6S) on the table; seat 0, holding 6S, draws."""
    g = game("contract_rummy", f"joker_swap: {{when: {when}, play_same_turn: false, "
             "contract_on_earlier_turn: false}\n")
    rig(g, ["6S 9C 9D 9H KC KD 2C 3D 4H 7C", "3C 3H 5H 8S JD KH 2D 4D 6D QS",
            "AC 5D 8H 10S JC KS 2H 4C 6C QH"], discard="10C", turn=0)
    st = g.round
    pieces = [next(c for c in st.stock if c.face == face) for face in ((4, "S"), (5, "S"))]
    joker = next(c for c in st.stock if c.is_joker)
    for c in (*pieces, joker):
        st.stock.remove(c)
    run = make_meld([*pieces, joker], g.rules, 1, {joker.uid: (6, "S")}).with_identity(1, 0)
    st.table.append(run)
    st.next_meld_id = 1
    st.contract_turn[1] = 0
    if down:
        st.contract_turn[0] = 0
    g.check_conservation()
    g.apply(DrawStock(0))
    return g, SwapJoker(0, 0, card(g, 0, "6S"))


@pytest.mark.parametrize(("when", "before", "after"), [
    ("after_contract", False, True), ("before_contract", True, False), ("any", True, True)])
def test_joker_swap_only_before_your_own_contract(when: str, before: bool, after: bool) -> None:
    for down, allowed in ((False, before), (True, after)):
        g, swap = _swap_table(when, down)
        assert (swap in g.legal_actions(0)) == allowed
        if allowed:
            g.apply(swap)
            assert any(c.is_joker for c in g.round.hands[0])
        else:
            with pytest.raises(IllegalAction, match="contract"):
                g.apply(swap)


# --- going out and scoring -----------------------------------------------------------------


def _three_thirteen_out(text: str) -> Game:
    """Round 1 of Three Thirteen (3s wild): seat 0 holds 5H 6H and AC, draws 7H."""
    g = game("three_thirteen", text)
    rig(g, ["5H 6H AC", "KS QS 9D", "KD QD 8C"], discard="JC", stock_top="7H 2D 2S",
        turn=0)
    g.apply(DrawStock(0))
    return g


def _round_two(limit: int) -> Game:
    """Round 2 of Three Thirteen (4s wild): seat 0 holds 5H 6H 7H AC and draws 2D."""
    g = game("three_thirteen", f"going_out: {{deadwood_limit: {limit}}}\n")
    goto_deal(g, 2)
    rig(g, ["5H 6H 7H AC", "KS QS 9D JD", "KD QD 8C JH"], discard="JC", stock_top="2D",
        turn=0)
    g.apply(DrawStock(0))
    return g


def test_going_out_under_a_laying_down_limit() -> None:
    assert "go_out" not in kinds(_round_two(0), 0)  # AC and 2D: one card too many
    g = _round_two(1)
    out = next(a for a in g.legal_actions(0) if isinstance(a, GoOut))
    assert out.discard is not None and out.discard.face == (2, "D")  # AC (1 point) kept
    keep_two = GoOut(0, out.melds, card(g, 0, "AC"))
    with pytest.raises(IllegalAction, match="at most 1 point"):
        g.apply(keep_two)  # 2D kept: 2 points
    g.apply(out)
    assert g.round.went_out == 0 and [str(c) for c in g.round.hands[0]] == ["AC"]
    _play_out(g)
    assert g.results[-1].points[0] == 1 and g.results[-1].deadwood[0] == tuple(g.round.hands[0])


def _play_out(g: Game) -> None:
    """Everyone else draws and discards their last card until the deal is scored."""
    while g.phase not in ("round_over", "game_over"):
        seat = g.actor
        g.apply(DrawStock(seat))
        g.apply(Discard(seat, g.round.hands[seat][-1]))


@pytest.mark.parametrize("collects", [False, True])
def test_out_player_collects(collects: bool) -> None:
    g = _three_thirteen_out(f"scoring: {{out_player_collects: {str(collects).lower()}}}\n")
    out = next(a for a in g.legal_actions(0) if isinstance(a, GoOut))
    g.apply(out)
    _play_out(g)
    result = g.results[-1]
    golf = [0] + [sum(g.rules.value(c.rank) for c in d) for d in result.deadwood[1:]]
    assert sum(golf) > 0
    if collects:
        assert result.points == (sum(golf), 0, 0)
    else:
        assert result.points == tuple(golf)


def test_a_bonus_for_going_out_in_one_turn() -> None:
    g = _three_thirteen_out("going_out: {bonus: -5, one_turn_bonus: -20}\n")
    g.apply(next(a for a in g.legal_actions(0) if isinstance(a, GoOut)))
    _play_out(g)
    assert g.results[-1].points[0] == -25  # declared all at once: always "in one turn"
    # melding during play: the whole hand laid down and discarded in one turn...
    for bonus in (0, -20):
        g = game("liverpool", f"going_out: {{one_turn_bonus: {bonus}}}\n")
        rig(g, ["7C 7D 7H 7S 7C 9C 9D 9H 9S 9C", *LIVERPOOL_HANDS[1:]], discard="10D",
            stock_top="KD", turn=0)
        g.apply(DrawStock(0))
        while g.phase == "buy":
            g.apply(PassBuy(g.actor))
        g.apply(next(a for a in g.legal_actions(0) if isinstance(a, LayDown)))
        g.apply(Discard(0, card(g, 0, "KD")))
        assert g.results[-1].points[0] == bonus
    # ...but not after a contract laid down on an earlier turn
    g = _contract_down("going_out: {one_turn_bonus: -20}\n")
    _play_out_turns(g, 2)
    st = g.round
    seven = next(c for c in st.stock if c.face == (7, "S"))
    st.stock.remove(seven)
    st.stock[:0] = st.hands[0]
    st.hands[0] = [seven]  # seat 0 now holds one card that fits its set of 7s
    g.apply(DrawStock(0))
    while g.phase == "buy":
        g.apply(PassBuy(g.actor))
    lay_off = next(a for a in g.legal_actions(0) if a.kind == "lay_off" and a.cards[0] is seven)
    g.apply(lay_off)
    g.apply(Discard(0, g.round.hands[0][0]))
    assert g.results[-1].went_out == 0 and g.results[-1].points[0] == 0


def _play_out_turns(g: Game, turns: int) -> None:
    for _ in range(turns):
        seat = g.actor
        g.apply(DrawStock(seat))
        while g.phase == "buy":
            g.apply(PassBuy(g.actor))
        g.apply(Discard(seat, g.round.hands[seat][-1]))


def test_tie_breaks() -> None:
    rules = game("three_thirteen").rules

    def results(*rows: tuple[tuple[int, ...], int]) -> list[RoundResult]:
        return [RoundResult(k + 1, pts, out, ((),) * 3, ((),) * 3)
                for k, (pts, out) in enumerate(rows)]

    played = results(((0, 5, 5), 0), ((10, 0, 5), 1), ((0, 5, 0), 0))
    totals = [10, 10, 10]
    assert winners(totals, rules, played) == (0, 1, 2)
    last = load_ruleset_text("extends: three_thirteen\nend: {tie_break: last_round}\n")
    assert winners(totals, last, played) == (2,)  # 0 last round with seat 0; 5 beats 10
    outs = load_ruleset_text("extends: three_thirteen\nend: {tie_break: most_outs}\n")
    assert winners(totals, outs, played) == (0,)  # went out twice
    assert winners([10, 10, 30], outs, results(((0, 5, 5), 0), ((5, 0, 5), 1))) == (0, 1)


def test_final_turns_draw_from_the_stock_only() -> None:
    for text, pile in (("", True), ("going_out: {final_turns_from_stock: true}\n", False)):
        g = _three_thirteen_out(text)
        g.apply(next(a for a in g.legal_actions(0) if isinstance(a, GoOut)))
        assert g.round.in_final_turns
        assert ("take_discard" in kinds(g, g.actor)) == pile


def test_laying_off_onto_a_run_of_mixed_suits() -> None:
    g = game("contract_rummy", "rounds:\n  - {cards: 7}\nmelds: {run: {same_suit: false}}\n")
    rig(g, ["8C 2D 2H KS QD JC 4S", "3C 3D 10H 10S AH AD 9S", "KC KD JD JS 4C 4D 2S"],
        discard="10C", turn=0)
    st = g.round
    pieces = [next(c for c in st.stock if c.face == face)
              for face in ((5, "H"), (6, "S"), (7, "D"))]
    for c in pieces:
        st.stock.remove(c)
    st.table.append(make_meld(pieces, g.rules, 1).with_identity(1, 0))
    st.next_meld_id = 1
    g.check_conservation()
    g.apply(DrawStock(0))
    offs = [a for a in g.legal_actions(0) if a.kind == "lay_off" and a.cards[0].face == (8, "C")]
    assert offs
    g.apply(offs[0])
    assert [str(c) for c in g.round.table[0].cards] == ["5H", "6S", "7D", "8C"]


def test_a_contract_with_a_pair_is_laid_down() -> None:
    g = game("liverpool", "rounds:\n  - {cards: 10, contract: {sets: [2], runs: [4]}}\n")
    rig(g, ["AC AD 5H 6H 7H 8H QS 2D 9C KD", *LIVERPOOL_HANDS[1:]], discard="10D",
        stock_top="4S", turn=0)
    g.apply(DrawStock(0))
    while g.phase == "buy":
        g.apply(PassBuy(g.actor))
    lay = next(a for a in g.legal_actions(0) if isinstance(a, LayDown))
    g.apply(lay)
    assert sorted(len(m.cards) for m in g.round.table) == [2, 4]
    pair = next(m for m in g.round.table if m.kind == "set")
    assert pair.rank == 1
    with pytest.raises(IllegalAction, match="at least 3 cards"):  # no pairs outside it
        g2 = game("liverpool", "rounds:\n  - {cards: 10}\n")
        rig(g2, ["AC AD 5H 6H 7H 8H QS 2D 9C KD", *LIVERPOOL_HANDS[1:]], discard="10D",
            stock_top="4S", turn=0)
        g2.apply(DrawStock(0))
        while g2.phase == "buy":
            g2.apply(PassBuy(g2.actor))
        g2.apply(LayDown(0, (MeldSpec((card(g2, 0, "AC"), card(g2, 0, "AD")), ()),)))


def test_a_contract_with_a_pair_of_aces_is_laid_down() -> None:
    text = "rounds:\n  - {cards: 10, contract: {sets: [{size: 2, rank: A}], runs: [4]}}\n"
    hand = "AC AD KC KD 5H 6H 7H 8H QS 2D"
    g = game("liverpool", text)
    rig(g, [hand, *LIVERPOOL_HANDS[1:]], discard="10D", stock_top="4S", turn=0)
    g.apply(DrawStock(0))
    while g.phase == "buy":
        g.apply(PassBuy(g.actor))
    run = MeldSpec(tuple(card(g, 0, c) for c in ("5H", "6H", "7H", "8H")), ())
    kings = LayDown(0, (MeldSpec((card(g, 0, "KC"), card(g, 0, "KD")), ()), run))
    before = g.view(0)
    with pytest.raises(IllegalAction, match="2 As"):
        g.apply(kings)
    assert g.view(0) == before
    lay = next(a for a in g.legal_actions(0) if isinstance(a, LayDown))
    g.apply(lay)
    assert next(m for m in g.round.table if m.kind == "set").rank == 1


# --- the bots under the knobs --------------------------------------------------------------

HOUSE_GAMES = {
    "mixed_suits": "extends: contract_rummy\nmelds: {run: {same_suit: false}}\n",
    "runs_3_to_k": "extends: liverpool\nmelds: {run: {lowest: 3, highest: K}}\n",
    "exact_sizes": "extends: liverpool\ncontract: {exact_size: true}\n",
    "buying_rules": "extends: liverpool\nbuying: {priority: first_to_ask, after_contract: false}"
                    "\ndraw: {stock_only_after_contract: true}\n",
    "swap_before": "extends: contract_rummy\njoker_swap: {when: before_contract}\n",
    "ratio_at_lay_down": "extends: contract_rummy\nmelds: {wilds_may_outnumber_naturals: false,"
                         " wild_ratio_on_lay_off: false}\n",
    "sizes_per_meld": "extends: liverpool\nrounds:\n  - {cards: 10, contract: {sets: [2], "
                      "runs: [4]}}\n  - {cards: 11, contract: {sets: [3, 4]}}\n",
    "pair_of_aces": "extends: liverpool\nrounds:\n  - {cards: 10, contract: {sets: [{size: 2, "
                    "rank: A}, 3]}}\n  - {cards: 10, contract: {sets: [{size: 3, rank: K}], "
                    "runs: 1}}\n",
    "limit_and_collect": "extends: three_thirteen\ngoing_out: {deadwood_limit: 3, "
                         "final_turns_from_stock: true}\nscoring: {out_player_collects: true}\n"
                         "stock: {rebuild: turn_over, max_rebuilds: null}\n",
}


@pytest.mark.parametrize("name", sorted(HOUSE_GAMES))
def test_medium_bots_play_house_games_to_the_end_and_go_out(name: str) -> None:
    """Legal is not enough: under each knob medium bots lay their contracts down and go
    out in most deals, with every card accounted for after every move."""
    rules = load_ruleset_text(HOUSE_GAMES[name], file="house.yaml")
    players = rules.players_min
    bots = [fast_bot("medium", s) for s in range(players)]
    g = play_out(Game(rules, [f"P{i}" for i in range(players)], 7), bots,
                 check_every_action=True, actions=20_000)
    assert g.phase == "game_over"
    assert 2 * sum(r.went_out >= 0 for r in g.results) >= len(g.results)
