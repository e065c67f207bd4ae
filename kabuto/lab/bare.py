"""The baseline the physics benchmarks measure against: the same bodies, shapes and constraints as a
push in :class:`physics.World`, built with pymunk's own classes and stepped with nothing else."""
from __future__ import annotations

import math

import pymunk

from physics import Circle, Push, World, sim


def bare_loop(world: World, push: Push, steps: int) -> None:
    """The same bodies and constraints in plain pymunk, stepped ``steps`` times."""
    m = world.materials
    g = m.sim.gravity
    space = pymunk.Space()
    space.iterations = m.sim.iterations
    space.collision_slop = m.sim.collision_slop
    # Resting bodies sleep, as in the simulator (physics model 3).
    space.idle_speed_threshold = m.sim.rest_speed
    if sim.SLEEP:
        space.sleep_time_threshold = m.sim.rest_steps * m.sim.dt
    static = space.static_body

    def add(kind: str, x: float, y: float, a: float) -> pymunk.Body:
        t = m.kinds[kind]
        assert isinstance(t.shape, Circle)
        body = pymunk.Body(t.mass, pymunk.moment_for_circle(t.mass, 0, t.shape.radius))
        body.position = (x, y)
        body.angle = a
        shape = pymunk.Circle(body, t.shape.radius)
        shape.friction = math.sqrt(t.piece_friction)
        shape.elasticity = math.sqrt(t.restitution)
        pivot = pymunk.PivotJoint(static, body, (x, y))
        gear = pymunk.GearJoint(static, body, 0.0, 1.0)
        pivot.max_bias = gear.max_bias = 0.0
        pivot.max_force = t.table_friction * t.mass * g
        gear.max_force = pivot.max_force * 2 * t.shape.radius / 3
        space.add(body, shape, pivot, gear)
        return body

    for p in world.pieces:
        add(p.kind, p.x, p.y, p.angle)
    x, y, a = world.platform_pose(push)
    body = add(push.kind, x, y, a)
    dx, dy = push.direction()
    hand = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    hand.position = (x, y)
    hand.velocity = (dx * push.speed, dy * push.speed)
    groove = pymunk.GrooveJoint(static, body, (x, y), (x + dx, y + dy), (0, 0))
    grip = pymunk.PivotJoint(hand, body, (0, 0), (0, 0))
    grip.max_bias = 0.0
    grip.max_force = m.sim.hand_force
    hold = pymunk.GearJoint(static, body, 0.0, 1.0)
    hold.max_bias = 0.0
    space.add(hand, groove, grip, hold)
    dt = m.sim.dt
    for _ in range(steps):
        space.step(dt)
