"""A name that looks like another player's - the same UTS #39 skeleton, such as Cyrillic
"а" (U+0430) for Latin "a" - is refused with a message naming the look-alike: in the
lobby now, owned by a key (even while its owner is away), or at a table."""

from __future__ import annotations

import pytest

from tui.service.identity import NameBook
from tui.service.lobby import Lobby, LobbyConfig, LobbyError
from tui.service.names import look_alike, skeleton

CYRILLIC_A = "\N{CYRILLIC SMALL LETTER A}"
GREEK_OMICRON = "\N{GREEK SMALL LETTER OMICRON}"


@pytest.mark.parametrize(("one", "other"), [
    ("alice", f"{CYRILLIC_A}lice"),
    ("bob", f"b{GREEK_OMICRON}b"),
    ("paypal", f"p{CYRILLIC_A}yp{CYRILLIC_A}l"),
    ("Iris", "lris"),  # capital I is drawn as l
    ("moe", "rnoe"),  # m is drawn as r n
    ("ann", "\N{FULLWIDTH LATIN SMALL LETTER A}nn"),
    ("zoë", "zoe\N{COMBINING DIAERESIS}"),  # the same letters, composed or not
])
def test_names_that_look_the_same_have_one_skeleton(one, other) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("alice", "alicia"), ("bob", "rob"),
                                            ("ann", "anna"), ("zoë", "zoe")])
def test_names_that_look_different_do_not(one, other) -> None:
    assert skeleton(one) != skeleton(other)


def test_the_same_name_in_another_case_is_not_a_look_alike() -> None:
    assert look_alike("ALICE", ["alice"]) is None
    assert look_alike(f"{CYRILLIC_A}lice", ["bob", "alice"]) == "alice"


def test_a_look_alike_of_a_player_in_the_lobby_is_refused_naming_them() -> None:
    lobby = Lobby(LobbyConfig())
    lobby.enter("alice")
    with pytest.raises(LobbyError) as refused:
        lobby.enter(f"{CYRILLIC_A}lice")
    assert str(refused.value) == (f"The name {CYRILLIC_A}lice looks like alice, another "
                                  "player's name: connect under a name of your own.")
    assert [g.name for g in lobby.guests] == ["alice"]  # nothing changed
    lobby.enter("alicia")  # a different name is welcome


def test_a_look_alike_of_a_name_a_key_owns_is_refused_while_its_owner_is_away() -> None:
    lobby = Lobby(LobbyConfig(), names=NameBook())
    lobby.enter("bob", key="SHA256:bob").close()
    assert lobby.guests == []
    with pytest.raises(LobbyError, match="looks like bob"):
        lobby.enter(f"b{GREEK_OMICRON}b", key="SHA256:mallory")


async def test_a_look_alike_of_a_player_at_a_table_is_refused() -> None:
    lobby = Lobby(LobbyConfig())
    host = lobby.enter("carol")
    host.create("three_thirteen", 2, "random")
    host.close()  # carol's seat at the waiting table goes with her; now seat someone
    dave = lobby.enter("dave")
    shared = dave.create("three_thirteen", 2, "random").shared
    dave.start()
    dave.close()  # dave is away: his chair is kept for him
    assert shared.seats[0].person == "dave"
    with pytest.raises(LobbyError, match="looks like dave"):
        lobby.enter(f"d{CYRILLIC_A}ve")
