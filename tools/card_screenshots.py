"""Save a PNG of each card table in the middle of a game (and of the set-up screen, a hot-seat pass
screen and a summary pop-up), to look at how the tables read at 1280 x 720.

Seat 0 is a person whose moves this script picks at random from the legal ones; the other seats are
rule-of-thumb bots. Each picture is taken on seat 0's turn, so its playable cards are highlighted.

    python tools/card_screenshots.py --out build/card-screenshots
    xvfb-run -a python tools/card_screenshots.py        # on a machine without a screen

Without a DISPLAY, pyglet's headless (EGL) mode is used if available.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tqdm import tqdm


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python tools/card_screenshots.py",
        description="Save a PNG of each card table mid-game (plus the set-up screen, a pass screen and a "
                    "summary) to check how they look.")
    p.add_argument("--out", default="build/card-screenshots", help="folder for the PNGs (default: %(default)s)")
    p.add_argument("--seed", type=int, default=7, help="deal number of every game (default: %(default)s)")
    p.add_argument("--size", default="1280x720", help="window size WxH (default: %(default)s)")
    p.add_argument("--moves", type=int, default=12,
                   help="how many of seat 0's moves to play before the picture (default: %(default)s)")
    p.add_argument("--modes", default="", help="comma-separated mode keys (default: every mode)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from cards.table.config import parse_window_size  # plain data, no pyglet: safe before headless is set

    try:
        width, height = parse_window_size(args.size)
    except ValueError as exc:
        print(f"card_screenshots: {exc}", file=sys.stderr)
        return 2
    if args.moves < 0:
        print("card_screenshots: --moves must not be negative", file=sys.stderr)
        return 2
    import pyglet

    if not os.environ.get("DISPLAY") and sys.platform.startswith("linux"):
        pyglet.options["headless"] = True

    from cards.table.autoplay import play_randomly
    from cards.table.config import Pacing, SeatSpec, TableConfig, table_data
    from cards.table.scene import CardTableScene, SetupScene, open_window

    data = table_data()
    keys = [k for k in args.modes.split(",") if k] or [m.key for m in data.modes]
    try:
        modes = [data.mode(k) for k in keys]
    except ValueError as exc:
        print(f"card_screenshots: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    instant = Pacing().instant()

    window = open_window(width, height)
    shots: list[Path] = []
    try:
        window.set_scene(SetupScene(window, seed=args.seed))
        for _ in range(3):
            window.pump()
        shots.append(window.screenshot(out / "setup.png"))
        for mode in tqdm(modes, desc="tables", unit="table"):
            seats = (SeatSpec("human"),) + tuple(SeatSpec("bot", "heuristic") for _ in range(mode.players - 1))
            config = TableConfig(mode.key, seats, args.seed, pacing=instant)
            # First pass: how many decisions seat 0 gets before the game ends, so the picture is
            # taken mid-game (on seat 0's turn) even in a short game.
            total, _ = play_randomly(CardTableScene(window, config), 10**6, args.seed)
            scene = window.set_scene(CardTableScene(window, config))
            play_randomly(scene, max(0, min(args.moves, total - 1)), args.seed)
            window.pump()
            shots.append(window.screenshot(out / f"{mode.key}.png"))
            # Then on to the first summary (a round of Sumida River, or the game's end).
            seen = []
            scene = window.set_scene(CardTableScene(window, config))

            def shot_first(summary, seen=seen, shot=out / f"{mode.key}-summary.png") -> bool:
                if not seen:
                    seen.append(summary)
                    window.pump()
                    shots.append(window.screenshot(shot))
                return summary.final

            play_randomly(scene, 10**6, args.seed, shot_first)
        # A hot-seat pass screen.
        mode = modes[0]
        seats = tuple(SeatSpec("human") for _ in range(mode.players))
        window.set_scene(CardTableScene(window, TableConfig(mode.key, seats, args.seed, pacing=instant)))
        window.pump()
        shots.append(window.screenshot(out / "pass-screen.png"))
    finally:
        window.close()
    for s in shots:
        print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
