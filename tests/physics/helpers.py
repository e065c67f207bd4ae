"""Worlds for the physics tests."""
from __future__ import annotations

import math
import tomllib

import kabuto_assets
from physics import Materials, PieceState, World


def materials(**overrides: float) -> Materials:
    """The default materials, with the hand allowed up to 2 m/s.

    The game's limit (0.5 m/s: a careful push, not a flick) is a rule; these tests exercise the
    simulation itself, which is good to about 5 m/s, with hard shoves as well.
    """
    return Materials.load().with_overrides({"simulation.max_speed": 2.0, **overrides})


def board_2p(m: Materials | None = None) -> World:
    """The 2-player starting board, with large discs standing in for the two wrestlers."""
    with open(kabuto_assets.path("setups.toml"), "rb") as fh:
        boards = tomllib.load(fh)["boards"]["2"]
    pieces = []
    for kind in ("wrestler", "large", "medium", "small"):
        for i, (x, y) in enumerate(boards[kind]):
            pieces.append(PieceState(f"{kind[0].upper()}{i:02d}", "large" if kind == "wrestler" else kind,
                                     x, y))
    return World(m or materials(), pieces)


def max_overlap(world: World) -> float:
    """Deepest overlap between two pieces on the same level (metres)."""
    worst = 0.0
    levels = world.levels()
    for p in world.pieces:
        for _, depth in world._query(p.kind, (p.x, p.y, p.angle), levels[p.id]):
            if _ != p.id:
                worst = max(worst, depth)
    return worst


def slide_distance(v: float, mu: float, g: float = 9.81) -> float:
    return v * v / (2 * mu * g)


def dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
