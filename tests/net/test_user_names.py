"""A user name the SSH layer cannot take (an emoji: SASLprep has no place for it) is
refused with a plain sentence, not asyncssh's "Unassigned character: '\\360...'".  The
real OpenSSH client sends the name as typed (asyncssh's own client refuses to)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess

import pytest

from tui.net.player_connection import BAD_USER_NAME
from tui.net.startup import start_server
from tui.net.testing import counter_factory

pytestmark = pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client")


async def test_an_emoji_user_name_is_refused_in_plain_words(tmp_path) -> None:
    server = await start_server(counter_factory, "127.0.0.1", 0, idle_timeout=None)
    try:
        ssh = await asyncio.create_subprocess_exec(
            "ssh", "-tt", "-F", "none", "-o", "StrictHostKeyChecking=no",
            "-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}", "-o", "BatchMode=yes",
            "-p", str(server.port), "\N{PLAYING CARD BLACK JOKER}bob@127.0.0.1",
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, err = await asyncio.wait_for(ssh.communicate(), 30)
        said = err.decode(errors="replace")
        assert ssh.returncode != 0
        assert BAD_USER_NAME in said, said
        assert "Unassigned character" not in said
        assert server.sessions == []
    finally:
        await server.close()
