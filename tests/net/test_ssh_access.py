"""Who may connect, what is refused, resource limits and the host key."""

from __future__ import annotations

import asyncio
import stat

import asyncssh
import pytest

from tui.net.hostkey import HostKeyError, default_host_key_path
from tui.net.startup import ServeError, start_server
from tui.net.testing import KeylessClient, TerminalClient, counter_factory


@pytest.fixture
async def server():
    srv = await start_server(counter_factory, "127.0.0.1", 0)
    try:
        yield srv
    finally:
        await srv.close()


async def raw_connect(port: int, **kwargs) -> asyncssh.SSHClientConnection:
    kwargs.setdefault("username", "mallory")
    kwargs.setdefault("known_hosts", None)
    kwargs.setdefault("agent_path", None)
    kwargs.setdefault("client_keys", ())
    if "password" not in kwargs:
        kwargs.setdefault("client_factory", KeylessClient)
    return await asyncssh.connect("127.0.0.1", port, **kwargs)


# -- refusals ------------------------------------------------------------------------


async def test_a_session_without_a_pty_is_refused_with_a_reason(server):
    client = await TerminalClient.connect(server.port, term_type=None)
    await client.wait_closed()
    assert client.exit_status == 1
    assert b"connect with a terminal" in client.stderr
    assert server.sessions == []


async def test_commands_are_refused_with_a_reason(server):
    client = await TerminalClient.connect(server.port, term_type=None, command="cat /etc/passwd")
    await client.wait_closed()
    assert client.exit_status == 1
    assert b"commands are not accepted" in client.stderr
    assert client.output == b""


async def test_commands_are_refused_even_with_a_pty(server):
    client = await TerminalClient.connect(server.port, command="sh")
    await client.wait_closed()
    assert b"commands are not accepted" in client.stderr
    assert server.sessions == []


async def test_sftp_is_refused(server):
    conn = await raw_connect(server.port)
    async with conn:
        with pytest.raises(asyncssh.SFTPError):
            async with conn.start_sftp_client() as sftp:
                await sftp.listdir(".")


async def test_port_forwarding_is_refused(server):
    conn = await raw_connect(server.port)
    async with conn:
        with pytest.raises(asyncssh.ChannelOpenError, match="port forwarding is not available"):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 9)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)


# -- authentication ------------------------------------------------------------------


async def test_by_default_anyone_plays_under_their_ssh_user_name(server):
    client = await TerminalClient.connect(server.port, username="Zoë")
    await client.wait_for("user=Zoë count=0")


async def test_a_table_password_is_required_and_checked():
    # Each from an address of its own: a failure penalises its address (test_door_live).
    srv = await start_server(counter_factory, "127.0.0.1", 0, password="sesame")
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await raw_connect(srv.port, local_addr=("127.0.0.11", 0))
        with pytest.raises(asyncssh.PermissionDenied):
            await raw_connect(srv.port, password="open up", local_addr=("127.0.0.12", 0))
        client = await TerminalClient.connect(srv.port, username="ann", password="sesame",
                                              source="127.0.0.13")
        await client.wait_for("user=ann count=0")
    finally:
        await srv.close()


async def test_authorized_keys_admit_known_keys_only(tmp_path):
    known = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(known.export_public_key())
    srv = await start_server(counter_factory, "127.0.0.1", 0, authorized_keys=keys_file)
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await raw_connect(srv.port, local_addr=("127.0.0.11", 0))
        with pytest.raises(asyncssh.PermissionDenied):
            await raw_connect(srv.port, client_keys=[stranger], local_addr=("127.0.0.12", 0))
        client = await TerminalClient.connect(srv.port, username="kim", client_keys=[known],
                                              source="127.0.0.13")
        await client.wait_for("user=kim count=0")
    finally:
        await srv.close()


async def test_an_unreadable_authorized_keys_file_is_a_clear_error(tmp_path):
    with pytest.raises(ServeError, match="cannot read authorized keys"):
        await start_server(counter_factory, "127.0.0.1", 0, authorized_keys=tmp_path / "none")
    bad = tmp_path / "bad_keys"
    bad.write_text("this is not a key\n")
    with pytest.raises(ServeError, match="not an authorized_keys file"):
        await start_server(counter_factory, "127.0.0.1", 0, authorized_keys=bad)


# -- limits --------------------------------------------------------------------------


async def test_connections_beyond_max_sessions_are_told_the_table_is_full():
    srv = await start_server(counter_factory, "127.0.0.1", 0, max_sessions=2)
    try:
        first = await TerminalClient.connect(srv.port, username="p1")
        second = await TerminalClient.connect(srv.port, username="p2")
        await first.wait_for("user=p1")
        await second.wait_for("user=p2")
        with pytest.raises(asyncssh.DisconnectError, match="server is full"):
            await TerminalClient.connect(srv.port, username="p3")
        assert len(srv.sessions) == 2
        await first.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while len(srv.sessions) > 1:
            assert loop.time() < deadline
            await asyncio.sleep(0.02)
        third = await TerminalClient.connect(srv.port, username="p3")
        await third.wait_for("user=p3")
    finally:
        await srv.close()


async def test_a_second_session_on_a_full_connection_is_refused_with_a_reason():
    """The auth-time check cannot see sessions opened on an already connected link."""
    srv = await start_server(counter_factory, "127.0.0.1", 0, max_sessions=1)
    try:
        first = await TerminalClient.connect(srv.port, username="solo")
        await first.wait_for("user=solo")
        assert first.conn is not None
        chan, _ = await first.conn.create_session(
            asyncssh.SSHClientSession, term_type="xterm", encoding=None
        )
        await asyncio.wait_for(chan.wait_closed(), 10)
        assert chan.get_exit_status() == 1
        assert len(srv.sessions) == 1
    finally:
        await srv.close()


async def test_idle_sessions_time_out_and_active_ones_do_not():
    srv = await start_server(counter_factory, "127.0.0.1", 0, idle_timeout=1.0)
    try:
        idle = await TerminalClient.connect(srv.port, username="idle")
        busy = await TerminalClient.connect(srv.port, username="busy")
        await idle.wait_for("user=idle")
        await busy.wait_for("user=busy")
        for _ in range(8):  # a key every 0.2 s, for longer than the timeout
            busy.send("+")
            await asyncio.sleep(0.2)
        await idle.wait_closed(timeout=5)
        assert b"without input" in idle.output
        assert not busy.closed.is_set()
        await busy.wait_for("count=8")
        assert [info.username for info in srv.sessions] == ["busy"]
    finally:
        await srv.close()


# -- host key ------------------------------------------------------------------------


async def test_the_host_key_is_created_private_and_reused(tmp_path):
    path = default_host_key_path()
    assert not path.exists()
    srv = await start_server(counter_factory, "127.0.0.1", 0)
    try:
        assert path.is_file()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        conn = await raw_connect(srv.port)
        first_key = conn.get_server_host_key()
        conn.close()
    finally:
        await srv.close()
    srv = await start_server(counter_factory, "127.0.0.1", 0)
    try:
        conn = await raw_connect(srv.port)
        assert conn.get_server_host_key().public_data == first_key.public_data
        conn.close()
    finally:
        await srv.close()


async def test_a_supplied_host_key_is_used(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "my_host_key"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    srv = await start_server(counter_factory, "127.0.0.1", 0, host_key_path=key_file)
    try:
        conn = await raw_connect(srv.port)
        assert conn.get_server_host_key().public_data == key.public_data
        conn.close()
        assert not default_host_key_path().exists()
    finally:
        await srv.close()


async def test_a_missing_or_broken_host_key_file_is_a_clear_error(tmp_path):
    with pytest.raises(HostKeyError, match="no such host key file"):
        await start_server(counter_factory, "127.0.0.1", 0, host_key_path=tmp_path / "nope")
    broken = tmp_path / "broken"
    broken.write_text("garbage")
    with pytest.raises(HostKeyError, match="not a usable SSH private key"):
        await start_server(counter_factory, "127.0.0.1", 0, host_key_path=broken)


# -- app factory given later -----------------------------------------------------------


async def test_the_app_factory_can_be_plugged_in_after_start():
    srv = await start_server(None, "127.0.0.1", 0)
    try:
        early = await TerminalClient.connect(srv.port, username="early")
        await early.wait_closed()
        assert b"not open yet" in early.stderr
        srv.app_factory = counter_factory
        late = await TerminalClient.connect(srv.port, username="late")
        await late.wait_for("user=late count=0")
    finally:
        await srv.close()


async def test_a_connection_without_sessions_is_closed_and_so_is_one_whose_sessions_ended():
    srv = await start_server(counter_factory, "127.0.0.1", 0, login_timeout=0.5)
    try:
        idle_link = await raw_connect(srv.port)
        await asyncio.wait_for(idle_link.wait_closed(), 5)
        assert srv.connection_count == 0
        player = await TerminalClient.connect(srv.port, username="leaver")
        await player.wait_for("user=leaver")
        player.send("q")
        assert player.conn is not None
        await asyncio.wait_for(player.conn.wait_closed(), 5)
    finally:
        await srv.close()
