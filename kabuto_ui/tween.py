"""Easing, and slides: an item moving from one rectangle to another over a fixed time, eased (a
card to its new place). Pure arithmetic, no pyglet."""
from __future__ import annotations

from dataclasses import dataclass

Box = tuple[float, float, float, float]  # x, y, w, h


def ease(u: float) -> float:
    """Smoothstep: starts and stops gently; ``u`` is clamped to 0..1.

    >>> ease(0.0), ease(0.5), ease(1.0), ease(2.0)
    (0.0, 0.5, 1.0, 1.0)
    """
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


@dataclass
class Tween:
    """A box sliding from ``start`` to ``end`` over ``duration`` seconds; :meth:`now` is where it is."""

    start: Box
    end: Box
    duration: float
    t: float = 0.0

    @property
    def done(self) -> bool:
        return self.t >= self.duration

    def advance(self, dt: float) -> None:
        self.t = min(self.duration, self.t + max(0.0, dt))

    def now(self) -> Box:
        if self.duration <= 0:
            return self.end
        e = ease(self.t / self.duration)
        return tuple(a + (b - a) * e for a, b in zip(self.start, self.end, strict=True))  # type: ignore[return-value]
