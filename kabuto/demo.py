"""``kabuto demo``: one push into the 2-player starting crowd, headless; prints what fell."""
from __future__ import annotations

import argparse
import tomllib

from physics import Materials, PieceState, Push, World, assets_dir


def starting_world(materials: Materials) -> World:
    """The 2-player starting board with large discs standing in for the wrestler pieces."""
    with open(assets_dir() / "setups.toml", "rb") as fh:
        board = tomllib.load(fh)["boards"]["2"]
    pieces = [PieceState(f"{kind[0].upper()}{i + 1:02d}", "large" if kind == "wrestler" else kind, x, y)
              for kind in ("wrestler", "large", "medium", "small")
              for i, (x, y) in enumerate(board[kind])]
    return World(materials, pieces)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="kabuto demo", description=__doc__)
    ap.add_argument("--kind", default="large", choices=["small", "medium", "large"],
                    help="the disc to push (default large)")
    ap.add_argument("--entry", type=float, default=180.0,
                    help="where the platform touches the ring, degrees round it (default 180)")
    ap.add_argument("--heading", type=float, default=0.0,
                    help="push direction off the inward normal, degrees (default 0)")
    ap.add_argument("--speed", type=float, default=1.2, help="hand speed in m/s (default 1.2)")
    args = ap.parse_args(argv)
    world = starting_world(Materials.load())
    try:
        result = world.push(Push("P", args.kind, args.entry, args.heading, args.speed))
    except ValueError as exc:
        ap.exit(2, f"kabuto demo: {exc}\n")
    print(f"pushed a {args.kind} disc from {args.entry:g} deg, heading {args.heading:+g} deg, "
          f"at {args.speed:g} m/s: {result.steps} steps, {result.time:.3f} s simulated")
    if not result.fell:
        print("nothing fell")
    for f in result.fell:
        print(f"  {f.piece} ({f.kind}) fell at {f.time:.3f} s"
              + (f", carried by {f.carried_by}" if f.carried_by else ""))
    return 0
