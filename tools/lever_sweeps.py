"""The 2P turn-1 sweeps of tools/early_wins.py at the hand's own limit (issue 16, points 2 and 3).

``early_wins.py --sweep`` pushes at fixed speeds (the edge grid at 0.4, 0.45 and 0.5 m/s, the
steepest ridge at 0.45 and 0.5 m/s): the top of a 0.5 m/s hand. A lever that raises the hand's
limit (``simulation.max_speed``) must be swept at its own top speeds, or the sweep never makes the
pushes the lever allows. This runs the same two sweeps from the 2P starting board, each seat
moving first, with the speeds scaled by ``max_speed / 0.5``: at the shipped limit they are exactly
``--sweep``'s pushes (and give its counts).

    KABUTO_ASSETS=/tmp/assets-speed07 python3 tools/lever_sweeps.py     # JSON, as --sweep prints
"""
from __future__ import annotations

import functools
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from early_wins import edge_sweep, lineup, steepest_ridge  # noqa: E402

from kabuto.rules.game import Game  # noqa: E402
from physics import Materials  # noqa: E402

#: The hand's limit the sweeps' fixed speeds were chosen for (m/s).
SWEPT_LIMIT = 0.5
#: The sweeps' speeds (edge grid, steepest ridge), at that limit.
GRID_SPEEDS = (0.4, 0.45, 0.5)
RIDGE_SPEEDS = (0.45, 0.5)


def scaled(speeds: tuple[float, ...], max_speed: float) -> tuple[float, ...]:
    """``speeds`` (chosen for a 0.5 m/s hand) as the same fractions of ``max_speed``.

    >>> scaled((0.4, 0.45, 0.5), 0.5)
    (0.4, 0.45, 0.5)
    >>> scaled((0.45, 0.5), 0.7)
    (0.63, 0.7)
    """
    return tuple(round(v * max_speed / SWEPT_LIMIT, 9) for v in speeds)


def sweep_2p(ridge: bool = True, materials: Materials | None = None) -> dict[str, Any]:
    """The edge grid (and with ``ridge`` the steepest ridge) from the 2P starting board, each seat
    moving first, at the limit of ``materials`` (default: the assets'): ``{"grid": {"tried",
    "wins", "winning"}, "ridge": ..., "max_speed", "grid_speeds", "ridge_speeds"}``."""
    players = 2
    wrestlers = lineup(players, "jade", "dora")

    def start(seat: int) -> Game:
        return Game.new(players=players, wrestlers=wrestlers, seed=0, first_player=seat,
                        materials=materials)

    limit = start(0).materials.sim.max_speed
    grid, top = scaled(GRID_SPEEDS, limit), scaled(RIDGE_SPEEDS, limit)
    sweeps = [("grid", functools.partial(edge_sweep, speeds=grid))]
    if ridge:
        sweeps.append(("ridge", functools.partial(steepest_ridge, speeds=top)))
    out: dict[str, Any] = {"max_speed": limit, "grid_speeds": grid, "ridge_speeds": top}
    for name, sweep in sweeps:
        found: list[dict[str, Any]] = []
        tried = 0
        for seat in range(players):
            wins, t = sweep(start(seat))
            tried += t
            found += [{"seat": seat, **asdict(w)} for w in wins]
        out[name] = {"tried": tried, "wins": len(found), "winning": found}
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print(json.dumps({"2P": sweep_2p(ridge="--no-ridge" not in args)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
