"""One TCP connection to the SSH front: the door, the login, and nothing but play.

Who is who: a client that logs in with a public key is that key (`SessionInfo.key`, its
SHA256 fingerprint, and the name `--authorized-keys` gives it, if any); the lobby decides
what a key may do with a name (`tui.service.identity`).  On an open server any key is
accepted as an identity and a client without one gets in by keyboard-interactive with no
question.  With `--password`, password logins carry no key.  The door (login grace,
connections in progress, penalties for failed logins) is `tui.net.door`: every
connection asks it before it may try to log in.  Port and agent forwarding are refused:
a connection exists only to carry a player's terminal (`tui.net.player_channel`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging

import asyncssh

from tui.net.player_channel import PlayerChannel
from tui.net.server import Server, full_message

log = logging.getLogger(__name__)

NO_FORWARDING = "port forwarding is not available on a rummy-tui table"
BAD_USER_NAME = (
    "rummy-tui: that user name cannot be used over SSH (emoji and some other characters "
    "are not allowed): connect under a plain name, e.g. `ssh -p PORT ann@HOST`."
)


def _plain_user_name_refusal(conn: asyncssh.SSHServerConnection) -> None:
    """asyncssh refuses a user name SASLprep cannot take (an emoji) with its own words
    ("Unassigned character: '\\360...'"): say it plainly instead.  asyncssh offers no
    hook for it, so this connection's disconnect message is rewritten (a test checks
    it still works after an upgrade)."""
    send = getattr(conn, "_send_disconnect", None)
    if send is None:
        return

    def send_plain(code: int, reason: str, lang: str) -> None:
        if code == asyncssh.DISC_ILLEGAL_USER_NAME:
            reason = BAD_USER_NAME
        send(code, reason, lang)

    conn._send_disconnect = send_plain  # type: ignore[method-assign]


class PlayerConnection(asyncssh.SSHServer):
    """One TCP connection: the door (see `tui.net.door`), authentication policy, and
    refusal of everything but play."""

    def __init__(self, server: Server) -> None:
        self._server = server
        self._conn: asyncssh.SSHServerConnection | None = None
        self.username = ""
        self.key = ""
        """Fingerprint of the public key this connection logged in with ("" for none)."""
        self.given_name: str | None = None
        """The name `--authorized-keys` gives that key, if any."""
        self._address = ""
        self._failures = 0
        self._keys_refused = 0
        self._logged_in = False
        self._channels = 0
        self._channels_opened = 0
        self._no_session_timer: asyncio.TimerHandle | None = None
        self._door_id = 0
        self._admitted: asyncio.Future[str] | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        _plain_user_name_refusal(conn)
        server = self._server
        self._door_id = server.connection_opened(conn)
        peer = conn.get_extra_info("peername") or ("", 0)
        self._address = str(peer[0])
        # Asked before anything is read from the client; refused, it is closed at once.
        self._admitted = asyncio.ensure_future(server.doorway.arrive(self._door_id,
                                                                     self._address))
        self._admitted.add_done_callback(self._door_answered)

    def _door_answered(self, answer: asyncio.Future[str]) -> None:
        if answer.cancelled() or answer.exception() is not None or not answer.result():
            return
        if self._conn is not None:
            self._conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                  f"rummy-tui: {answer.result()}")

    def connection_lost(self, exc: Exception | None) -> None:
        server = self._server
        server.connection_closed(self._door_id)
        if not self._logged_in:
            # Ended without logging in: abandoned, if it was let try and there was
            # something to get right; closed by the server's choice otherwise.
            admitted = self._admitted
            tried = admitted is not None and admitted.done() and not admitted.cancelled() \
                and admitted.exception() is None and not admitted.result()
            counts = tried and server.requires_auth and not server.closing
            server.doorway.settled(self._door_id, "abandoned" if counts else "closed")
        if self._admitted is not None and not self._admitted.done():
            self._admitted.cancel()
        if self._keys_refused and not self._logged_in:
            log.warning("door: login refused from %s as %r (%s key(s) not allowed)",
                        self._address, self.username, self._keys_refused)
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None
        self._conn = None

    def auth_completed(self) -> None:
        self._logged_in = True
        self._server.doorway.settled(self._door_id, "in")
        # A logged-in connection that never opens a session only holds a slot.
        timeout = self._server.login_timeout
        if timeout:
            self._no_session_timer = asyncio.get_running_loop().call_later(
                timeout, self._close_if_unused
            )

    def _close_if_unused(self) -> None:
        self._no_session_timer = None
        if self._channels_opened == 0 and self._conn is not None:
            self._conn.close()

    def channel_closed(self) -> None:
        """A session channel ended; with none left the connection has no purpose."""
        self._channels -= 1
        if self._channels <= 0 and self._conn is not None:
            self._conn.close()

    async def begin_auth(self, username: str) -> bool:
        server = self._server
        self.username = username
        if server.full:
            raise asyncssh.DisconnectError(
                asyncssh.DISC_TOO_MANY_CONNECTIONS, full_message(server.max_sessions)
            )
        admitted = self._admitted
        why = await admitted if admitted is not None else ""
        if why:  # penalised: nothing it sends is looked at, a right password neither
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                           f"rummy-tui: {why}")
        # Always ask, even on an open server: a client's key, offered, is its identity.
        return True

    # -- keys ---------------------------------------------------------------------------

    def public_key_auth_supported(self) -> bool:
        return self._server.open or self._server.authorized_keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for each key offered and again, with its signature checked by asyncssh,
        # for the one that logs in: the last key accepted is the one the player holds.
        keys = self._server.authorized_keys
        if keys is None:
            admitted, name = self._server.open, None
        else:
            conn = self._conn
            host = str(conn.get_extra_info("peername", ("", 0))[0]) if conn else ""
            admitted, name = keys.match(key, host, self._address)
        if admitted:
            self.key, self.given_name = key.get_fingerprint("sha256"), name
        else:
            self._keys_refused += 1
        return admitted

    # -- no key: an open server lets keyless clients in without a question ---------------

    def kbdint_auth_supported(self) -> bool:
        return self._server.open

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key, self.given_name = "", None
        return self._server.open

    # -- the table password ---------------------------------------------------------------

    def password_auth_supported(self) -> bool:
        return self._server.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        expected = self._server.password
        if expected is not None and hmac.compare_digest(password.encode(), expected.encode()):
            self.key, self.given_name = "", None
            return True
        self._failures += 1
        server = self._server
        await server.sleep(await server.doorway.failed(self._door_id, self._address,
                                                       username, "password"))
        if self._failures >= self._server.door.limits.failures_per_connection \
                and self._conn is not None:
            self._conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                  "rummy-tui: too many wrong passwords; try again later.")
        return False

    def session_requested(self) -> PlayerChannel:
        self._channels += 1
        self._channels_opened += 1
        server = self._server
        username, key, given_name = self.username, self.key, self.given_name
        return PlayerChannel(
            lambda chan: server.new_session(chan, username, key, given_name),
            self.channel_closed)

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_FORWARDING)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_FORWARDING)

    def unix_server_requested(self, listen_path: str) -> bool:
        return False
