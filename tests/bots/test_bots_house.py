"""Every level plays house rules too: whatever the YAML turns, the bots stay legal."""

from __future__ import annotations

import pytest
from table_rig import fast_bot

from tui.bots.arena import play_game
from tui.engine.ruleset.loader import load_ruleset_text

HOUSE = {
    "free melding, no contracts": """
        extends: contract_rummy
        name: Free melding
        rounds:
          - {cards: 7}
          - {cards: 9}
        """,
    "three thirteen to a point limit": """
        extends: three_thirteen
        name: To forty
        rounds:
          - {cards: 5, wild: [5]}
          - {cards: 7, wild: [7]}
        end: {point_limit: 40, max_rounds: 6}
        """,
    "highest total wins, discard optional": """
        extends: three_thirteen
        name: Upside down
        rounds:
          - {cards: 6, wild: [6]}
          - {cards: 9, wild: [9]}
        going_out: {discard: optional}
        end: {winner: highest}
        """,
    "contracts with final turns, buying and own lay-offs": """
        extends: contract_rummy
        name: Odd contracts
        rounds:
          - {cards: 10, contract: {sets: 2}}
          - {cards: 10, contract: {sets: 1, runs: 1}}
        going_out: {final_turns: true, discard: required}
        buying: {enabled: true, penalty_cards: 2, limit_per_deal: 1}
        draw: {discard: top, no_immediate_rediscard: false}
        lay_off: {when: after_contract_turn, onto: own}
        """,
    "stock only, no discard pile draws": """
        extends: three_thirteen
        name: Blind
        rounds:
          - {cards: 4, wild: [4]}
          - {cards: 8, wild: [8]}
        draw: {discard: none}
        """,
}


@pytest.mark.parametrize("name", sorted(HOUSE))
def test_every_level_plays_house_rules_to_the_end(name: str) -> None:
    rules = load_ruleset_text(HOUSE[name], file=f"{name}.yaml")
    players = max(rules.players_min, 3)
    for seed, line_up in enumerate((["easy", "medium", "hard"], ["hard", "easy", "medium"])):
        bots = [fast_bot(line_up[i % len(line_up)], seed * 10 + i)
                for i in range(players)]
        game = play_game(rules, bots, seed)
        assert game.phase == "game_over"
        game.check_conservation()
