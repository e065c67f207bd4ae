"""A thin owner of raw Chipmunk objects for one episode: a Space, its bodies, shapes and joints.

pymunk's Python objects cost more than the physics a push needs: building the 2-player crowd
through them (28 bodies, 56 joints, each with weak references, dictionaries and a ``__setattr__``
hook) and freeing it again took about a third of a preview. An :class:`Episode
<physics.sim.Episode>` needs none of what they add, so it calls Chipmunk through pymunk's own
compiled bindings (``pymunk._chipmunk``: the same library, the same calls in the same order, so
the same numbers) and keeps the pointers here.

Ownership: everything created here is freed once, by :meth:`RawSpace.close` or, failing that, when
the RawSpace is garbage collected - the Space first (destroying it wakes its sleeping bodies, so
they must still exist), then shapes, joints and bodies, including those removed on the way.

>>> space = RawSpace(iterations=10, collision_slop=0.0, idle_speed=0.0, sleep_time=math.inf)
>>> body = space.body(1.0, 1.0, 0.5, 0.0, 0.0, row=0)
>>> _ = space.circle(body, 0.1, friction=0.0, elasticity=0.0, level_bit=1)
>>> lib.cpBodySetVelocity(body, (1.0, 0.0)); lib.cpSpaceStep(space.ptr, 0.5)
>>> round(lib.cpBodyGetPosition(body).x, 3)
1.0
>>> space.close()
"""
from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Sequence
from typing import Any

from pymunk._chipmunk import ffi, lib

Ptr = Any  # a cffi pointer to a Chipmunk object

#: userData of bodies that are not pieces (the static body, the hand): no canonical row.
NO_ROW = 2**31 - 1

_ALL = 0xFFFFFFFF


def _free(space: Ptr, shapes: list[Ptr], joints: list[Ptr], bodies: list[Ptr]) -> None:
    lib.cpSpaceFree(space)
    for s in shapes:
        lib.cpShapeFree(s)
    for j in joints:
        lib.cpConstraintFree(j)
    for b in bodies:
        lib.cpBodyFree(b)


class RawSpace:
    """A Chipmunk Space and everything in it, created and freed here.

    Every body's ``userData`` holds its row (see :meth:`set_row`), which pymunk.batch reads out
    as the body's id: a step's bodies come back with the rows they belong in, in whatever order
    Chipmunk lists them (awake bodies first).
    """

    def __init__(self, iterations: int, collision_slop: float, idle_speed: float,
                 sleep_time: float):
        self.ptr = lib.cpSpaceNew()
        lib.cpSpaceSetIterations(self.ptr, iterations)
        lib.cpSpaceSetCollisionSlop(self.ptr, collision_slop)
        lib.cpSpaceSetIdleSpeedThreshold(self.ptr, idle_speed)
        lib.cpSpaceSetSleepTimeThreshold(self.ptr, sleep_time)
        self.static = lib.cpSpaceGetStaticBody(self.ptr)
        self.set_row(self.static, NO_ROW)
        self._shapes: list[Ptr] = []
        self._joints: list[Ptr] = []
        self._bodies: list[Ptr] = []
        self._finalizer = weakref.finalize(self, _free, self.ptr, self._shapes, self._joints,
                                           self._bodies)

    def close(self) -> None:
        """Free the Space and everything created in it (at most once)."""
        self._finalizer()

    # ----- bodies ----------------------------------------------------------------------------------
    def body(self, mass: float, moment: float, x: float, y: float, angle: float, row: int) -> Ptr:
        b = lib.cpBodyNew(mass, moment)
        self._bodies.append(b)
        lib.cpBodySetPosition(b, (x, y))
        lib.cpBodySetAngle(b, angle)
        lib.cpBodySetUserData(b, _row_pointer(row))
        lib.cpSpaceAddBody(self.ptr, b)
        return b

    def kinematic(self, x: float, y: float, vx: float, vy: float) -> Ptr:
        b = lib.cpBodyNewKinematic()
        self._bodies.append(b)
        lib.cpBodySetPosition(b, (x, y))
        lib.cpBodySetVelocity(b, (vx, vy))
        self.set_row(b, NO_ROW)
        lib.cpSpaceAddBody(self.ptr, b)
        return b

    def static_body(self) -> Ptr:
        """A static body of one's own in the Space's list of bodies (as pymunk's Space has)."""
        b = lib.cpBodyNewStatic()
        self._bodies.append(b)
        self.set_row(b, NO_ROW)
        lib.cpSpaceAddBody(self.ptr, b)
        return b

    @staticmethod
    def set_row(body: Ptr, row: int) -> None:
        lib.cpBodySetUserData(body, _row_pointer(row))

    def remove_body(self, body: Ptr) -> None:
        """Take a body out of the Space (it is freed with the rest)."""
        lib.cpSpaceRemoveBody(self.ptr, body)

    # ----- shapes ----------------------------------------------------------------------------------
    def circle(self, body: Ptr, radius: float, friction: float, elasticity: float,
               level_bit: int) -> Ptr:
        return self.piece_shapes(body, radius, [], friction, elasticity, level_bit)[0]

    @staticmethod
    def vertices(points: Sequence[tuple[float, float]]) -> Ptr:
        """A polygon's vertices as Chipmunk reads them (it copies them: one array serves every
        polygon with these vertices)."""
        return ffi.new("cpVect[]", [tuple(v) for v in points])

    def piece_shapes(self, body: Ptr, radius: float | None, parts: list[Ptr], friction: float,
                     elasticity: float, level_bit: int) -> list[Ptr]:
        """A piece's shapes on ``body``: a disc of ``radius``, else one polygon per vertex array
        of ``parts`` (:meth:`vertices`), in the Space (a Space's build makes one call per piece)."""
        # pymunk.Circle and pymunk.Poly (no transform, no radius) make the same calls; each part
        # is made and added before the next, as pymunk's shapes were.
        if radius is not None:
            return [self._add_shape(lib.cpCircleShapeNew(body, radius, (0.0, 0.0)), friction,
                                    elasticity, level_bit)]
        return [self._add_shape(lib.cpPolyShapeNew(body, len(v), v, _IDENTITY, 0.0), friction,
                                elasticity, level_bit) for v in parts]

    def support(self, other: Ptr, body: Ptr, local: tuple[float, float] | None,
                max_force: float, max_torque: float) -> list[Ptr]:
        """The friction joints holding ``body`` on ``other`` (the ring surface's static body, or
        the piece it rides on): a pivot at the body's centre - at its world position when
        ``local`` is None (Chipmunk works out the anchors), else at ``local`` in ``other``'s frame
        - and a gear, neither with bias, their force and torque clamped."""
        if local is None:
            here = lib.cpBodyGetPosition(body)
            pivot = self.pivot_at(other, body, (here.x, here.y))
        else:
            pivot = self.pivot(other, body, local, (0.0, 0.0))
        gear = self.gear(other, body, 0.0, 1.0)
        lib.cpConstraintSetMaxBias(pivot, 0.0)
        lib.cpConstraintSetMaxBias(gear, 0.0)
        lib.cpConstraintSetMaxForce(pivot, max_force)
        lib.cpConstraintSetMaxForce(gear, max_torque)
        return [pivot, gear]

    def _add_shape(self, shape: Ptr, friction: float, elasticity: float, level_bit: int) -> Ptr:
        self._shapes.append(shape)
        lib.cpShapeSetFriction(shape, friction)
        lib.cpShapeSetElasticity(shape, elasticity)
        self.set_level(shape, level_bit)
        lib.cpSpaceAddShape(self.ptr, shape)
        return shape

    @staticmethod
    def set_level(shape: Ptr, level_bit: int) -> None:
        """Shapes collide only with shapes of their own level (one category bit per level)."""
        lib.cpShapeSetFilter(shape, _filter(level_bit))

    def remove_shape(self, shape: Ptr) -> None:
        lib.cpSpaceRemoveShape(self.ptr, shape)

    # ----- joints ----------------------------------------------------------------------------------
    def pivot_at(self, a: Ptr, b: Ptr, point: tuple[float, float]) -> Ptr:
        """A pivot joint at the world point ``point`` (anchors worked out by Chipmunk)."""
        return self._add_joint(lib.cpPivotJointNew(a, b, point))

    def pivot(self, a: Ptr, b: Ptr, anchor_a: tuple[float, float],
              anchor_b: tuple[float, float]) -> Ptr:
        return self._add_joint(lib.cpPivotJointNew2(a, b, anchor_a, anchor_b))

    def gear(self, a: Ptr, b: Ptr, phase: float, ratio: float) -> Ptr:
        return self._add_joint(lib.cpGearJointNew(a, b, phase, ratio))

    def groove(self, a: Ptr, b: Ptr, groove_a: tuple[float, float], groove_b: tuple[float, float],
               anchor_b: tuple[float, float]) -> Ptr:
        return self._add_joint(lib.cpGrooveJointNew(a, b, groove_a, groove_b, anchor_b))

    def _add_joint(self, joint: Ptr) -> Ptr:
        self._joints.append(joint)
        lib.cpSpaceAddConstraint(self.ptr, joint)
        return joint

    def remove_joint(self, joint: Ptr) -> None:
        lib.cpSpaceRemoveConstraint(self.ptr, joint)


_IDENTITY = ffi.new("cpTransform *", (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))[0]


@functools.lru_cache(maxsize=1024)
def _row_pointer(row: int) -> Ptr:
    """A row as the ``void *`` userData holds (made once: a cast costs as much as the call)."""
    return ffi.cast("void *", row)


@functools.lru_cache(maxsize=64)
def _filter(level_bit: int) -> Ptr:
    """The collision filter of one level: group 0, that level's category bit and mask."""
    return ffi.new("cpShapeFilter *", (0, level_bit, level_bit))[0]


def shapes_depth(a: Ptr, a_round: bool, b: Ptr, b_round: bool) -> float:
    """How deep two raw shapes overlap (negative: the gap; -inf: not in contact). Chipmunk
    reports a polygon-against-circle contact with the distance's sign flipped when the polygon is
    given first, so the circle always goes first."""
    if b_round and not a_round:
        a, b = b, a
    points = lib.cpShapesCollide(a, b)
    return max((-points.points[i].distance for i in range(points.count)), default=-math.inf)
