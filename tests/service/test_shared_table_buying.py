"""Buying at a shared table: with `buying.priority: first_to_ask` the discard is offered to
every person still asked at once (each one's seat may claim it, the first claim wins);
with `nearest` only to the nearest of them, the others waiting their turn."""

from __future__ import annotations

import pytest
from table_rig import rig

from tui.engine.actions import Buy, DrawStock, IllegalAction
from tui.engine.ruleset.loader import load_ruleset_text
from tui.service.lobby import Lobby, LobbyConfig
from tui.service.seat_handle import SeatTable

HANDS = [
    "7C 7D 7H 9C 9D 9S 2H 4S 6D QC",
    "3C 3D 5H 8S JD KH 2C 4D 6S QS",
    "AC 5D 8H 10S JC KS 2D 4H 6C QH",
]


async def _three_people_offered_a_card(priority: str) -> tuple[Lobby, list[SeatTable]]:
    """alice, bob and carol at Liverpool; alice draws from the stock, so 10D is offered
    to bob (nearest) and carol."""
    rules = load_ruleset_text(f"extends: liverpool\nbuying: {{priority: {priority}}}\n",
                              key="house")
    config = LobbyConfig(bot_delay=0, grace=5, summary_pause=0, turn_timeout=None, seed=3)
    lob = Lobby(config, rules_loader=lambda key: rules)
    alice, bob, carol = (lob.enter(name) for name in ("alice", "bob", "carol"))
    handles = [alice.create("house", 3, "easy")]
    table_id = handles[0].shared.id
    handles += [bob.join(table_id), carol.join(table_id)]
    shared = lob.table(table_id)
    assert shared.status == "playing" and shared.table is not None
    assert [h.seat for h in handles] == [0, 1, 2]
    game = shared.table.game
    rig(game, HANDS, discard="10D", turn=0)
    seats = [handle.table() for handle in handles]
    seats[0].act(0, DrawStock(0))
    assert game.phase == "buy" and game.round.buy_queue == [1, 2] and game.actor == 1
    return lob, seats


@pytest.mark.parametrize("priority", ["nearest", "first_to_ask"])
async def test_the_buy_is_offered_to_every_person_asked_at_once_only_first_to_ask(
        priority: str) -> None:
    lob, (alice, bob, carol) = await _three_people_offered_a_card(priority)
    at_once = priority == "first_to_ask"
    assert bob.view().asked_to_buy
    assert carol.view().asked_to_buy is at_once
    assert not alice.view().asked_to_buy  # whoever drew is never asked
    if at_once:
        carol.act(2, Buy(2))  # carol asks first, before bob answers: the card is hers
        assert any(c.face == (10, "D") for c in carol.view().hand)
        assert not bob.view().asked_to_buy and bob.view().phase == "play"
    else:
        before = carol.view()
        with pytest.raises(IllegalAction):
            carol.act(2, Buy(2))
        assert carol.view().hand == before.hand and bob.view().asked_to_buy
    lob.close()
