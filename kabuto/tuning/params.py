"""Tuning parameters by name, and the ranges a sweep runs over.

A parameter is one of

* a material key that :meth:`physics.Materials.with_overrides` takes: ``FIELD`` (that field of
  every piece kind: ``table_friction``, ``piece_friction``, ``restitution``, ``mass``,
  ``thickness``), ``FIELD.KIND`` (``mass.small``), ``simulation.KEY`` or ``ring.KEY``;
* ``push.FIELD``: that field of every push (and launch) in the scenario (``push.speed``, ``push.heading_deg``,
  ``push.entry_deg``, ``push.spin_deg``).

A sweep range is written ``NAME=LO:HI:N`` (N evenly spaced values from LO to HI, both included),
``NAME=V1,V2,...`` (those values) or ``NAME=V`` (one value). Several ranges make a grid: every
combination, the first parameter varying slowest.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from kabuto.tuning.errors import TuneError
from kabuto.tuning.scenario import PUSH_FIELDS
from physics import Materials
from physics.bounds import check

MAX_RUNS = 100_000


def is_push_param(name: str) -> bool:
    return name.startswith("push.")


def split(overrides: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """(material overrides, push settings) of a mixed parameter dict, each in the given order."""
    mat = {k: v for k, v in overrides.items() if not is_push_param(k)}
    push = {k: v for k, v in overrides.items() if is_push_param(k)}
    return mat, push


def check_name(name: str, materials: Materials) -> None:
    """Raise TuneError unless ``name`` is a tuning parameter of ``materials`` (or ``push.FIELD``)."""
    if is_push_param(name):
        field = name.split(".", 1)[1]
        if field not in PUSH_FIELDS:
            raise TuneError(f"unknown parameter {name!r} (push parameters: "
                            f"{', '.join('push.' + f for f in PUSH_FIELDS)})")
        return
    try:
        current = current_value(materials, name)
        materials.with_overrides({name: current})
    except (ValueError, KeyError, AttributeError, TypeError) as exc:
        msg = str(exc)
        if msg.startswith(f"{name}:"):
            msg = msg[len(name) + 1:].strip()
        if msg.startswith("unknown parameter"):
            msg = ("use FIELD or FIELD.KIND with FIELD one of mass, thickness, table_friction, "
                   "piece_friction, restitution; or simulation.KEY, ring.KEY, push.FIELD")
        raise TuneError(f"unknown parameter {name!r} ({msg})") from None


def current_value(materials: Materials, name: str) -> float:
    """The value a material parameter has now (``FIELD`` alone: the mean over the kinds)."""
    try:
        return materials.value(name)
    except KeyError as exc:
        raise ValueError(f"{name}: unknown piece kind {exc.args[0]!r}") from None
    except AttributeError:
        raise ValueError(f"{name}: unknown parameter") from None


def apply(materials: Materials, overrides: dict[str, float]) -> Materials:
    """``materials`` with the material parameters among ``overrides`` changed (push ones ignored).

    Raises TuneError naming the parameter and the allowed range if a value is out of bounds.
    """
    mat, _ = split(overrides)
    if not mat:
        return materials
    try:
        return materials.with_overrides(mat)
    except ValueError as exc:
        shown = ", ".join(f"{k}={v:g}" for k, v in mat.items())
        raise TuneError(f"{shown}: {exc}") from None


def check_push_values(settings: dict[str, float], materials: Materials) -> None:
    """Raise TuneError if a push setting is outside what physics allows under ``materials``.

    Scenarios are physics experiments, not play: the game's hand-speed rule ("no flicking",
    ``simulation.max_speed``) does not apply, any forward speed does (the simulation is good to
    about 5 m/s)."""
    sim = materials.sim
    for k, v in settings.items():
        if k == "push.heading_deg" and abs(v) > sim.heading_limit_deg:
            raise TuneError(f"push.heading_deg={v:g}: beyond the platform's +/-{sim.heading_limit_deg:g} degrees")
        check(k, v, f"{k}={v:g}", TuneError)  # the physical bounds of physics.bounds


@dataclass(frozen=True)
class Range:
    """One swept parameter and the values it takes."""

    name: str
    values: tuple[float, ...]


def parse_range(text: str) -> Range:
    """``NAME=LO:HI:N``, ``NAME=V1,V2,..`` or ``NAME=V`` as a :class:`Range` (names not checked).

    Raises TuneError for a malformed range: no ``=``, a non-number, N below 2 or not whole, HI not
    above LO, repeated values.
    """
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not name or not spec:
        raise TuneError(f"bad range {text!r}: expected NAME=LO:HI:N, NAME=V1,V2,... or NAME=V")
    where = f"bad range {text!r}"
    if ":" in spec:
        parts = spec.split(":")
        if len(parts) != 3:
            raise TuneError(f"{where}: expected LO:HI:N (three numbers)")
        lo, hi = (_float(p, where) for p in parts[:2])
        try:
            n = int(parts[2])
        except ValueError:
            raise TuneError(f"{where}: N must be a whole number, got {parts[2]!r}") from None
        if n < 2:
            raise TuneError(f"{where}: N must be at least 2 (use {name}=VALUE for one value)")
        if n > MAX_RUNS:  # before any value is made: 1e12 values would not fit in memory
            raise TuneError(f"{where}: {n} values; a sweep makes at most {MAX_RUNS} runs")
        if not hi > lo:
            raise TuneError(f"{where}: HI must be greater than LO")
        # linspace hits both ends exactly. Interior values are rounded to 12 significant digits
        # so that 0.2:1.2:11 reads 0.9, not 0.8999999999999999 (unless that would merge values).
        raw = [float(v) for v in np.linspace(lo, hi, n)]
        tidy = [raw[0], *(float(f"{v:.12g}") for v in raw[1:-1]), raw[-1]]
        values = tuple(tidy if all(a < b for a, b in itertools.pairwise(tidy)) else raw)
    else:
        if spec.count(",") >= MAX_RUNS:
            raise TuneError(f"{where}: more than {MAX_RUNS} values; a sweep makes at most {MAX_RUNS} runs")
        values = tuple(_float(p, where) for p in spec.split(","))
        if len(set(values)) != len(values):
            raise TuneError(f"{where}: a value is repeated")
    return Range(name, values)


def _float(s: str, where: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise TuneError(f"{where}: {s.strip()!r} is not a number") from None
    if not math.isfinite(v):
        raise TuneError(f"{where}: {s.strip()!r} is not a finite number")
    return v


@dataclass(frozen=True)
class Grid:
    """Every combination of the swept values, the first parameter varying slowest."""

    ranges: tuple[Range, ...]

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.ranges]

    def __len__(self) -> int:
        return math.prod(len(r.values) for r in self.ranges)

    def points(self) -> list[dict[str, float]]:
        return [dict(zip(self.names, combo, strict=True))
                for combo in itertools.product(*(r.values for r in self.ranges))]


def make_grid(specs: list[str], materials: Materials) -> Grid:
    """Parse ``--param`` specs into a Grid and check it against ``materials`` before anything runs:
    every name known, no name twice, every value within the bounds physics accepts."""
    if not specs:
        raise TuneError("no --param given: name at least one parameter to sweep")
    ranges = [parse_range(s) for s in specs]
    seen = set()
    for r in ranges:
        if r.name in seen:
            raise TuneError(f"parameter {r.name!r} is given twice")
        seen.add(r.name)
        check_name(r.name, materials)
    grid = Grid(tuple(ranges))
    if len(grid) > MAX_RUNS:
        raise TuneError(f"the grid has {len(grid)} runs; at most {MAX_RUNS} (narrow the ranges)")
    # Bounds are intervals, so checking each parameter's extremes on its own catches every value;
    # the extremes together then catch limits between parameters (min_speed <= max_speed).
    for r in ranges:
        for v in (min(r.values), max(r.values)):
            m = apply(materials, {r.name: v})
            check_push_values({r.name: v} if is_push_param(r.name) else {}, m)
    for pick in (min, max):
        corner = {r.name: pick(r.values) for r in ranges}
        m = apply(materials, corner)
        check_push_values(split(corner)[1], m)
    return grid
