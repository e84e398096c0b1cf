"""Every terminal gets a table it can show, over real SSH on 127.0.0.1: a terminal
without UTF-8 (vt100, linux, or a C locale sent by the client) is sent ASCII only, a
16-colour one 16 colours, and `TERM=dumb` a one-line explanation and a non-zero exit
status instead of escape codes."""

from __future__ import annotations

import re

import pytest
from ssh_room import arrive, create_table, join_and_deal

from tui.net.testing import TerminalClient

ESCAPE = re.compile(rb"\x1b")
# 24-bit (38;2 / 48;2) and 256-colour (38;5 / 48;5) SGR parameters
DEEP_COLOUR = re.compile(rb"\x1b\[[0-9;]*[34]8;[25];")


def non_ascii(text: str) -> set[str]:
    return {ch for ch in text if not ch.isascii()}


async def seated_at_table(room, name: str, **options) -> TerminalClient:  # noqa: ANN001, ANN003
    """`name` (with `options` for its terminal) joins a table an xterm player made, and
    the game starts: returns `name`'s terminal once it shows the deal."""
    host = await arrive(room.port, "host")
    await create_table(host, "Three Thirteen", 3, "medium")
    guest = await arrive(room.port, name, **options)
    await join_and_deal(host, "host", guest, name)
    return guest


@pytest.mark.parametrize("term, env", [("vt100", {}), ("linux", {}),
                                       ("xterm-256color", {"LANG": "C"}),
                                       ("xterm-256color", {"LC_ALL": "POSIX",
                                                           "LANG": "en_US.UTF-8"})])
async def test_a_terminal_without_utf8_is_sent_ascii_only_and_cards_as_letters(
        room, term, env):
    guest = await seated_at_table(room, "vic", term_type=term, env=env)
    await guest.wait_until(lambda: "+---+" in guest.text and "? Help" in guest.text)
    screen = guest.text
    assert non_ascii(screen) == set(), screen
    assert not non_ascii(guest.output.decode("utf-8", errors="replace"))
    assert re.search(r"\b(10|[2-9JQKA])[CDHS]\b", screen), screen  # cards as `10H`, `QS`
    assert "| vic" not in screen  # (the hand is titled by name)


async def test_the_lobby_and_the_settings_of_a_plain_terminal_are_ascii(room):
    vic = await arrive(room.port, "vic", term_type="vt220", env={"LANG": "C"})
    assert non_ascii(vic.text) == set(), vic.text
    vic.send("o")
    await vic.wait_for("Bot speed")
    assert "plain letters" in vic.text  # the card style the terminal starts with
    assert non_ascii(vic.output.decode("utf-8", errors="replace")) == set()


async def test_a_utf8_terminal_keeps_its_suit_symbols(room):
    guest = await seated_at_table(room, "uma", term_type="xterm-256color",
                                  env={"LANG": "en_GB.UTF-8"})
    await guest.wait_until(lambda: "╰───╯" in guest.text)
    assert non_ascii(guest.text) & set("♣♦♥♠")


async def test_a_16_colour_terminal_gets_16_colours(room):
    vic = await arrive(room.port, "vic", term_type="vt100")
    assert not DEEP_COLOUR.search(vic.output)
    assert re.search(rb"\x1b\[[0-9;]*(3[0-7]|4[0-7]|9[0-7]|10[0-7])m", bytes(vic.output))
    ada = await arrive(room.port, "ada", term_type="xterm-256color")
    assert DEEP_COLOUR.search(ada.output)  # (the same screens, deeper colours)


@pytest.mark.parametrize("term", ["dumb", "unknown"])
async def test_a_dumb_terminal_gets_one_line_and_a_failing_exit_status(room, term):
    client = await TerminalClient.connect(room.port, username="dee", term_type=term)
    await client.wait_closed()
    assert not ESCAPE.search(client.output), client.output
    said = client.output.decode().strip()
    assert said.count("\n") == 0 and f"TERM={term}" in said and "full-screen" in said
    assert client.exit_status not in (None, 0)
    assert room.lobby.guests == []  # never entered the lobby
