"""The private socket folders under /tmp: one left behind by a killed server is removed
when the next one starts; a running server's folder, or anything else, is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tui.net.socket_dirs import PID_FILE, private_socket_dir, remove_stale_socket_dirs


def folder(root: Path, name: str, pid: int | None = None, age: float = 0.0) -> Path:
    path = root / f"rummy-service-{name}"
    path.mkdir()
    (path / "service.sock").touch()
    if pid is not None:
        (path / PID_FILE).write_text(str(pid))
    if age:
        old = path.stat().st_mtime - age
        os.utime(path, (old, old))
    return path


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_folders_of_dead_services_go_and_live_ones_stay(tmp_path: Path) -> None:
    killed = folder(tmp_path, "killed", dead_pid())
    running = folder(tmp_path, "running", os.getpid())
    old_without_pid = folder(tmp_path, "old", age=3600)
    being_made = folder(tmp_path, "new")
    other = tmp_path / "rummy-other"
    other.mkdir()
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "rummy-service-link").symlink_to(target)

    assert sorted(remove_stale_socket_dirs(tmp_path)) == sorted([killed, old_without_pid])
    assert running.exists() and being_made.exists() and other.exists()
    assert target.exists() and (tmp_path / "rummy-service-link").is_symlink()


def test_a_new_folder_names_its_service_and_clears_the_leftovers(tmp_path: Path) -> None:
    killed = folder(tmp_path, "killed", dead_pid())
    made = private_socket_dir(tmp_path)
    assert not killed.exists()
    assert (made / PID_FILE).read_text() == str(os.getpid())
    assert made.stat().st_mode & 0o077 == 0
    assert remove_stale_socket_dirs(tmp_path) == []
