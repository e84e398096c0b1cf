"""What the table tells the player must be right: one card notation everywhere, hints that
do not outlive the move they were for, jokers that say what they stand for, buys left."""

from __future__ import annotations

from app_driver import HUMAN, at_table, make_env, rigged_app, table_screen, view, wait_until
from rich.text import Text
from textual.widgets import Static

from tui.app.app import RummyApp
from tui.app.cardart import CardStyle, card_words
from tui.app.screens.table import TableScreen
from tui.app.widgets.melds import meld_text
from tui.app.widgets.piles import DiscardPile
from tui.engine.cards import parse_card, parse_cards
from tui.engine.meld_rules import make_meld
from tui.engine.ruleset.loader import load_ruleset


def test_card_words_write_cards_as_the_table_does_and_leave_names_alone() -> None:
    line = "QS took QC and TS from the pile; 10H, AS."
    assert card_words(line, CardStyle(), keep=["QS"]) == (
        "QS took Q♣ and 10♠ from the pile; 10♥, A♠.")
    assert card_words(line, CardStyle(ascii=True), keep=["QS"]) == (
        "QS took QC and 10S from the pile; 10H, AS.")
    assert card_words("KCX 2CD draw", CardStyle()) == "KCX 2CD draw"  # not cards


def test_a_joker_on_the_table_shows_what_it_stands_for() -> None:
    rules = load_ruleset("contract_rummy")
    run = make_meld(parse_cards("5H 6H JK"), rules, 1)
    group = make_meld(parse_cards("7H 7S JK"), rules, 1)
    assert meld_text(run, CardStyle(), 60).plain == "5♥ 6♥ JK★7♥"
    assert meld_text(group, CardStyle(), 60).plain == "7♥ 7♠ JK★7"
    assert meld_text(run, CardStyle(ascii=True), 60).plain == "5H 6H JK*7H"


def test_a_joker_standing_for_a_high_ace_reads_as_the_ace() -> None:
    """Q-K-JK in a game where aces are high: the joker is the ace above the king (run place
    14), which once crashed the table screen."""
    rules = load_ruleset("contract_rummy")
    queen, king, joker = (parse_card(token, uid) for uid, token in enumerate(["QH", "KH", "JK"]))
    run = make_meld([queen, king, joker], rules, 1, {joker.uid: (14, "H")})
    assert meld_text(run, CardStyle(), 60).plain == "Q♥ K♥ JK★A♥"


def _five_of_hearts_on_the_pile() -> RummyApp:
    """Tess to draw, the 5♥ on top of the discard pile (the 10♦ and Q♠ below)."""
    return rigged_app("contract_rummy", ["7H 7S 9D 9C 9S 4H 5D 6S JC KC",
                                         "2C 3C 4C 8D 8S 8H JD QD KD 10C",
                                         "5S 6D JK 2D 3D 4D AH AS 10H 10S"],
                      5, discard="QS 10D 5H", stock_top="8C")


async def test_log_pile_and_hand_use_one_notation(tmp_path) -> None:
    app = _five_of_hearts_on_the_pile()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.press("t")  # take the 5♥ (nothing deeper can be taken: at once)
        await pilot.pause()
        await pilot.press("home", "d")  # discard the first card of the hand
        await pilot.pause()
        screen = table_screen(app)
        log = str(screen.query_one("#log").render()).replace("\n", "")  # lines wrap
        assert "took 5♥" in log and "5H" not in log
        pile = "\n".join(line.plain for line in screen.query_one(DiscardPile).render().split())
        assert "10♦" in pile and "T♦" not in pile


async def test_a_hint_shows_in_the_prompt_and_goes_with_the_next_move(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "contract_rummy", players=3, seed=4, drive_bots=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        table = table_screen(app).table
        while table.bot_to_move() is not None:
            table.step_bot()
        await pilot.pause()
        expected = card_words(table.hint(HUMAN), CardStyle(), [p.name for p in view(app).players])
        prompt = table_screen(app).query_one("#prompt", Static)
        for _ in range(2):  # asked twice: still one hint
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert str(prompt.render()) == f"Hint: {expected}"
        assert not [n for n in app._notifications if n.title == "Hint"]  # no box over the table
        await pilot.press("s")  # a move: the hint is gone
        await pilot.pause()
        assert not str(prompt.render()).startswith("Hint")


async def test_a_hint_longer_than_the_prompt_shows_whole_at_80x24(tmp_path) -> None:
    """The prompt has two lines; a hint that needs more takes them from the log below it
    while it shows, and gives them back with the next move."""
    from app_driver import screen_text
    from rich.text import Text

    app = RummyApp(make_env(tmp_path, "contract_rummy", players=4, seed=3, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        table = screen.table
        prompt = screen.query_one("#prompt", Static)
        long_hints = 0
        for _ in range(8):  # turns, until hints that need more than two lines were seen
            while table.bot_to_move() is not None:
                table.step_bot()
            await wait_until(pilot, lambda: screen.caught_up)
            await pilot.pause()
            assert prompt.region.height == 2
            words = card_words(table.hint(HUMAN), CardStyle(), [p.name for p in view(app).players])
            await pilot.press("h")
            hint = f"Hint: {words}"
            await wait_until(pilot, lambda: str(prompt.render()) == hint)  # noqa: B023
            needs = len(Text(hint).wrap(app.console, prompt.content_size.width))
            await wait_until(pilot, lambda: prompt.region.height >= needs)  # noqa: B023
            region = prompt.region
            rows = screen_text(app).splitlines()[region.y:region.bottom]
            shown = " ".join(row[region.x:region.right].strip() for row in rows)
            assert shown == hint, (needs, rows)
            long_hints += needs > 2
            if long_hints >= 2:
                break
            await pilot.press("s" if view(app).phase == "draw" else "d")
            await wait_until(pilot, lambda: not str(prompt.render()).startswith("Hint"))
        assert long_hints >= 2, "no hint needed more than the prompt's two lines"


async def test_buys_left_are_shown_where_buying_is_on(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "liverpool", players=3, seed=8, drive_bots=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.pause()
        screen = table_screen(app)
        limit = screen.table.rules.buying.limit_per_deal
        assert f"{limit} buys left" in str(screen.query_one("#me").border_title)
        info = str(screen.query_one("#seat-1").render())
        assert f"{limit} buys left" in info
    (tmp_path / "b").mkdir()
    other = RummyApp(make_env(tmp_path / "b", "contract_rummy", players=3, seed=8,
                              drive_bots=False))
    async with other.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(other.screen, TableScreen))
        assert "buy" not in str(table_screen(other).query_one("#me").border_title)


async def test_penalty_now_is_what_the_rules_would_score() -> None:
    """Contract games score every card left in hand, melds in it and all."""
    app = rigged_app("contract_rummy", ["7H 7S 7D 9C 9D 9S 4H 5H 7C KC",
                                        "2C 3C 4C 8D 8S 8H JD QD KD 10C",
                                        "5S 6S JK 2D 3D 4D AH AS 10H 10S"], 5, discard="QS")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await app.workers.wait_for_complete()
        await pilot.pause()
        title = str(table_screen(app).query_one("#me").border_title)
        assert "penalty now 74" in title, title  # 7+7+7+7 + 9+9+9 + 4+5+10


async def test_notes_never_pile_up(tmp_path) -> None:
    app = RummyApp(make_env(tmp_path, "liverpool", players=3, seed=8, drive_bots=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        table = table_screen(app).table
        while not (view(app).my_turn and view(app).phase == "draw"):
            if view(app).my_turn:
                table.act(HUMAN, next(a for a in view(app).legal if a.kind == "pass_buy"))
            else:
                table.step_bot()
        await pilot.pause()
        await pilot.press("d")  # not yet: draw first
        await pilot.press("w")  # nothing to swap
        await pilot.pause()
        notes = list(app._notifications)
        assert len(notes) == 1 and "swap" in notes[0].message.lower(), notes


async def test_a_hint_says_it_is_thinking_at_once_then_marks_its_card(tmp_path) -> None:
    """Issue 33: the hint key said nothing for up to seconds while it thought, then only
    wrote "discard 10♠ …" with 13-15 cards in hand.  Now "Thinking…" shows at once, and
    the answer marks the card it names and puts the cursor on it (or marks the pile it
    says to draw from)."""
    import threading

    from tui.app.widgets.piles import StockPile

    app = RummyApp(make_env(tmp_path, "contract_rummy", players=3, seed=4, drive_bots=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        screen = table_screen(app)
        table = screen.table
        while table.bot_to_move() is not None:
            table.step_bot()
        await wait_until(pilot, lambda: at_table(app) and view(app).phase == "draw")
        go = threading.Event()
        real = table.hint
        answers: list[str] = []

        def slow_hint(seat: int) -> str:
            go.wait(30)
            answers.append(real(seat))
            return answers[-1]

        table.hint = slow_hint  # type: ignore[method-assign]
        prompt = screen.query_one("#prompt", Static)
        await pilot.press("h")
        await wait_until(pilot, lambda: "Thinking" in str(prompt.render()))
        go.set()
        await wait_until(pilot, lambda: bool(answers) and "Thinking" not in str(prompt.render()))
        await pilot.pause()
        pile = "stock" if "draw from the stock" in answers[0] else "discard"
        marked = screen.query_one(StockPile if pile == "stock" else DiscardPile)
        assert marked.has_class("-hinted"), answers[0]
        await pilot.press("s")  # a move: the mark goes with the hint
        await wait_until(pilot, lambda: at_table(app) and view(app).phase == "play")
        assert not screen.query_one(StockPile).has_class("-hinted")
        await pilot.press("h")
        await wait_until(pilot, lambda: len(answers) == 2 and bool(screen.hand.hinted))
        named = [c for c in parse_cards(" ".join(
            t for t in answers[1].split(":")[0].replace(",", " ").split()
            if t[:-1] in {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
            and t[-1] in "CDHS"))]
        assert named, answers[1]
        cursor = screen.hand.cursor_card
        assert cursor is not None and cursor.uid in screen.hand.hinted
        assert cursor.face in {c.face for c in named}


async def test_t_takes_the_top_card_at_once_when_nothing_deeper_can_be_taken(tmp_path) -> None:
    """Issue 33: in contract games `t` always opened "Take from the discard pile", even
    with the top card the only choice."""
    from tui.app.screens.pickers import PickScreen

    app = _five_of_hearts_on_the_pile()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: at_table(app))
        await pilot.press("t")
        await wait_until(pilot, lambda: at_table(app) and view(app).phase == "play")
        assert not isinstance(app.screen, PickScreen)
        assert "5H" in [str(c) for c in view(app).hand]


async def test_a_long_take_dialog_fits_80x24_with_its_keys_in_sight(tmp_path) -> None:
    """Issue 33: with many depths the take dialog was taller than 80×24 and its
    instructions scrolled out of view: the list scrolls instead, title and keys stay."""
    from tui.app.cardart import chips
    from tui.app.screens.pickers import PickScreen

    pile = parse_cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D 10D JD")
    picker = PickScreen("Take from the discard pile", [
        (depth, Text(f"{depth + 1} cards: ").append_text(
            chips(pile[len(pile) - 1 - depth:], CardStyle())))
        for depth in range(len(pile))])

    app = RummyApp(make_env(tmp_path, rules=None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(picker)
        await wait_until(pilot, lambda: app.screen is picker)
        await pilot.pause()
        inside = picker.query_one(".dialog").content_region
        for part in (".dialog-title", ".dialog-help"):
            region = picker.query_one(part).region
            assert region.height >= 1 and inside.contains_region(region), (part, region, inside)
