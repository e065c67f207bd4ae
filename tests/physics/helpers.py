"""Worlds for the physics tests (the boards and pushes they share with the benchmarks come from
:mod:`kabuto.lab.positions`)."""
from __future__ import annotations

import math

from kabuto.lab.positions import (
    allowed,
    board,
    board_2p,
    materials,
    random_push,
    relabelled,
    stacked_crowd,
)
from physics import World

__all__ = ["RING_200", "allowed", "board", "board_2p", "dist", "materials", "max_overlap", "random_push",
           "relabelled", "slide_distance", "stacked_crowd", "stop_distance"]


def max_overlap(world: World) -> float:
    """Deepest overlap between two pieces on the same level (metres)."""
    return world.max_overlap()


def slide_distance(v: float, mu: float, g: float = 9.81) -> float:
    return v * v / (2 * mu * g)


def stop_distance(v: float, stop: float) -> float:
    """How far a hand moving at ``v`` carries its piece while it slows at ``stop`` (m/s^2)."""
    return v * v / (2 * stop)


#: The 200 mm ring the mechanism tests' worlds are laid out on (the game's ring is 170 mm since
#: issue 42; what these tests check does not depend on the ring's size).
RING_200 = {"ring.radius": 0.100}


def dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
