"""Sliding and spinning friction are coupled under a flat piece (Farkas, Bartels, Unger & Wolf,
Phys. Rev. Lett. 90, 248302, 2003): a spinning disc slides farther, and both motions stop together.

The reference is computed here, independently of the simulator: Coulomb friction under uniform
pressure summed over a Cartesian grid of the disc, and the equations of motion integrated with
small explicit steps until the disc stops.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from physics import PieceState, World
from tests.physics.helpers import dist, materials, slide_distance


def _disc_grid(n: int = 101) -> tuple[np.ndarray, np.ndarray]:
    c = (np.arange(n) + 0.5) / n * 2 - 1
    x, y = np.meshgrid(c, c)
    inside = x * x + y * y <= 1
    return x[inside], y[inside]


def reference_slide(v0: float, w0: float, radius: float, mu: float, g: float = 9.81) -> float:
    """How far a disc sent off at v0 with spin w0 slides under flat-disc Coulomb friction (m)."""
    gx, gy = _disc_grid()
    gx, gy = gx * radius, gy * radius
    inertia = radius * radius / 2  # per unit mass
    v, w, travelled = v0, w0, 0.0
    h = 5e-5
    while v > 0 and (v > 1e-9 or abs(w) > 1e-6):
        ux, uy = v - w * gy, w * gx           # velocity of each bit of the contact area
        speed = np.hypot(ux, uy)
        speed[speed == 0] = 1.0
        a = mu * g * np.mean(ux / speed)                    # deceleration of the slide
        alpha = mu * g * np.mean((gx * uy - gy * ux) / speed) / inertia
        travelled += v * h
        v -= a * h
        w -= alpha * h
    return travelled


@pytest.mark.parametrize("spin, issue_mm", [(0.0, 15.3), (10.0, 15.8), (30.0, 20.4), (100.0, 50.4)])
def test_a_spinning_disc_slides_as_far_as_the_flat_disc_coulomb_model(spin, issue_mm):
    m = materials(**{"ring.radius": 1.0})
    small = m.kinds["small"]
    # The model, as the issue gives it for the 22 mm disc of the time (24 mm since issue 42).
    issue_disc = reference_slide(0.3, spin, 0.011, small.table_friction, m.sim.gravity)
    assert issue_disc * 1000 == pytest.approx(issue_mm, abs=0.15)
    expected = reference_slide(0.3, spin, small.shape.radius, small.table_friction, m.sim.gravity)
    world = World(m, [PieceState("S", "small", 0.0, 0.0)])
    result = world.launch({"S": (0.3, 0.0, spin)})
    end = world.piece("S")
    assert not result.capped
    assert dist((end.x, end.y), (0.0, 0.0)) == pytest.approx(expected, rel=0.05)


@pytest.mark.parametrize("speed, spin", [(0.3, 10.0), (0.3, 30.0), (0.2, 100.0), (0.05, 60.0)])
def test_sliding_and_spinning_stop_within_one_step_of_each_other(speed, spin):
    m = materials(**{"ring.radius": 1.0})
    world = World(m, [PieceState("S", "small", 0.0, 0.0)])
    result = world.launch({"S": (speed, 0.0, spin)}, sample_rate=m.sim.steps_per_second)
    traj = result.trajectory
    assert traj.rate == m.sim.steps_per_second            # one sample a step
    slid = np.flatnonzero(traj.speeds("S") > 1e-9)
    spun = np.flatnonzero(np.abs(traj.spins("S")) > 1e-9)
    assert len(slid) > 10 and len(spun) > 10
    assert abs(int(slid[-1]) - int(spun[-1])) <= 1


@pytest.mark.parametrize("speed", [0.3, 0.5])
def test_without_spin_a_disc_slides_v2_over_2_mu_g(speed):
    m = materials(**{"ring.radius": 1.0})
    world = World(m, [PieceState("M", "medium", 0.0, 0.0)])
    world.launch({"M": (0.0, speed, 0.0)})
    assert world.piece("M").y == pytest.approx(slide_distance(speed, 0.3), rel=0.03)


def test_a_spinning_polygon_slides_farther_than_a_still_one_and_both_stop_together():
    """Polygons use the disc's curves with their own mean contact radius (docs/physics.md):
    exact at pure sliding and pure spin, so a still polygon slides v^2/(2 mu g)."""
    square = {"polygons": [[[-0.012, -0.012], [0.012, -0.012], [0.012, 0.012], [-0.012, 0.012]]]}
    base = materials(**{"ring.radius": 1.0}).to_dict()
    base["kinds"]["square"] = {**base["kinds"]["small"], "shape": square}
    from physics import Materials
    m = Materials.from_dict(base)
    far = []
    for spin in (0.0, 40.0):
        world = World(m, [PieceState("Q", "square", 0.0, 0.0)])
        result = world.launch({"Q": (0.3, 0.0, spin)}, sample_rate=m.sim.steps_per_second)
        far.append(math.hypot(world.piece("Q").x, world.piece("Q").y))
        if spin:
            slid = np.flatnonzero(result.trajectory.speeds("Q") > 1e-9)
            spun = np.flatnonzero(np.abs(result.trajectory.spins("Q")) > 1e-9)
            assert abs(int(slid[-1]) - int(spun[-1])) <= 1
    assert far[0] == pytest.approx(slide_distance(0.3, 0.3), rel=0.03)
    assert far[1] > 1.1 * far[0]
