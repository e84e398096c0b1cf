"""The `rummy serve` command: options, errors without tracebacks, the serve() loop."""

from __future__ import annotations

import asyncio
import re

import pytest

from tui.cli import build_parser, main
from tui.commands import serve as serve_command
from tui.net.startup import ServeError
from tui.net.testing import TerminalClient, counter_factory


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_loopback_addresses_give_no_warning(host):
    assert serve_command.exposure_warning(host) is None


@pytest.mark.parametrize(
    ("host", "where"),
    [
        ("0.0.0.0", "every network interface"),
        ("::", "every network interface"),
        ("192.0.2.7", "192.0.2.7"),
        ("table.example", "table.example"),
    ],
)
def test_other_addresses_warn_that_the_network_can_reach_the_table(host, where):
    warning = serve_command.exposure_warning(host)
    assert warning is not None and where in warning and "network" in warning


def test_options_parse_with_their_defaults():
    args = build_parser(["serve"]).parse_args(["serve"])
    assert (args.host, args.port, args.max_sessions, args.idle_timeout) == (
        "127.0.0.1",
        2222,
        64,
        30.0,
    )
    assert args.password is None and args.host_key is None and args.authorized_keys is None
    args = build_parser(["serve"]).parse_args(
        [
            "serve",
            "--port",
            "0",
            "--max-sessions",
            "3",
            "--idle-timeout",
            "0.5",
            "--password",
            "pw",
            "--host-key",
            "k",
            "--authorized-keys",
            "a",
        ]
    )
    assert (args.port, args.max_sessions, args.idle_timeout, args.password) == (0, 3, 0.5, "pw")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--port", "70000"], "must be between 0 and 65535"),
        (["serve", "--max-sessions", "0"], "must be at least 1"),
        (["serve", "--idle-timeout", "-1"], "cannot be negative"),
        (["serve", "--port", "0", "--host-key", "/nonexistent/key"], "no such host key file"),
        (["serve", "--turn-timeout", "-5"], "cannot be negative"),
        (["serve", "--keepalive", "0"], "between 0.5 and 600"),
        (["serve", "--login-grace", "0"], "between 1 and 600"),
    ],
)
def test_bad_settings_are_one_clear_line_not_a_traceback(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_password_without_a_value_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(serve_command.PASSWORD_ENV, "from-env")
    assert serve_command._resolve_password(serve_command._PROMPT) == "from-env"
    assert serve_command._resolve_password("given") == "given"
    assert serve_command._resolve_password(None) is None


def test_password_prompt_without_a_terminal_or_environment_is_refused(monkeypatch):
    monkeypatch.delenv(serve_command.PASSWORD_ENV, raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    with pytest.raises(ServeError, match="needs a terminal"):
        serve_command._resolve_password(serve_command._PROMPT)


async def test_serve_runs_until_stopped_and_says_how_to_join():
    lines: list[str] = []
    stop = asyncio.Event()
    task = asyncio.create_task(
        serve_command.serve(counter_factory, port=0, stop=stop, report=lines.append)
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while not any("listening" in line for line in lines):
        assert loop.time() < deadline and not task.done()
        await asyncio.sleep(0.02)
    banner = "\n".join(lines)
    port = int(re.search(r"127\.0\.0\.1:(\d+)", banner).group(1))
    assert f"ssh -p {port} YOUR-NAME@127.0.0.1" in banner
    assert "SHA256:" in banner
    assert not any("warning" in line for line in lines)
    player = await TerminalClient.connect(port, username="guest")
    await player.wait_for("user=guest count=0")
    stop.set()
    assert await asyncio.wait_for(task, 15) == 0
    await player.wait_closed()
    assert b"shutting down" in player.output


def test_help_describes_identities_the_door_and_the_turn_timer(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("first key to use a name owns it", "one-time rejoin code", "RUMMY_NAME",
                  "do not count against --max-sessions", "doubles per failure",
                  '"the server is full"', "--turn-timeout SECONDS", "--keepalive SECONDS",
                  "--login-grace SECONDS", "only those keys get in",
                  "The host's word wins", "so the totals hold across workers"):
        assert words in text, words
    defaults = build_parser(["serve"]).parse_args(["serve"])
    assert (defaults.turn_timeout, defaults.keepalive, defaults.login_grace) == (90, 5, 15)


def test_the_service_takes_key_names_from_the_authorized_keys_file_itself(tmp_path):  # noqa: ANN001
    """The names database believes the file, not a worker: a key the host named owns
    that name over an earlier claim; a certificate authority's line names nobody."""
    import asyncssh

    alice, ca = (asyncssh.generate_private_key("ssh-ed25519", comment=c)
                 for c in ("alice@laptop", "carol@ca"))
    keys = tmp_path / "friends_keys"
    keys.write_text(alice.export_public_key().decode()
                    + "cert-authority " + ca.export_public_key().decode())
    path = tmp_path / "names.sqlite"
    serve_command.name_book(path, None).admit("alice", "SHA256:early")  # first come
    book = serve_command.name_book(path, keys)
    fingerprint = alice.get_fingerprint("sha256")
    assert book.admit("alice", fingerprint).key == fingerprint
    assert book.owner("alice") == fingerprint
    with pytest.raises(Exception, match="kept by the host"):
        book.admit("alice", "SHA256:early")
    assert book.admit("carol", "SHA256:early").key  # the CA line kept no name
    with pytest.raises(ServeError, match="cannot read authorized keys"):
        serve_command.name_book(path, tmp_path / "missing")
