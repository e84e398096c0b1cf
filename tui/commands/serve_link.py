"""`rummy serve` on several machines: the options of the service link, the worker
machine's command (`--workers-only`) and the certificate maker (`--make-certs`).

One machine runs the game service (`--service-listen HOST:PORT --tls DIR`); each other
machine runs `--workers-only --service HOST:PORT --tls DIR`, with the same SSH host key
and `--authorized-keys`.  The link is TLS with certificates both ways, made by
`--make-certs` (`tui.net.certs`).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui.net.startup import ServeError

if TYPE_CHECKING:
    import ssl

    from tui.net.workers import WorkerSettings

EPILOG = """
more than one machine:
  Make the certificates once, on the machine that runs the game service:
    rummy serve --make-certs DIR --service-host HOST --worker w1 --worker w2
  (HOST: the name or address worker machines dial; DIR/service is this machine's
  --tls folder; copy DIR/w1 to worker machine w1, and so on.  Run it again with new
  --worker names to add machines.)  Then, on the service machine:
    rummy serve --service-listen HOST:PORT --tls DIR/service [--workers N]
  and on each worker machine, with the service machine's host key and authorized keys:
    rummy serve --workers-only --service HOST:PORT --tls DIR/w1 --host-key FILE
                [--authorized-keys FILE] [--host ADDR --port P --workers N]
  A worker without a certificate from DIR's CA is refused before it says a word.  A
  worker machine that loses the service keeps its players (told their seats are
  kept) and dials again, waiting longer each time (up to 10 s); the service keeps a
  lost machine's seats for --grace seconds, as for any dropped player.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("more than one machine (see below)")
    group.add_argument(
        "--service-listen", metavar="HOST:PORT",
        help="also take session workers from other machines on this TCP address "
        "(TLS with certificates both ways: needs --tls); with --workers 0 this machine "
        "runs only the game service")
    group.add_argument(
        "--tls", metavar="DIR", type=Path,
        help="folder with this machine's cert.pem, key.pem and the CA's ca.pem (made by "
        "--make-certs)")
    group.add_argument(
        "--workers-only", action="store_true",
        help="run only session workers, for the game service at --service on another "
        "machine (needs --tls)")
    group.add_argument("--service", metavar="HOST:PORT",
                       help="the game service a --workers-only machine links to")
    group.add_argument(
        "--make-certs", metavar="DIR", type=Path,
        help="make the CA (first time), the service's certificate (with --service-host) "
        "and each --worker's in DIR, then exit")
    group.add_argument("--service-host", metavar="HOST",
                       help="the name or address worker machines dial (--make-certs)")
    group.add_argument("--worker", metavar="NAME", action="append", default=[],
                       help="a worker machine to make a certificate for (--make-certs; "
                       "repeat for several)")


def make_certs_command(args: argparse.Namespace) -> int:
    """`--make-certs DIR`: the certificates of the service link, without openssl."""
    from tui.net.certs import CertError, make_certs

    if not args.service_host and not args.worker:
        print("rummy serve: error: --make-certs needs --service-host and/or --worker",
              file=sys.stderr)
        return 2
    try:
        made = make_certs(args.make_certs, args.service_host, args.worker)
    except CertError as error:
        print(f"rummy serve: error: {error}", file=sys.stderr)
        return 2
    print("Made:")
    for line in made:
        print(f"  {line}")
    return 0


def service_link(args: argparse.Namespace) -> tuple[tuple[str, int], ssl.SSLContext] | None:
    """The `--service-listen` address and TLS context of the game service (None without
    it); `ServeError` for options that do not go together or cannot be used."""
    from tui.net.tls_link import LinkError, parse_address, service_context

    if args.service is not None and not args.workers_only:
        raise ServeError("--service is for a --workers-only machine (the game service "
                         "itself listens with --service-listen)")
    if args.service_listen is None:
        if args.tls is not None and not args.workers_only:
            raise ServeError("--tls goes with --service-listen or --workers-only")
        return None
    if args.workers_only:
        raise ServeError("--service-listen is for the game service, not a --workers-only "
                         "machine")
    if args.tls is None:
        raise ServeError("--service-listen needs --tls DIR (see --make-certs)")
    try:
        return parse_address(args.service_listen, "--service-listen"), \
            service_context(args.tls)
    except LinkError as error:
        raise ServeError(str(error)) from None


def workers_only_command(settings: WorkerSettings, workers: int,
                         password: str | None) -> int:
    """`--workers-only`: this machine's session workers, until SIGINT/SIGTERM."""
    from tui.net.tls_link import LinkError

    if settings.service is None or settings.tls is None:
        raise ServeError("--workers-only needs --service HOST:PORT and --tls DIR")
    if workers < 1:
        raise ServeError("--workers-only needs at least one worker (--workers N)")
    try:
        return asyncio.run(_serve_workers(settings, workers, password))
    except LinkError as error:
        raise ServeError(str(error)) from None


async def _serve_workers(settings: WorkerSettings, workers: int, password: str | None) -> int:
    from tui.net.worker_machine import WorkerMachine

    machine = await WorkerMachine.open(settings, workers, password)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    port = "" if machine.port == 22 else f"-p {machine.port} "
    print(f"rummy-tui session workers listening on {machine.host}:{machine.port} for the "
          f"game service at {settings.service} ({workers} workers, pids "
          f"{', '.join(map(str, machine.pool.pids()))}).\n"
          f"Players join with:  ssh {port}YOUR-NAME@{machine.host}\n"
          f"Host key {machine.host_key_fingerprint} ({machine.host_key_path})\n"
          "Press Ctrl+C to stop.", flush=True)
    try:
        await stop.wait()
    finally:
        print("Stopping the session workers...", flush=True)
        await machine.close()
    return 0
