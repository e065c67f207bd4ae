"""Coupled sliding and spinning friction of a flat piece on a flat surface.

Under a flat piece pressed down with uniform pressure, every bit of the contact area feels a
Coulomb force ``mu * p * dA`` against its own velocity. A piece sliding at ``v`` while it spins at
``w`` has bits moving in every direction, so the total force is less than ``mu * N`` and the total
torque less than ``mu * N * r_mean``: a spinning disc slides farther, a sliding disc spins longer,
and the two stop together (Farkas, Bartels, Unger & Wolf, "Frictional coupling between sliding and
spinning motion", Phys. Rev. Lett. 90, 248302, 2003).

For a disc of radius ``R`` both depend only on ``eps = v / (w R)``. This module integrates the disc
once, numerically (a polar midpoint grid), and tabulates

* ``force_fraction(eps)``  = |F| / (mu N)            (0 for pure spin, 1 for pure sliding)
* ``torque_fraction(eps)`` = |T| / (mu N r_mean)     (1 for pure spin, 0 for pure sliding)

over ``u = eps / (1 + eps)`` in [0, 1], read back with linear interpolation.

>>> f, t = fractions(np.array([0.0, 1e9]))
>>> [round(float(x), 3) for x in f], [round(float(x), 3) for x in t]
([0.0, 1.0], [1.0, 0.0])

A polygon piece uses the disc's curves with its own ``r_mean`` (the disc of the same mean contact
radius, ``R_eq = 3 r_mean / 2``): exact at both ends (pure sliding: ``mu N``; pure spin:
``mu N r_mean`` for any outline), approximate in between; docs/physics.md says why that is enough.
"""
from __future__ import annotations

import functools
import math

import numpy as np

_TABLE_SIZE = 129


@functools.lru_cache(maxsize=1)
def _table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(u, force fraction, torque fraction) for the unit disc, u = eps / (1 + eps).

    Every number here feeds every push, so it is computed with operations whose results IEEE 754
    fixes and no library version: element-wise arithmetic and square roots, ``math.cos`` and
    ``math.sin`` of 64 angles, and ``math.fsum`` for the sums (numpy's reductions and its vector
    sin, cos and hypot kernels depend on the numpy build and the CPU).
    """
    # Mirror symmetry (x -> -x leaves both sums unchanged): integrate the half disc x > 0.
    nr, na = 64, 64
    r = (np.arange(nr) + 0.5) / nr
    a = [(k + 0.5) * (math.pi / na) - math.pi / 2 for k in range(na)]
    cos_a, sin_a = np.array([math.cos(t) for t in a]), np.array([math.sin(t) for t in a])
    x, y = (r[:, None] * cos_a[None, :]).ravel(), (r[:, None] * sin_a[None, :]).ravel()
    weight = np.repeat(r, na)  # dA = r dr da; the constant factor cancels in the normalisation
    total = math.fsum(weight.tolist())
    u = np.arange(_TABLE_SIZE) / (_TABLE_SIZE - 1)
    # Slide along +x at eps (in units of w R), spin +1: a point's velocity is (eps - y, x).
    force, torque = [], []
    for e in (u[:-1] / (1.0 - u[:-1])).tolist():
        vx, vy = e - y, x
        speed = np.sqrt(vx * vx + vy * vy)
        force.append(abs(math.fsum((weight * vx / speed).tolist())) / total)
        torque.append(math.fsum((weight * (x * vy - y * vx) / speed).tolist()) / total)
    f, t = np.array([*force, 1.0]), np.array([*torque, 0.0])
    # Normalise the torque by the pure-spin value, which is r_mean = 2R/3 for the unit disc.
    t /= t[0]
    return u, f, t


def fractions(eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Force and torque fractions at ``eps = v / (w R_eq)`` (element-wise; ``inf`` = sliding)."""
    u_tab, f_tab, t_tab = _table()
    with np.errstate(invalid="ignore"):
        u = eps / (1.0 + eps)
    u = np.where(np.isfinite(eps), u, 1.0)
    return np.interp(u, u_tab, f_tab), np.interp(u, u_tab, t_tab)


@functools.lru_cache(maxsize=1)
def tables() -> tuple[list[float], list[float]]:
    """The force and torque fractions at ``u = k / (len - 1)``, k = 0 .. len - 1, as lists."""
    _, f_tab, t_tab = _table()
    return f_tab.tolist(), t_tab.tolist()
