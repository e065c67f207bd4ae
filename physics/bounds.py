"""Physical bounds: the one table of what every material and simulation setting read from a file
may be, and the one function that checks a value against it.

Every loader of physics data goes through here: ``assets/materials.toml``, tuning profiles, the
materials tables inside replays and saved games, wrestler cards and scenarios (all of them call
:meth:`physics.Materials.from_dict`, :func:`physics.materials.piece_type_from_dict` or
:func:`physics.shapes.shape_from_json`). A value outside its bounds is refused with one line naming
the field and the bounds, never passed on to Chipmunk (which aborts the whole process on, say, a
polygon with vertices at 1e300: "Moment of Inertia must be positive").

Why these numbers: the game is played with wooden pieces a few centimetres across on a ring about
20 cm across. The bounds are generous around that (a piece from half a millimetre to half a metre,
a ring up to 10 m), but tight enough that every value keeps Chipmunk's arithmetic well inside
double precision and that one push costs a bounded number of steps.

>>> check("thickness", 0.006, "kinds.small.thickness")
0.006
>>> check("simulation.iterations", 0, "simulation.iterations")
Traceback (most recent call last):
...
ValueError: simulation.iterations: must be between 1 and 100, got 0
>>> check("shape.radius", 1e-300, "kinds.small.shape.circle")
Traceback (most recent call last):
...
ValueError: kinds.small.shape.circle: must be between 0.0005 and 0.5 (metres), got 1e-300
"""
from __future__ import annotations

from dataclasses import dataclass

from kabuto_base.numbers import finite_number


@dataclass(frozen=True)
class Bound:
    """The closed interval a setting must lie in, its unit (for messages) and whether it is whole."""

    lo: float
    hi: float
    unit: str = ""
    integer: bool = False


#: field -> bounds. Material fields are per piece kind; ``simulation.*`` and ``ring.*`` are the
#: sections of a materials table; ``shape.*`` are outline limits (see physics.shapes).
BOUNDS: dict[str, Bound] = {
    # piece material
    "thickness": Bound(1e-4, 0.2, "metres"),
    "mass": Bound(1e-5, 10.0, "kg"),
    "density": Bound(1.0, 30000.0, "kg/m^3"),
    "table_friction": Bound(0.0, 5.0),
    "piece_friction": Bound(0.0, 5.0),
    "restitution": Bound(0.0, 1.0),
    # outlines: a piece from half a millimetre to half a metre across its bounding circle
    "shape.radius": Bound(5e-4, 0.5, "metres"),
    "shape.coordinate": Bound(-0.5, 0.5, "metres"),
    "shape.parts": Bound(1, 8, "convex parts", integer=True),
    "shape.vertices": Bound(3, 16, "vertices per part", integer=True),
    "shape.total_vertices": Bound(3, 64, "vertices in all", integer=True),
    # the ring
    "ring.radius": Bound(0.01, 10.0, "metres"),
    # simulation settings
    "simulation.steps_per_second": Bound(60, 4800, "steps per second", integer=True),
    "simulation.iterations": Bound(1, 100, integer=True),
    "simulation.gravity": Bound(0.1, 100.0, "m/s^2"),
    "simulation.collision_slop": Bound(0.0, 0.01, "metres"),
    "simulation.hand_force": Bound(1e-3, 1000.0, "newtons"),
    "simulation.hand_stop": Bound(0.1, 10000.0, "m/s^2"),
    "simulation.heading_limit_deg": Bound(0.0, 85.0, "degrees"),
    "simulation.min_speed": Bound(1e-4, 10.0, "m/s"),
    "simulation.max_speed": Bound(1e-3, 20.0, "m/s"),
    "simulation.rest_speed": Bound(1e-7, 1.0, "m/s"),
    "simulation.rest_spin": Bound(1e-6, 10.0, "rad/s"),
    "simulation.rest_steps": Bound(1, 10000, "steps", integer=True),
    "simulation.rest_overlap": Bound(1e-7, 0.01, "metres"),
    "simulation.max_time": Bound(0.1, 120.0, "seconds"),
    "simulation.max_drive_time": Bound(0.1, 120.0, "seconds"),
    # a scenario's pieces and pushes (tuning experiments; the game's own hand limits are rules)
    "piece.coordinate": Bound(-100.0, 100.0, "metres"),
    "piece.angle": Bound(-1e6, 1e6, "radians"),
    "push.entry_deg": Bound(-1e6, 1e6, "degrees"),
    "push.heading_deg": Bound(-85.0, 85.0, "degrees"),
    "push.speed": Bound(1e-4, 20.0, "m/s"),
    "push.spin_deg": Bound(-1e6, 1e6, "degrees"),
}

#: The fields of one piece kind's material that are numbers (``mass`` or ``density`` is given).
MATERIAL_FIELDS = ("thickness", "mass", "density", "table_friction", "piece_friction", "restitution")


def describe(name: str) -> str:
    """``between 1 and 100`` (with the unit when it has one), for messages and help."""
    b = BOUNDS[name]
    return f"between {b.lo:g} and {b.hi:g}" + (f" ({b.unit})" if b.unit else "")


def check(name: str, v: object, where: str, error: type[ValueError] = ValueError) -> float:
    """``v`` checked against ``BOUNDS[name]``: a finite number (a whole one where the bound says
    so) within the interval. Returns it as a float (an int for whole-number bounds); otherwise
    raises ``error("<where>: must be between LO and HI (unit), got V")``."""
    b = BOUNDS[name]
    x = finite_number(v, where, error)
    if b.integer and int(x) != x:
        raise error(f"{where}: must be a whole number, got {v!r}")
    if not b.lo <= x <= b.hi:
        raise error(f"{where}: must be {describe(name)}, got {v!r}")
    return int(x) if b.integer else x
