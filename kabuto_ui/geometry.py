"""Screen geometry shared by every view: :class:`Rect`. Pure arithmetic (no pyglet)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rect:
    """An axis-aligned screen rectangle in pixels (origin bottom-left, like pyglet and GL).

    >>> r = Rect(10, 20, 100, 50)
    >>> (r.right, r.top, r.cx, r.contains(110, 70), r.contains(111, 70))
    (110, 70, 60.0, True, False)
    >>> r.inset(5)
    Rect(x=15, y=25, w=90, h=40)
    """

    x: float
    y: float
    w: float
    h: float

    def contains(self, px: float, py: float) -> bool:
        """Whether the point is inside or on the edge."""
        return self.x <= px <= self.x + self.w and self.y <= py <= self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def right(self) -> float:
        return self.x + self.w

    def inset(self, d: float) -> Rect:
        """The rectangle shrunk by ``d`` pixels on every side."""
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)
