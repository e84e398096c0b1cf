"""`rummy replay ID|FILE`: step through a recorded game (or export / import it)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="ID|FILE",
                        help="a recorded game's number (see `rummy stats`), `last`, or an "
                             "exported .rummy.json file")
    parser.add_argument("--export", metavar="PATH", type=Path,
                        help="write the game as a JSON file (or into this folder) and exit")
    parser.add_argument("--force", action="store_true",
                        help="with --export: replace PATH even if it is not a regular file "
                             "(a symlink, a device)")
    parser.add_argument("--import", dest="do_import", action="store_true",
                        help="keep the game from FILE in your records and exit")
    parser.add_argument("--print", dest="do_print", action="store_true",
                        help="print the game move by move instead of opening the viewer")
    parser.add_argument("--ascii", action="store_true", help="plain ASCII cards")


def run(args: argparse.Namespace) -> int:
    from tui.records.record import RecordError
    from tui.records.store import RecordNotFound, RecordsUnavailable

    try:
        record = _find(args.game)
        if args.do_import:
            return _import(record)
        if args.export is not None:
            from tui.records.exchange import export_record

            path = export_record(record, args.export, replace_any=args.force)
            print(f"Game {_name(record)} exported to {path}")
            return 0
        from tui.records.replay import Replay

        replay = Replay(record)
    except (RecordError, RecordNotFound, RecordsUnavailable) as exc:
        print(f"rummy replay: {exc}", file=sys.stderr)
        return 1
    if args.do_print:
        _print(replay)
        return 0
    from tui.app.cardart import CardStyle
    from tui.app.screens.replay import ReplayApp
    from tui.app.terminal_caps import local_terminal

    terminal = local_terminal()
    if terminal is not None and not terminal.full_screen:
        print(terminal.refusal, file=sys.stderr)
        return 1
    plain = args.ascii or (terminal is not None and not terminal.unicode)
    ReplayApp(record, CardStyle(ascii=plain)).run()
    return 0


def _find(game: str):  # noqa: ANN202 - a GameRecord
    from tui.records.exchange import read_record_file
    from tui.records.record import RecordError
    from tui.records.recorder import default_store
    from tui.records.store import RecordNotFound

    text = game.strip().lstrip("#")
    if (text.isascii() and text.isdigit()) or text == "last":
        store = default_store()
        record_id = store.latest_id() if text == "last" else int(text)
        if record_id is None:
            raise RecordError("there are no recorded games yet")
        notice = store.pop_notice()
        if notice:
            print(f"rummy replay: {notice}", file=sys.stderr)
        try:
            return store.get(record_id)
        except RecordNotFound as exc:
            raise RecordError(f"{exc} (`rummy stats` lists them)") from None
    path = Path(game).expanduser()
    try:
        found = path.is_file()
    except OSError:  # e.g. longer than the file system allows
        found = False
    if not found:
        shown = game if len(game) <= 60 else game[:57] + "..."
        raise RecordError(f"{shown!r} is neither a recorded game's number nor a file")
    return read_record_file(path)


def _import(record) -> int:  # noqa: ANN001 - a GameRecord
    from tui.records.recorder import default_store

    store = default_store()
    before = store.count()
    record_id = store.add(record)
    if store.count() > before:
        print(f"Imported as game #{record_id}.")
    else:
        print(f"This game is already in your records (#{record_id}).")
    return 0


def _name(record) -> str:  # noqa: ANN001 - a GameRecord
    return f"#{record.id}" if record.id is not None else f"of {record.ruleset_name}"


def _print(replay) -> None:  # noqa: ANN001 - a Replay
    rec = replay.record
    print(f"{rec.ruleset_name}: {', '.join(s.label for s in rec.seats)}; seed {rec.seed}")
    frame = replay.start()
    while True:
        for event in frame.events:
            print(f"{frame.index:>5}  {event.text}")
        if frame.at_end:
            break
        frame = replay.forward()
    totals = ", ".join(f"{n} {t}" for n, t in zip(frame.names, frame.totals, strict=True))
    print(f"Final totals: {totals} (as recorded)")
