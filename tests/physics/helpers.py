"""Worlds for the physics tests."""
from __future__ import annotations

import math

from kabuto.rules.boards import stand_in_wrestlers, starting_board
from physics import Materials, World


def materials(**overrides: float) -> Materials:
    """The default materials, with ``overrides`` (keys as :meth:`Materials.with_overrides` takes).

    Physics simulates any forward speed (the game's "no flicking" limit is a rule of
    :mod:`kabuto.rules`), so these tests shove hard as well: the simulation is good to about 5 m/s.
    """
    return Materials.load().with_overrides(overrides)


def board_2p(m: Materials | None = None) -> World:
    """The game's 2-player starting board, with large discs standing in for the two wrestlers."""
    return World(m or materials(), starting_board(2, stand_in_wrestlers(2, "large")))


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
