"""Table friction is Coulomb friction: slide distances, static friction, stacks press harder."""
from __future__ import annotations

import math

import pytest

from physics import PieceState, World
from tests.physics.helpers import dist, materials, slide_distance


@pytest.mark.parametrize("speed", [0.3, 0.9, 1.5])
def test_a_disc_sent_off_stops_within_3_percent_of_v2_over_2_mu_g(speed):
    m = materials()
    # 1.5 m/s slides 382 mm, more than the ring is wide: give it a wider ring to slide on.
    big = m.with_overrides({"ring.radius": 1.0})
    world = World(big, [PieceState("S", "small", -0.9, 0.0)])
    result = world.launch({"S": (speed, 0.0, 0.0)})
    end = world.piece("S")
    expected = slide_distance(speed, m.kinds["small"].table_friction, m.sim.gravity)
    travelled = dist((end.x, end.y), (-0.9, 0.0))
    assert not result.fell and not result.capped
    assert travelled == pytest.approx(expected, rel=0.03)
    assert abs(end.y) < 1e-9  # friction never pushes sideways


@pytest.mark.parametrize("mu", [0.15, 0.3, 0.6])
def test_slide_distance_scales_with_one_over_mu(mu):
    m = materials(table_friction=mu, **{"ring.radius": 1.0})
    world = World(m, [PieceState("M", "medium", 0.0, 0.0)])
    world.launch({"M": (0.0, 0.8, 0.0)})
    assert world.piece("M").y == pytest.approx(slide_distance(0.8, mu), rel=0.03)


def _push_with_force(force: float, steps: int = 480) -> float:
    """Where a medium disc is after ``steps`` steps of a steady push of ``force`` newtons."""
    m = materials(**{"ring.radius": 1.0})
    world = World(m, [PieceState("M", "medium", 0.0, 0.0)])
    result = world.press({"M": (force, 0.0, 0.0)}, steps * m.sim.dt, commit=False,
                         sample_rate=m.sim.steps_per_second)
    return float(result.trajectory.poses[steps, 0, 0])


def test_a_disc_at_rest_under_a_force_below_mu_m_g_does_not_move():
    m = materials()
    t = m.kinds["medium"]
    limit = t.table_friction * t.mass * m.sim.gravity
    # Not a creep of even a nanometre in one second (floating-point residue is ~1e-21 m).
    assert abs(_push_with_force(0.9 * limit)) < 1e-9
    assert abs(_push_with_force(0.5 * limit)) < 1e-9


def test_a_force_above_mu_m_g_accelerates_by_the_excess():
    m = materials()
    t = m.kinds["medium"]
    limit = t.table_friction * t.mass * m.sim.gravity
    f = 1.5 * limit
    x = _push_with_force(f, steps=240)
    time = 240 * m.sim.dt
    expected = 0.5 * (f - limit) / t.mass * time**2
    assert x == pytest.approx(expected, rel=0.02)


def test_a_spinning_disc_stops_turning_under_friction_torque():
    m = materials(**{"ring.radius": 1.0})
    world = World(m, [PieceState("L", "large", 0.0, 0.0)])
    w0 = 20.0
    world.launch({"L": (0.0, 0.0, w0)})
    t = m.kinds["large"]
    r = t.shape.radius
    # Torque mu m g (2R/3) against inertia m R^2 / 2: angle = w0^2 / (2 alpha).
    alpha = t.table_friction * m.sim.gravity * (2 * r / 3) / (r * r / 2)
    p = world.piece("L")
    assert p.angle == pytest.approx(w0 * w0 / (2 * alpha), rel=0.03)
    assert math.hypot(p.x, p.y) < 1e-9


def test_a_stack_slides_as_far_as_a_single_disc():
    """The stack's weight presses its base onto the table, so the whole stack decelerates at mu*g."""
    m = materials(**{"ring.radius": 1.0})
    world = World(m, [PieceState("B", "large", 0.0, 0.0), PieceState("T", "small", 0.0, 0.0, base="B")])
    world.launch({"B": (0.5, 0.0, 0.0), "T": (0.5, 0.0, 0.0)})
    base, top = world.piece("B"), world.piece("T")
    assert base.x == pytest.approx(slide_distance(0.5, 0.3), rel=0.03)
    assert top.base == "B" and top.x == pytest.approx(base.x, abs=1e-6)
