"""``kabuto play``: open the desktop app.

    kabuto play                                 the start menu
    kabuto play --players 3 --seats human,ai,ai start a game at once
    kabuto play --sandbox                       the physics sandbox (no rules)
    kabuto play --resume saved.json             go on with a saved game
    kabuto play --replay game.replay.json       watch a replay
    kabuto play --screenshot menu.png           render the first screen to a PNG and quit

It needs a display. Without one it says so in one line and suggests a virtual one:
``xvfb-run -a kabuto play ...``.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kabuto.cli import UsageError, command, subparser
from kabuto_ui.virtual_display import display_problem

EXIT_NO_DISPLAY = 3


def build_parser() -> argparse.ArgumentParser:
    from kabuto.ai.levels import level_names

    p = subparser("play", "Open the Kabuto desktop app: the start menu, or a game set up by the flags "
                  "below. Mouse: press near the ring edge to place the platform, drag to aim, release "
                  "to push. Keys: arrows nudge the aim, [ ] speed, Enter pushes, U undoes, T tunes.")
    p.add_argument("--players", type=int, choices=(2, 3, 4),
                   help="start a Kabuto Sumo game with this many players (default: the menu)")
    p.add_argument("--seats", metavar="LIST",
                   help="comma-separated 'human' or 'ai' per seat, e.g. human,ai (sets --players)")
    p.add_argument("--wrestlers", metavar="LIST",
                   help="comma-separated wrestler keys per seat, e.g. mike,hank (see 'kabuto wrestlers')")
    p.add_argument("--junior", action="store_true", help="play the Junior League variant")
    p.add_argument("--ai-level", choices=level_names(), default="medium",
                   help="how strong the AI seats play (default medium)")
    p.add_argument("--seed", type=int, default=None,
                   help="play this seed's game (first player, wrestlers, AI); default: a fresh "
                        "game every time")
    p.add_argument("--ai-delay", type=float, default=0.9, metavar="SECONDS",
                   help="how long an AI seat shows its aim before pushing (default 0.9)")
    p.add_argument("--sandbox", action="store_true", help="open the physics sandbox (no rules)")
    p.add_argument("--resume", type=Path, metavar="FILE",
                   help="go on with a recorded game (a replay file; --seats may say who is the AI)")
    p.add_argument("--replay", type=Path, metavar="FILE", help="open a replay in the viewer")
    p.add_argument("--data-dir", type=Path, metavar="DIR",
                   help="where games are recorded (default: $KABUTO_DATA_DIR, else "
                        "~/.local/share/kabuto); replays go in its replays/ folder")
    p.add_argument("--no-record", action="store_true", help="do not record this session's games")
    p.add_argument("--tuning", type=Path, metavar="FILE",
                   help="a tuning profile (TOML, the materials.toml format) to play with")
    p.add_argument("--profiles", type=Path, metavar="DIR",
                   help="folder the tuning panel saves and lists profiles in "
                        "(default ~/.config/kabuto/tuning)")
    p.add_argument("--size", default="1280x720", metavar="WxH", help="window size (default 1280x720)")
    p.add_argument("--screenshot", type=Path, metavar="PATH",
                   help="render the first screen, save it as a PNG and quit")
    return p


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The app's validated options, as keywords of ``kabuto.app.main.Options`` (ValueError with a
    one-line message on bad input). Imports nothing that touches the display."""
    from kabuto.app.game_config import GameConfig

    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size: expected WIDTHxHEIGHT like 1280x720, got {args.size!r}") from None
    from kabuto_ui.theme import MIN_SIZE  # no pyglet: safe before the display is opened

    if w < MIN_SIZE[0] or h < MIN_SIZE[1]:
        raise ValueError(f"--size: {w}x{h} is too small (at least {MIN_SIZE[0]}x{MIN_SIZE[1]})")
    config = None
    if args.seats or args.players or args.wrestlers or args.junior:
        seats = tuple(s.strip().lower() for s in args.seats.split(",")) if args.seats else None
        players = args.players or (len(seats) if seats else 2)
        if seats is None:
            seats = ("human",) + ("ai",) * (players - 1)
        if args.players and len(seats) != args.players:
            raise ValueError(f"--seats: {len(seats)} seats given for --players {args.players}")
        wrestlers = tuple(s.strip().lower() for s in args.wrestlers.split(",")) if args.wrestlers else ()
        config = GameConfig(players, seats, wrestlers, args.junior, args.seed, args.ai_level)
    for flag, path in (("--resume", args.resume), ("--replay", args.replay), ("--tuning", args.tuning)):
        if path is not None and not path.is_file():
            raise ValueError(f"{flag}: no such file: {path}")
    if args.ai_delay < 0:
        raise ValueError("--ai-delay: must not be negative")
    chosen = [f for f, on in (("--resume", args.resume), ("--replay", args.replay),
                              ("--sandbox", args.sandbox),
                              ("--players/--seats", config and not args.resume)) if on]
    if len(chosen) > 1:
        raise ValueError(f"choose one of {', '.join(chosen)}")
    return dict(config=config, sandbox=args.sandbox, resume=args.resume, replay=args.replay,
                   tuning=args.tuning, profiles=args.profiles, ai_delay=args.ai_delay, size=(w, h),
                   screenshot=args.screenshot, data_dir=args.data_dir, record=not args.no_record)


@command("play")
def main(argv: Sequence[str] | None = None) -> int:
    given = list(argv) if argv is not None else sys.argv[2:]
    return open_app(given, shown_as=" ".join(["kabuto play", *given]))


def open_app(argv: list[str], shown_as: str) -> int:
    """Validate the command line (before any display is touched), then open the app.
    ``shown_as`` is the command the person typed, for the no-display hint."""
    args = build_parser().parse_args(argv)
    try:
        options = _options(args)
    except ValueError as exc:  # bad sizes, files, choices: one line, no traceback
        raise UsageError(str(exc)) from None
    problem = display_problem()
    if problem:
        print(f"{shown_as.split()[0]} {shown_as.split()[1]}: {problem}; run it on a desktop, or under "
              f"a virtual display: xvfb-run -a {shown_as}", file=sys.stderr)
        return EXIT_NO_DISPLAY
    from kabuto_ui.gl_checks import release_mode

    release_mode()  # before pyglet loads: no OpenGL error check after every call
    from kabuto.app.main import App, Options

    try:
        App(Options(**options)).run()
    except ValueError as exc:  # a bad file found while opening: one line, no traceback
        raise UsageError(str(exc)) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
