"""``python -m cards.table``: the card table in a window of its own (the desktop app shows the same
scenes from its start menu).

Without options it opens the set-up screen. ``--mode`` and ``--seats`` go straight to a table::

    python -m cards.table --mode sumida-river-4 --seats human,bot:heuristic,bot:search,human

Bad options are one line and exit 2, found before any window opens; with no display to open one,
it says so (exit 3).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cards.table.config import SeatSpec, TableConfig, parse_window_size, table_data
from cards.table.setup_model import fresh_seed
from kabuto_ui.virtual_display import display_problem


def parse_seats(text: str, players: int) -> tuple[SeatSpec, ...]:
    """``human,bot:heuristic,...`` -> seat specs; ValueError names the bad one."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) != players:
        raise ValueError(f"--seats: this game has {players} seats, you gave {len(parts)}")
    seats = []
    for p in parts:
        kind, _, strength = p.partition(":")
        if kind == "human" and not strength:
            seats.append(SeatSpec("human"))
        elif kind == "bot":
            key = strength or "heuristic"
            table_data().strength(key)
            seats.append(SeatSpec("bot", key))
        else:
            raise ValueError(f"--seats: {p!r} is neither 'human' nor 'bot[:strength]'")
    return tuple(seats)


def build_parser() -> argparse.ArgumentParser:
    data = table_data()
    p = argparse.ArgumentParser(
        prog="python -m cards.table",
        description="Play the sumo card games at a card table (pyglet window).",
        epilog="modes: " + ", ".join(m.key for m in data.modes)
        + ". bot strengths: " + ", ".join(s.key for s in data.strengths) + ".",
    )
    p.add_argument("--mode", help="go straight to this game (default: the set-up screen)")
    p.add_argument("--seats", help="comma-separated seats: human or bot:<strength> (default: you against "
                                   "rule-of-thumb bots)")
    p.add_argument("--seed", type=int, default=None, help="deal number (default: a fresh one)")
    p.add_argument("--size", default="1280x720", help="window size WxH (default 1280x720)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        width, height = parse_window_size(args.size)
    except ValueError as exc:
        print(f"cards.table: {exc}", file=sys.stderr)
        return 2
    config = None
    try:
        if args.mode:
            mode = table_data().mode(args.mode)
            seats = (parse_seats(args.seats, mode.players) if args.seats
                     else TableConfig.default(mode.key).seats)
            config = TableConfig(mode.key, seats, args.seed if args.seed is not None else fresh_seed())
            config.validate()
        elif args.seats:
            raise ValueError("--seats needs --mode")
    except ValueError as exc:
        print(f"cards.table: {exc}", file=sys.stderr)
        return 2
    problem = display_problem()
    if problem:
        given = " ".join(sys.argv[1:] if argv is None else argv)
        print(f"cards.table: {problem}; run it on a desktop, or under a virtual display: "
              f"xvfb-run -a python -m cards.table {given}".rstrip(), file=sys.stderr)
        return 3

    from kabuto_ui.gl_checks import release_mode

    release_mode()  # before pyglet loads: no OpenGL error check after every call
    import pyglet

    from cards.table.scene import CardTableScene, SetupScene, open_window

    window = open_window(width, height)
    if config is not None:
        window.set_scene(CardTableScene(window, config))
    else:
        window.set_scene(SetupScene(window, seed=args.seed))
    window.start()
    pyglet.app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
