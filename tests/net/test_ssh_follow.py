"""Players follow the game over real SSH: a player who leaves the deal's summary up is
brought to the table when the next deal starts (the others, or the timeout, start it),
never left on a deal that is over while the stand-in bot plays their turns."""

from __future__ import annotations

import dataclasses

from ssh_room import FAST, arrive, create_table, open_room, until


async def test_a_player_left_on_the_summary_is_brought_to_the_next_deal() -> None:
    # nobody moves: every turn of alice's is played by the stand-in after its timeout,
    # and the next deal starts when the summary has been up long enough
    room = await open_room(dataclasses.replace(FAST, turn_timeout=0.2, summary_timeout=1.0))
    try:
        alice = await arrive(room.port, "alice")
        await create_table(alice, "Three Thirteen", 2, "easy")
        alice.send("s")
        await alice.wait_for("Deal 1 of 11")
        [shared] = room.lobby.tables
        await alice.wait_until(lambda: "Deal 1 of 11" in alice.text
                               and "wild — over" in alice.text, timeout=60)
        await until(lambda: shared.table is not None and shared.table.game.round.number >= 2,
                    timeout=60, what="the second deal")
        await alice.wait_until(lambda: "Deal 2 of 11" in alice.text, timeout=20)
        assert "wild — over" not in alice.text and "a Arrange" in alice.text  # the table
    finally:
        await room.close()
