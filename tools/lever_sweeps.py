"""The turn-1 sweeps of tools/early_wins.py at the hand's own limit (issue 16, points 2 and 3).

``early_wins.py --sweep`` pushes at the top of the hand's range (the edge grid at 0.8, 0.9 and all
of ``simulation.max_speed``, the steepest ridge at 0.9 and all of it: 0.4-0.5 m/s at 0.5). A lever
that changes the hand's limit must be swept at its own top speeds, or the sweep never makes the
pushes the lever allows. This runs the same two sweeps from the starting board of ``--players``
(2, 3, 4 or all; default 2), the first seat of each side moving first (as ``--sweep``), under the
limit of the assets it runs on (``KABUTO_ASSETS``), and says which speeds it swept. The limit
applies to every board, so a lever is swept on all three.

    KABUTO_ASSETS=/tmp/assets-speed07 python3 tools/lever_sweeps.py     # JSON, as --sweep prints
    KABUTO_ASSETS=/tmp/assets-speed06 python3 tools/lever_sweeps.py --players all
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import Any

from kabuto.lab.early_wins import (
    GRID_SPEEDS,
    RIDGE_SPEEDS,
    PushSample,
    _push,
    lineup,
    sweep_boards,
    top_speeds,
)
from kabuto.rules.game import Game
from physics import Materials


def sweep_board(players: int, ridge: bool = True, materials: Materials | None = None
                ) -> dict[str, Any]:
    """The edge grid (and with ``ridge`` the steepest ridge) from the ``players`` standard board's
    start at the limit of ``materials`` (default: the assets'), the first seat of each side moving
    first (:func:`early_wins.sweep_boards`: its lineup and seats, its speeds):
    ``{"max_speed", "grid_speeds", "ridge_speeds", "grid": {"tried", "wins", "winning"}, "ridge":
    ...}``."""
    limit = (materials or Materials.load()).sim.max_speed
    board = sweep_boards((players,), ridge=ridge, materials=materials)[f"{players}P"]
    return {"max_speed": limit, "grid_speeds": top_speeds(limit, GRID_SPEEDS),
            "ridge_speeds": top_speeds(limit, RIDGE_SPEEDS), **board}


def sweep_2p(ridge: bool = True, materials: Materials | None = None) -> dict[str, Any]:
    """:func:`sweep_board` of the 2P board (each seat moving first)."""
    return sweep_board(2, ridge, materials)


#: The large-disc reach sample (docs/rules-notes.md, "Tried earlier"): pushes from behind
#: each large disc, the entry within this many degrees of its bearing, the heading within this
#: many degrees of straight in, smalls and mediums, at 0.6 to 1.0 of the hand's top speed (0.3-0.5
#: m/s at 0.5).
REACH_ENTRY, REACH_HEADING, REACH_SPEEDS = 8.0, 12.0, (0.6, 1.0)


def large_reach(players: int, per_disc: int = 150, seed: int = 0,
                materials: Materials | None = None) -> dict[str, Any]:
    """How often one first push from behind a large disc leaves a large disc touching the centre
    circle (a Vice Grip would take it), on the ``players`` board at the limit of ``materials``:
    ``per_disc`` seeded pushes behind each large disc (seat 0 moving; stream
    ``large-reach-<players>-<seed>``) ``{"tried", "touching", "knocked_out", "max_speed"}``. The
    hand drives its piece until it is wholly in, and a disc in line ahead goes along at the hand's
    speed, so a faster hand reaches large discs standing farther in."""
    game = Game.new(players=players, wrestlers=lineup(players, "jade", "dora"), seed=0,
                    first_player=0, materials=materials)
    limit = game.materials.sim.max_speed
    lo, hi = top_speeds(limit, REACH_SPEEDS)
    rng = random.Random(f"large-reach-{players}-{seed}")
    larges = [p for p in game.world.pieces if p.kind == "large"]
    tried = touching = out = 0
    for disc in larges:
        bearing = math.degrees(math.atan2(disc.y, disc.x))
        for _ in range(per_disc):
            s = PushSample(rng.choice(("small", "medium")),
                           (bearing + rng.uniform(-REACH_ENTRY, REACH_ENTRY)) % 360.0,
                           rng.uniform(-REACH_HEADING, REACH_HEADING), rng.uniform(lo, hi))
            g = game.clone()
            if _push(g, s) is None:
                continue
            tried += 1
            circle, ids = set(g.world.in_circle()), {p.id for p in g.world.pieces}
            touching += any(p.id in circle for p in larges)
            out += any(p.id not in ids for p in larges)
    return {"max_speed": limit, "tried": tried, "touching": touching, "knocked_out": out}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="2", choices=("2", "3", "4", "all"),
                    help="the standard board swept (default 2; all: 2, 3 and 4)")
    ap.add_argument("--no-ridge", action="store_true", help="the edge grid alone")
    ap.add_argument("--large-reach", type=int, metavar="PER_DISC", default=0,
                    help="instead of the sweeps: PER_DISC seeded pushes from behind each large "
                         "disc, counting those that leave one touching the centre circle")
    args = ap.parse_args(argv)
    boards = (2, 3, 4) if args.players == "all" else (int(args.players),)
    if args.large_reach:
        print(json.dumps({f"{n}P": large_reach(n, args.large_reach) for n in boards}, indent=1))
        return 0
    print(json.dumps({f"{n}P": sweep_board(n, ridge=not args.no_ridge) for n in boards}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
