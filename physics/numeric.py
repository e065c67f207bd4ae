"""The one bisection the geometry searches share: where along a line does something first happen?

Where a piece on the platform is wholly off the ring, where a slide first hits something, where a
piece first clears another: each is a distance ``s`` along a line at which a yes/no question turns
from no to yes. :func:`bisect` halves the bracket a fixed number of times, so the answer is the
same to the bit on every run (replays depend on that):

    >>> lo, hi = bisect(lambda s: s * s >= 2.0, 0.0, 2.0, steps=40)
    >>> round(hi, 9), hi * hi >= 2.0 > lo * lo
    (1.414213562, True)
"""
from __future__ import annotations

from collections.abc import Callable


def bisect(reached: Callable[[float], bool], lo: float, hi: float, steps: int) -> tuple[float, float]:
    """Narrow ``[lo, hi]`` around where ``reached`` turns true, halving it ``steps`` times.

    ``reached`` should be false at ``lo`` and true at ``hi``. It is called once per step, at the
    midpoint, so a question with a side effect (try a move; it stays made if it fits) sees the
    same calls as a hand-written loop. Returns the final ``(lo, hi)``.
    """
    for _ in range(steps):
        mid = (lo + hi) / 2
        if reached(mid):
            hi = mid
        else:
            lo = mid
    return lo, hi
