"""Where the ring sits on the screen: metres on the ring <-> pixels in the window.

The ring is drawn to scale from above, centred in its part of the window. World and screen both
have y pointing up, so no axis flips: a push heading counter-clockwise on the ring also turns
counter-clockwise on screen. Pure arithmetic (no pyglet) so it is tested on its own.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from kabuto_ui.geometry import Rect


@dataclass(frozen=True)
class RingTransform:
    """Maps ring metres to window pixels: ``screen = centre + scale * world``.

    ``fit`` is the world radius (metres) that must fit the area: the ring plus room for the pushing
    platform outside it.
    """

    cx: float
    cy: float
    scale: float  # pixels per metre

    @classmethod
    def fit(cls, area: Rect, world_radius: float, margin_px: float = 8.0) -> RingTransform:
        if world_radius <= 0:
            raise ValueError("world_radius must be positive")
        half = max(1.0, min(area.w, area.h) / 2 - margin_px)
        return cls(area.x + area.w / 2, area.y + area.h / 2, half / world_radius)

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return self.cx + self.scale * x, self.cy + self.scale * y

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.cx) / self.scale, (py - self.cy) / self.scale

    def length(self, metres: float) -> float:
        return metres * self.scale

    def matrix(self) -> tuple[float, ...]:
        """Column-major 4x4 view matrix (pyglet's Mat4 layout) doing the same as :meth:`to_screen`."""
        s = self.scale
        return (s, 0.0, 0.0, 0.0,
                0.0, s, 0.0, 0.0,
                0.0, 0.0, 1.0, 0.0,
                self.cx, self.cy, 0.0, 1.0)


def screen_rotation(angle_rad: float) -> float:
    """pyglet shapes rotate clockwise in degrees; world angles are counter-clockwise radians."""
    return -math.degrees(angle_rad)
