"""``kabuto serve``: host network games (Kabuto Sumo and the card games) for ``kabuto join`` and the app."""
from __future__ import annotations

import argparse
import asyncio
import logging

from kabuto.cli import UsageError, command, subparser

DESCRIPTION = """\
Host Kabuto Sumo (2, 3 or 4 players, Junior League) and the card games over WebSockets. The server
holds every game and plays it with the same engines as the app; each seat is sent only what it may
see. Games are recorded in the data folder's replays/ as they are played; Ctrl-C or SIGTERM stops
the server cleanly, saving every room, and a restart brings the unfinished rooms back.
"""

EPILOG = """\
The protocol is described in docs/protocol.md. Play with: kabuto join ws://HOST:PORT --game kabuto --bot easy
"""


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535, not {port}")
    return port


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= v <= 7 * 86400:
        raise argparse.ArgumentTypeError(f"expected 0 to 604800 seconds, not {text}")
    return v


@command("serve")
def main(argv: list[str]) -> int:
    ap = subparser("serve", DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for all)")
    ap.add_argument("--port", type=_port, default=8765, help="port to listen on (default 8765; 0 picks a free one)")
    ap.add_argument("--data-dir", default=None,
                    help="data folder for the replays and rooms (default: the per-user data folder)")
    ap.add_argument("--linger", type=_seconds, default=300.0,
                    help="seconds a room everybody has left is kept before it is saved and closed (default 300)")
    ap.add_argument("--empty-linger", type=_seconds, default=30.0,
                    help="the same for a room whose game has not started (default 30; a room whose "
                         "seats were all given up closes at once)")
    ap.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                    help="a reverse proxy in front of the server (may be repeated): its connections "
                         "count against the address its X-Forwarded-For header names, for the "
                         "per-address quotas (docs/protocol.md, Quotas)")
    ap.add_argument("--quiet", action="store_true", help="log warnings and errors only")
    ap.add_argument("--seed", type=int, default=None, help="deal every room's game (wrestlers, bots' "
                    "draws) from this seed, to reproduce a session (default: unpredictable)")
    ap.add_argument("--workers", type=int, default=None,
                    help="processes that simulate Kabuto Sumo pushes and plan its bots (default: one per "
                         "core; 0: threads of the server's own process, one core)")
    ap.add_argument("--code-prefix", default="",
                    help="start this server's room codes with these 1-2 letters, and restore only its "
                         "own rooms: several servers share one data folder behind a router "
                         "(docs/protocol.md, 'Several servers')")
    args = ap.parse_args(argv)
    from kabuto.net.rooms import check_prefix

    try:
        check_prefix(args.code_prefix)
    except ValueError as exc:
        raise UsageError(f"--code-prefix: {exc}") from None
    if args.workers is not None and args.workers < 0:
        raise UsageError("--workers: expected 0 or more")

    from kabuto.net.server import ServerConfig, run
    from kabuto.replay.userdata import UserDataError

    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)
    logging.getLogger("kabuto.net.ws").setLevel(logging.WARNING)
    config = ServerConfig(host=args.host, port=args.port, data_dir=args.data_dir, linger=args.linger,
                          empty_linger=args.empty_linger, seed=args.seed,
                          trusted_proxies=tuple(args.trusted_proxy), workers=args.workers,
                          code_prefix=args.code_prefix)
    try:
        asyncio.run(run(config, ready=lambda s: print(f"kabuto serve: listening on {s.url}", flush=True)))
    except UserDataError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc})") from None
    return 0
