"""How far a re-simulated action may land from its recording and still be the same game.

A replay re-simulated with another CPython, CPU, compiler or Chipmunk build can end a push a
rounding error away from the recorded at-rest state (docs/replay-format.md, "On another
machine"). Every push, move and edit records that state (its ``changes``), so nothing has to be
re-simulated bit for bit: the viewer and resume go on from the recorded state, and
``kabuto replay --verify`` gives one of three verdicts:

* **bit-identical**: every state hash is the recorded one;
* **identical within rounding**: some differ, but every piece is within :data:`ROUNDING_MM` mm
  and :data:`ROUNDING_DEG` degrees of where it was recorded, on the ring in both, of the same
  kind and on the same base;
* **diverged**: the first action that is not.

>>> from physics import PieceState
>>> a = PieceState("S01", "small", 0.01, 0.02, 0.5)
>>> within_rounding({"S01": a}, {"S01": PieceState("S01", "small", 0.01 + 4e-16, 0.02, 0.5)})
True
>>> within_rounding({"S01": a}, {"S01": PieceState("S01", "small", 0.01 + 2e-9, 0.02, 0.5)})
False
"""
from __future__ import annotations

import math

from physics import PieceState

#: The largest difference in position (millimetres) that is still rounding.
ROUNDING_MM = 1e-6
#: The largest difference in angle (degrees) that is still rounding.
ROUNDING_DEG = 1e-6


def same_layout(got: dict[str, PieceState], want: dict[str, PieceState]) -> bool:
    """The same pieces on the ring, of the same kinds, on the same bases (poses aside)."""
    return got.keys() == want.keys() and all(
        (g.kind, g.base) == (want[pid].kind, want[pid].base) for pid, g in got.items())


def largest_drift(got: dict[str, PieceState], want: dict[str, PieceState]) -> tuple[float, float]:
    """(mm, degrees): the largest distance and turn between the two poses of any piece (both
    layouts the same, see :func:`same_layout`)."""
    mm = deg = 0.0
    for pid, g in got.items():
        w = want[pid]
        mm = max(mm, math.hypot(g.x - w.x, g.y - w.y) * 1000.0)
        deg = max(deg, abs(math.degrees(g.angle - w.angle)))
    return mm, deg


def within_rounding(got: dict[str, PieceState], want: dict[str, PieceState]) -> bool:
    """Whether ``got`` is ``want`` to within rounding (the "identical within rounding" verdict)."""
    if not same_layout(got, want):
        return False
    mm, deg = largest_drift(got, want)
    return mm <= ROUNDING_MM and deg <= ROUNDING_DEG


def drift_text(mm: float, deg: float) -> str:
    """``at most 1.9e-14 mm and 3e-12 degrees``: a drift as `kabuto replay --verify` states it."""
    return f"at most {mm:.2g} mm and {deg:.2g} degrees"
