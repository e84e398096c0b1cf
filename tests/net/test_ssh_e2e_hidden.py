"""No session ever sees another player's hand: every screen of a whole deal, checked.

Two people play a deal by keys at a table with bots while a third person watches.  After
every piece of output any of them receives, their screen (as a terminal emulator shows
it) and the raw bytes themselves are searched for every card that is, at that moment, in
someone else's hand and has never been public, in each way the app writes a card (`7♥`,
`10♥`/`T♥` in the fan, `7H` in the log).

Why the check is sound: the server runs in this process, so when output reaches a client
the table's state is the state at that instant, and every screen shows a state no newer.
A card a viewer may legitimately show was, when drawn, either public (turned up,
discarded, taken, melded, named in the log) or in the viewer's own hand - both recorded
at every change of the table, by face, so a twin from another deck in the viewer's own
hand never counts as a leak (nor does the face a wild card is declared to stand for in a
meld, written `3D=10S`).  The check stops at the end of the deal, when the summary
shows every hand to everyone.  As a control, each player's own secret cards must be
found on their own screen by the same search, so a search that could never match fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ssh_room import IN_PLAY, arrive, create_table, open_room, play_until, until

from tui.engine.cards import RANK_NAMES, SUIT_SYMBOLS, Card
from tui.net.testing import TerminalClient
from tui.service.shared_table import SharedTable

Face = tuple[int, str]
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]")
# `3♦★10♠` (`3D*10S` in ASCII, `3D=10S` in the log): a wild card and the face it stands for
# in a meld - a declaration, not a card.
DECLARED = re.compile(r"[=★*]\x00*(?:10|[2-9AJQKT])\x00*[CDHS♣♦♥♠]?")
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQKT])([CDHS])(?![A-Za-z0-9])")



def faces(cards: Iterable[Card]) -> set[Face]:
    return {c.face for c in cards if not c.is_joker}


def face_pattern(face: Face) -> re.Pattern[str]:
    """Every way a card is written on screen: `7♥` (`10♥`, `T♥`) and `7H` as a word."""
    rank, suit = face
    names = [RANK_NAMES[rank]] + (["T"] if rank == 10 else [])
    forms = [re.escape(n + SUIT_SYMBOLS[suit]) for n in names]
    forms += [rf"(?<![A-Za-z0-9]){n}{suit}(?![A-Za-z0-9])" for n in names]
    return re.compile("|".join(forms))


PATTERNS = {(rank, suit): face_pattern((rank, suit)) for rank in RANK_NAMES for suit in "CDHS"}


class HandWatch:
    """What each viewer must not see, kept up to date at every change of the table."""

    def __init__(self, shared: SharedTable) -> None:
        assert shared.table is not None
        self.table = shared.table
        self.public: set[Face] = set()
        self.held: dict[int, set[Face]] = {}
        self.active = True
        self.update()
        self.table.subscribe(self.update)

    def update(self) -> None:
        game = self.table.game
        state = game.round
        if game.phase not in IN_PLAY:
            self.active = False  # the summary shows every hand to everyone
        for seat, hand in enumerate(state.hands):
            self.held.setdefault(seat, set()).update(faces(hand))
        self.public |= faces(state.discard)
        for meld in state.table:
            self.public |= faces(meld.cards)
        if state.buy_offer is not None:
            self.public |= faces([state.buy_offer])
        for event in game.log:
            self.public |= faces(event.cards)
            if event.kind == "dealer":  # cards cut for the deal, named in the text
                self.public |= {(next(r for r, n in RANK_NAMES.items() if n == m[0]
                                      or (m[0] == "T" and r == 10)), m[1])
                                for m in CARD_TOKEN.findall(event.text)}

    def secret(self, seat: int) -> set[Face]:
        return faces(self.table.game.round.hands[seat]) - self.public

    def hidden_from(self, viewer: int) -> set[Face]:
        others: set[Face] = set()
        for seat, hand in enumerate(self.table.game.round.hands):
            if seat != viewer:
                others |= faces(hand)
        return others - self.public - self.held.get(viewer, set())


class Watched(TerminalClient):
    """A player's terminal that has every piece of output checked as it arrives."""

    watch: HandWatch | None = None
    viewer: int | None = None
    leaks: list[str]
    checked: int
    saw_own_hand: int

    def _received(self, data: bytes, datatype: object) -> None:
        super()._received(data, datatype)
        watch = self.watch
        if watch is None or self.viewer is None or not watch.active or datatype:
            return
        screen = DECLARED.sub("=\x00", self.text)
        raw = DECLARED.sub("=\x00", ESCAPES.sub("\x00", data.decode("utf-8", errors="replace")))
        for face in watch.hidden_from(self.viewer):
            pattern = PATTERNS[face]
            for where, text in (("screen", screen), ("output", raw)):
                found = pattern.search(text)
                if found:
                    self.leaks.append(f"seat {self.viewer} {where} shows {face}: "
                                      f"{text[max(0, found.start() - 30):found.end() + 30]!r}")
        self.checked += 1
        if self.viewer >= 0:
            secret = watch.secret(self.viewer)
            if secret and all(PATTERNS[face].search(screen) for face in secret):
                self.saw_own_hand += 1


async def test_no_screen_ever_shows_a_card_of_another_players_hand():
    room = await open_room()
    clients: list[Watched] = []
    try:
        alice = await arrive(room.port, "alice", client_class=Watched)
        bob = await arrive(room.port, "bob", client_class=Watched)
        carol = await arrive(room.port, "carol", client_class=Watched)
        clients = [alice, bob, carol]
        for client in clients:
            client.leaks, client.checked, client.saw_own_hand = [], 0, 0
        await create_table(alice, "Three Thirteen", 4, "medium")
        await bob.wait_for("alice, ")
        bob.send("j")
        await alice.wait_until(lambda: "alice, bob" in alice.text)

        # Watch from the very moment the game is dealt (before any screen can show it).
        watches: list[HandWatch] = []

        def dealt() -> None:
            for shared in room.lobby.tables:
                if shared.table is not None and not watches:
                    watch = HandWatch(shared)
                    watches.append(watch)
                    for client, viewer in ((alice, 0), (bob, 1), (carol, -1)):
                        client.watch, client.viewer = watch, viewer

        room.lobby.subscribe(dealt)
        alice.send("s")
        await until(lambda: bool(watches), what="the deal")
        [shared] = room.lobby.tables
        assert [s.person for s in shared.seats] == ["alice", "bob", None, None]
        await carol.wait_for("playing")
        carol.send("w")
        await carol.wait_for("Deal 1 of 11")

        game = shared.table.game
        await play_until(shared, {0: alice, 1: bob}, lambda: game.phase not in IN_PLAY,
                         timeout=90)
        assert not watches[0].active
        await alice.wait_for("— over")  # the deal was played to its end

        leaks = [leak for client in clients for leak in client.leaks]
        assert not leaks, "\n".join(leaks[:20])
        assert len(game.history) >= 8
        for client in clients:
            assert client.checked >= 5, client.checked
        # Control: the same search finds each player's own secret cards on their screen.
        assert alice.saw_own_hand > 0 and bob.saw_own_hand > 0
    finally:
        for client in clients:
            client.abort()
        await room.close()
