"""Record files for sharing: export one game as JSON, read one back (and keep it)."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

from tui.atomic import write_atomic

from .record import GameRecord, RecordError
from .store import RecordStore

SUFFIX = ".rummy.json"


def export_name(record: GameRecord) -> str:
    """A file name that says what the game was: ``three-thirteen-2024-05-01-42.rummy.json``."""
    slug = re.sub(r"[^a-z0-9]+", "-", record.ruleset_name.lower()).strip("-") or "game"
    day = record.finished_at.astimezone().strftime("%Y-%m-%d")
    number = f"-{record.id}" if record.id is not None else ""
    return f"{slug}-{day}{number}{SUFFIX}"


def export_record(record: GameRecord, path: Path, replace_any: bool = False) -> Path:
    """Write the record as JSON (atomically); a folder gets a descriptive file name.

    Only a regular file is ever replaced: a symlink, a device or a pipe at `path` is refused
    (`RecordError`) unless `replace_any`, since the write would replace it, not write
    through it."""
    path = Path(path).expanduser()
    try:
        if path.is_dir():
            path = path / export_name(record)
        existing = path.lstat()
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise RecordError(f"cannot write {path}: {exc.strerror or exc}") from exc
    if existing is not None and not stat.S_ISREG(existing.st_mode) and not replace_any:
        raise RecordError(f"{path} is not a regular file ({_kind(existing.st_mode)}); "
                          "not replaced (--force replaces it)")
    try:
        write_atomic(path, json.dumps(record.to_json(), indent=1))
    except OSError as exc:
        raise RecordError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    return "not a plain file"


def export_to_folder(record: GameRecord, folder: Path) -> Path:
    """Write the record into `folder` (created if need be) under a descriptive name."""
    folder = Path(folder).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RecordError(f"cannot create {folder}: {exc.strerror or exc}") from exc
    return export_record(record, folder / export_name(record))


def read_record_file(path: Path) -> GameRecord:
    """Read and verify an exported record (`RecordError` saying what is wrong)."""
    path = Path(path).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise RecordError(f"cannot read {path}: {reason}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not a game record (bad JSON at line {exc.lineno}, "
                          f"column {exc.colno}: {exc.msg})") from exc
    try:
        return GameRecord.from_json(data)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from exc


def import_record_file(path: Path, store: RecordStore) -> tuple[int, bool]:
    """Keep an exported record in `store`: its number, and whether it was new."""
    record = read_record_file(path)
    before = store.count()
    record_id = store.add(record)
    return record_id, store.count() > before
