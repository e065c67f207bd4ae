"""``kabuto join``: a headless bot client of ``kabuto serve`` (tests use it, and it fills rooms)."""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from kabuto.cli import UsageError, command, subparser

DESCRIPTION = """\
Join a game on a kabuto server and play it with a bot until it ends. Without --room, join an open
room of GAME that is waiting for players, or open one. Prints the result (one JSON line with
--json) and exits 0; any failure is one line on stderr and a non-zero exit.
"""

EPILOG = """\
GAME is kabuto or a card game's name (kabuto cards games lists them). Bot levels: for kabuto
random and the AI levels (LEVELS); for the card games random, heuristic.

--seat-file FILE keeps the room and this seat's token in FILE (readable by you only): run the same
command again after a crash and it takes the seat back and goes on. --fill LEVEL asks the server's
bots to take the seats nobody has taken yet, so the game starts at once.

The --json line: {"game", "room", "seat", "players", "steps", "winners": [seats], "won": bool,
"result": "how it ended"}.

example: kabuto join ws://127.0.0.1:8765 --game sumo --bot heuristic --fill random --json
"""


@command("join")
def main(argv: list[str]) -> int:
    from kabuto.ai.levels import level_names

    ap = subparser("join", DESCRIPTION, epilog=EPILOG.replace("LEVELS", ", ".join(level_names())), formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url", help="the server, e.g. ws://127.0.0.1:8765")
    ap.add_argument("--game", required=True, help="kabuto, or a card game's name")
    ap.add_argument("--room", default=None, help="the room code to join (default: any open room of GAME)")
    ap.add_argument("--bot", required=True, metavar="LEVEL", help="the bot that plays this seat")
    ap.add_argument("--players", type=int, default=None, help="seats of a room it opens (default: the game's smallest)")
    ap.add_argument("--junior", action="store_true", help="kabuto: a Junior League room")
    ap.add_argument("--jokers", action="store_true", help="sumo-card-game: a room playing with the Jokers")
    ap.add_argument("--name", default=None, help="the seat's name at the table")
    ap.add_argument("--fill", default=None, metavar="LEVEL", help="server bots take the empty seats")
    ap.add_argument("--seat-file", type=Path, default=None, help="remember the seat here (see below)")
    ap.add_argument("--timeout", type=float, default=None, help="give up after this many seconds")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = ap.parse_args(argv)
    if not args.url.startswith(("ws://", "wss://")):
        raise UsageError(f"{args.url!r} is not a server address (ws://HOST:PORT)")

    from kabuto.net.bots import check_level
    from kabuto.net.client import ClientError, PlayOptions, play
    from kabuto.net.tables import game_names

    if args.game not in game_names():
        raise UsageError(f"--game {args.game!r}: not one of {', '.join(game_names())}")
    try:
        check_level(args.game, args.bot, server=False)
    except ValueError as exc:
        raise UsageError(f"--bot: {exc}") from None
    options = {"junior": True} if args.junior else {}
    if args.jokers:
        options["jokers"] = True
    opts = PlayOptions(args.url, args.game, args.bot, room=args.room, players=args.players,
                       name=args.name, fill=args.fill, seat_file=args.seat_file, options=options)

    async def go() -> dict:
        if args.timeout is None:
            return await play(opts)
        async with asyncio.timeout(args.timeout):
            return await play(opts)

    try:
        result = asyncio.run(go())
    except ClientError as exc:
        print(f"kabuto join: {exc}", file=sys.stderr)
        return 1
    except TimeoutError:
        print(f"kabuto join: the game did not end within {args.timeout:g} s", file=sys.stderr)
        return 1
    except Exception as exc:  # whatever else went wrong is still one line, never a traceback
        from websockets.exceptions import ConnectionClosed

        what = "lost the connection to the server" if isinstance(exc, ConnectionClosed) else str(exc)
        print(f"kabuto join: {what or type(exc).__name__}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result))
    else:
        seat = result["seat"]
        print(f"room {result['room']}, seat {seat}: {result['result']}"
              f" ({'won' if result['won'] else 'lost' if result['winners'] else 'no winner'})")
    return 0
