"""The one check every reader of numbers in the project shares: is this a finite number?

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
