"""Aiming a push with the mouse and keyboard: pure geometry, no pyglet.

The gesture (the window turns mouse events into these calls):

* **press** near the ring edge (inside or outside it): the platform jumps to that spot on the edge
  (``entry_deg`` = the pointer's angle around the ring);
* **drag**: the push heads from the platform towards the pointer, held within the platform's range
  (``simulation.heading_limit_deg`` either side of the inward normal). With Shift held, or with the
  right button, dragging slides the platform around the edge and keeps the heading;
* **release** after a drag: push. A press-and-release without dragging only moves the platform, so
  the aim can then be finished with the keyboard and pushed with Enter or Space.

Keyboard nudges (fine aim): Left/Right move the platform around the edge, Up/Down turn the heading,
[ and ] (or the mouse wheel) change the speed. Shift makes every nudge five times finer.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from kabuto_base.numbers import wrap_deg
from physics import Push
from physics.materials import SimSettings

#: Presses between these fractions of the ring radius from the centre grab the platform.
GRAB_INNER = 0.55
GRAB_OUTER = 1.9
#: A drag shorter than this (metres on the ring) is a click, not an aim.
MIN_DRAG = 0.004

ENTRY_STEP_DEG = 1.0
HEADING_STEP_DEG = 1.0
SPEED_STEP = 0.02
FINE = 0.2  # Shift multiplies every nudge by this


@dataclass(frozen=True)
class Aim:
    """Where and how the next push goes (the fields of :class:`physics.Push` minus the piece)."""

    entry_deg: float = 180.0
    heading_deg: float = 0.0
    speed: float = 0.3
    spin_deg: float = 0.0

    def push(self, piece: str, kind: str) -> Push:
        return Push(piece, kind, entry_deg=self.entry_deg, heading_deg=self.heading_deg,
                    speed=self.speed, spin_deg=self.spin_deg)

    @classmethod
    def from_push(cls, push: Push) -> Aim:
        return cls(push.entry_deg, push.heading_deg, push.speed, push.spin_deg)

    def direction(self) -> tuple[float, float]:
        a = math.radians(self.entry_deg + 180.0 + self.heading_deg)
        return math.cos(a), math.sin(a)

    def entry_point(self, ring_radius: float) -> tuple[float, float]:
        e = math.radians(self.entry_deg)
        return ring_radius * math.cos(e), ring_radius * math.sin(e)

    def exit_point(self, ring_radius: float) -> tuple[float, float]:
        """Where the straight push line leaves the ring again (the far end of the preview line)."""
        ex, ey = self.entry_point(ring_radius)
        dx, dy = self.direction()
        t = -2.0 * (ex * dx + ey * dy)  # the chord through the entry point along (dx, dy)
        return ex + t * dx, ey + t * dy


@dataclass(frozen=True)
class Limits:
    """The platform's range, from the materials' simulation settings (the defaults are the rules'
    own, :class:`~physics.materials.SimSettings`'s, so an aim never offers a push they refuse)."""

    heading_deg: float = SimSettings.heading_limit_deg
    min_speed: float = SimSettings.min_speed
    max_speed: float = SimSettings.max_speed

    @classmethod
    def from_materials(cls, materials) -> Limits:
        s = materials.sim
        return cls(s.heading_limit_deg, s.min_speed, s.max_speed)

    def clamp(self, aim: Aim) -> Aim:
        h = max(-self.heading_deg, min(self.heading_deg, aim.heading_deg))
        v = max(self.min_speed, min(self.max_speed, aim.speed))
        return replace(aim, entry_deg=wrap_deg(aim.entry_deg), heading_deg=h, speed=v)


def grabs_platform(x: float, y: float, ring_radius: float) -> bool:
    """Whether a press at world point (x, y) is near enough the edge to take the platform."""
    d = math.hypot(x, y)
    return GRAB_INNER * ring_radius <= d <= GRAB_OUTER * ring_radius


def entry_towards(aim: Aim, x: float, y: float, limits: Limits) -> Aim:
    """The platform moved to the edge spot nearest the world point (x, y); heading kept."""
    if x == 0 and y == 0:
        return aim
    return limits.clamp(replace(aim, entry_deg=math.degrees(math.atan2(y, x))))


def heading_towards(aim: Aim, x: float, y: float, ring_radius: float, limits: Limits) -> Aim:
    """The heading turned to point from the platform's entry point at the world point (x, y),
    held within the platform's range. A point too near the entry point leaves the aim as it is."""
    ex, ey = aim.entry_point(ring_radius)
    dx, dy = x - ex, y - ey
    if math.hypot(dx, dy) < MIN_DRAG:
        return aim
    inward = aim.entry_deg + 180.0
    heading = wrap_deg(math.degrees(math.atan2(dy, dx)) - inward)
    return limits.clamp(replace(aim, heading_deg=heading))


def nudge(aim: Aim, limits: Limits, entry: float = 0.0, heading: float = 0.0, speed: float = 0.0,
          fine: bool = False) -> Aim:
    """The aim moved by whole keyboard steps (``entry``/``heading``/``speed`` count steps)."""
    f = FINE if fine else 1.0
    return limits.clamp(replace(aim,
                                entry_deg=aim.entry_deg + entry * ENTRY_STEP_DEG * f,
                                heading_deg=aim.heading_deg + heading * HEADING_STEP_DEG * f,
                                speed=round(aim.speed + speed * SPEED_STEP * f, 4)))
