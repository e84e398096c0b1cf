"""What the SSH benches share: the server runs in a child process (so its memory and CPU
are its own), started as `<bench script> --child` and spoken to one line at a time."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def rss_kib(pid: int | str = "self") -> int:
    """A process's resident memory (this one by default), from /proc; 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int | None = None) -> float:
    """CPU seconds (user + system) of this process, or of process `pid` (from /proc)."""
    if pid is None:
        times = os.times()
        return times.user + times.system
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def live_apps() -> int:
    """Textual apps still in memory (0 once every player has left)."""
    from textual.app import App

    gc.collect()
    return sum(isinstance(obj, App) for obj in gc.get_objects())


class ServerProcess:
    """The child: its first line names the port; then each command gets one line back."""

    def __init__(self, script: str, home: str, args: tuple[str, ...] = ()) -> None:
        env = dict(os.environ, RUMMY_HOME=home, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, script, "--child", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
        )
        self.port = int(self._readline().split()[1])

    def _readline(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the server process ended")
        return line

    def ask(self, command: str) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self._readline()

    def live_apps(self) -> int:
        """Textual apps still in the server's memory (0 once every player left)."""
        return int(self.ask("apps").split()[1])

    def close(self) -> None:
        try:
            self.ask("quit")
        except (BrokenPipeError, RuntimeError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
