"""Numbers every package of the project checks the same way: is this a finite number? And angles
folded into one turn (:func:`wrap_deg`).

Data files, saved games, replays and the command line all hand us values of any type. A coordinate,
a speed or a mass must be an ``int`` or a ``float`` that is neither infinite nor NaN, and never a
``bool`` (Python counts ``True`` as the integer 1, which is never what a file meant):

    >>> is_finite_number(0.3), is_finite_number(2), is_finite_number(True)
    (True, True, False)
    >>> is_finite_number(float("nan")), is_finite_number("0.3")
    (False, False)
    >>> finite_number(2, "ring.radius")
    2.0
    >>> finite_number(float("inf"), "push.speed")
    Traceback (most recent call last):
    ...
    ValueError: push.speed: must be a finite number, got inf

Each layer raises its own ``ValueError`` subclass (``IllegalMove`` in the rules, ``TuneError`` in the
tuning tools) by passing it as ``error``.

    >>> wrap_deg(190.0), wrap_deg(-180.0), wrap_deg(540.0)
    (-170.0, -180.0, -180.0)
"""
from __future__ import annotations

import math
from typing import TypeGuard


def is_finite_number(v: object) -> TypeGuard[int | float]:
    """Whether ``v`` is an int or a float (not a bool) that is neither infinite nor NaN."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def finite_number(v: object, where: str, error: type[ValueError] = ValueError) -> float:
    """``v`` as a float; otherwise ``error("<where>: must be a finite number, got <v>")``."""
    if not is_finite_number(v):
        raise error(f"{where}: must be a finite number, got {v!r}")
    return float(v)


def wrap_deg(a: float) -> float:
    """An angle in degrees folded into [-180, 180)."""
    return (a + 180.0) % 360.0 - 180.0
