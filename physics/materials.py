"""Physical data: the ring, the simulation settings and each piece kind's material.

Everything here is plain data loaded from ``assets/materials.toml`` (or a tuning profile in the same
format) and validated: an impossible value raises ``ValueError`` naming the key, e.g.
``kinds.small.table_friction: must be between 0 and 5, got -0.1``. The same data travels inside
every snapshot and replay, so a replay made under a tuning replays under that tuning.
"""
from __future__ import annotations

import functools
import json
import math
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import kabuto_assets
from kabuto_base.fileio import read_toml, write_atomic
from kabuto_base.numbers import finite_number
from physics import shapes
from physics.bounds import BOUNDS, MATERIAL_FIELDS, check
from physics.shapes import Shape

#: Sizes within this (metres) count as the same size ("the same size or larger").
SAME_SIZE = 1e-9

@dataclass(frozen=True)
class Ring:
    """The raised round ring, centred on the origin (metres)."""

    radius: float = 0.10
    centre_radius: float = 0.025


@dataclass(frozen=True)
class SimSettings:
    """Integration and hand settings. See ``assets/materials.toml`` for why each value is chosen.

    ``min_speed`` .. ``max_speed`` is the hand's speed range *the game's rules* allow ("no
    flicking"); it is tunable data like the rest and travels with it into every replay, but physics
    does not enforce it: :meth:`physics.World.push` simulates any forward speed, and
    :mod:`kabuto.rules` refuses a push outside the range.
    """

    steps_per_second: int = 480
    iterations: int = 10
    gravity: float = 9.81
    collision_slop: float = 1e-4
    hand_force: float = 1.0
    hand_stop: float = 25.0
    heading_limit_deg: float = 45.0
    min_speed: float = 0.02
    max_speed: float = 0.45
    rest_speed: float = 5e-4
    rest_spin: float = 0.02
    rest_steps: int = 8
    rest_overlap: float = 1e-4
    max_time: float = 20.0
    max_drive_time: float = 8.0

    @property
    def dt(self) -> float:
        return 1.0 / self.steps_per_second

    def push_cost(self) -> float:
        """How much one push may cost under these settings, relative to the default settings.

        A push steps until everything is at rest or ``max_time`` runs out (the hand's drive phase
        counts towards ``max_time`` too), so it takes at most ``max_time * steps_per_second``
        steps; a step's solver work grows with ``iterations``, its collision work does not, so
        fewer iterations than the default are counted as the default (an upper bound):

        >>> SimSettings().push_cost()
        1.0
        >>> SimSettings(steps_per_second=960, iterations=20).push_cost()
        4.0
        """
        default = SimSettings()
        d_steps = default.max_time * default.steps_per_second
        d_iter = default.iterations
        steps = self.max_time * self.steps_per_second
        return (steps / d_steps) * (max(self.iterations, d_iter) / d_iter)


@dataclass(frozen=True)
class PieceType:
    """One kind of piece: its outline and material.

    ``table_friction`` is the Coulomb coefficient against the ring surface, ``piece_friction``
    against other pieces (pymunk multiplies the two shapes' values, so each shape carries the square
    root: two pieces of one kind then meet with exactly ``piece_friction``, and two kinds with the
    geometric mean). ``restitution`` likewise.
    """

    name: str
    shape: Shape
    thickness: float
    mass: float
    table_friction: float
    piece_friction: float
    restitution: float
    #: Whether other pieces may stand on this kind (the rulebook: never on a wrestler piece, which
    #: stands taller than a disc: a rider at a disc's height meets its side, not its top). Rules
    #: and physics read it through :meth:`carries`.
    stackable: bool = True

    @functools.cached_property
    def size(self) -> float:
        """Largest extent from the centre: "same size or larger" for stacking compares this.
        (Worked out once: every preview asks for it dozens of times.)"""
        return shapes.bounding_radius(self.shape)

    def carries(self, rider: PieceType) -> bool:
        """Whether ``rider`` may stand on this kind: it carries pieces (``stackable``) and the rider
        is no bigger ("the same size or larger", sizes within :data:`SAME_SIZE` being the same).

        A player may stack only so (:mod:`kabuto.rules.hand`), and a rider that drops off its base
        lands only on a piece that carries it, else drops on down: a bigger disc falling onto a
        smaller one tips off it. So the physics never makes a stack the rules would refuse to load.
        """
        return self.stackable and rider.size <= self.size + SAME_SIZE

    def to_json(self) -> dict[str, Any]:
        return {
            "shape": self.shape.to_json(),
            "thickness": self.thickness,
            "mass": self.mass,
            "table_friction": self.table_friction,
            "piece_friction": self.piece_friction,
            "restitution": self.restitution,
            "stackable": self.stackable,
        }


#: The numeric material fields of a piece kind (their bounds are in physics.bounds.BOUNDS).
_LIMITS = MATERIAL_FIELDS
#: The simulation settings (``SimSettings``' fields), each bounded as ``simulation.KEY``.
_SIM_KEYS = tuple(k.split(".", 1)[1] for k in BOUNDS if k.startswith("simulation."))


def _toml_value(v: Any) -> str:
    """One TOML value: numbers exactly (repr round-trips), strings, lists and inline tables."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"cannot write {v!r} to TOML")
        r = repr(v)
        return r if any(c in r for c in ".eEn") else r + ".0"
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string for plain text
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise ValueError(f"cannot write {type(v).__name__} to TOML")


def _table(v: Any, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ValueError(f"{where}: expected a table, got {type(v).__name__}")
    return v


def piece_type_from_dict(name: str, d: Any, where: str) -> PieceType:
    """A validated PieceType from a TOML/JSON table (``mass`` or ``density`` may be given)."""
    d = _table(d, where)
    known = {"shape", "thickness", "mass", "density", "table_friction", "piece_friction",
             "restitution", "stackable", "note"}
    for k in d:
        if k not in known:
            raise ValueError(f"{where}.{k}: unknown key (expected one of {', '.join(sorted(known))})")
    for k in ("shape", "thickness", "table_friction", "piece_friction", "restitution"):
        if k not in d:
            raise ValueError(f"{where}.{k}: missing")
    shape = shapes.normalised(shapes.shape_from_json(d["shape"], f"{where}.shape"))
    vals = {k: check(k, d[k], f"{where}.{k}")
            for k in ("thickness", "table_friction", "piece_friction", "restitution")}
    if ("mass" in d) == ("density" in d):
        raise ValueError(f"{where}: give exactly one of mass (kg) or density (kg/m^3)")
    if "mass" in d:
        mass = check("mass", d["mass"], f"{where}.mass")
    else:
        density = check("density", d["density"], f"{where}.density")
        mass = density * shapes.area(shape) * vals["thickness"]
        check("mass", mass, f"{where}.density (giving mass {mass:.3g} kg)")
    stackable = d.get("stackable", True)
    if not isinstance(stackable, bool):
        raise ValueError(f"{where}.stackable: must be true or false, got {stackable!r}")
    return PieceType(name=name, shape=shape, mass=mass, stackable=stackable, **vals)


@dataclass(frozen=True)
class Materials:
    """The ring, the simulation settings and every piece kind: all the tunable physics data."""

    ring: Ring = field(default_factory=Ring)
    sim: SimSettings = field(default_factory=SimSettings)
    kinds: dict[str, PieceType] = field(default_factory=dict)

    # ----- loading -------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path | None = None) -> Materials:
        """Load ``assets/materials.toml`` (or another file in its format)."""
        path = Path(path) if path else kabuto_assets.path("materials.toml")
        data = read_toml(path)
        try:
            return cls.from_dict(data)
        except ValueError as exc:
            raise ValueError(f"{path.name}: {exc}") from None

    @classmethod
    def from_dict(cls, data: Any) -> Materials:
        """Validated Materials from plain data (the TOML layout, or ``to_dict()`` output)."""
        data = _table(data, "materials")
        for k in data:
            if k not in ("ring", "simulation", "kinds", "note"):
                raise ValueError(f"{k}: unknown section (expected ring, simulation, kinds)")
        ring_d = _table(data.get("ring", {}), "ring")
        for k in ring_d:
            if k not in ("radius", "centre_radius", "note"):
                raise ValueError(f"ring.{k}: unknown key")
        radius = check("ring.radius", ring_d.get("radius", Ring.radius), "ring.radius")
        centre = finite_number(ring_d.get("centre_radius", Ring.centre_radius), "ring.centre_radius")
        if not 0.0 <= centre <= radius:
            raise ValueError(f"ring.centre_radius: must be between 0 and the ring's radius "
                             f"{radius:g} (metres), got {centre!r}")
        sim_d = _table(data.get("simulation", {}), "simulation")
        sim_vals: dict[str, Any] = {}
        for k, v in sim_d.items():
            if k == "note":
                continue
            if k not in _SIM_KEYS:
                raise ValueError(f"simulation.{str(k)[:40]}: unknown key")
            sim_vals[k] = check(f"simulation.{k}", v, f"simulation.{k}")
        sim = SimSettings(**sim_vals)
        if sim.min_speed > sim.max_speed:
            raise ValueError("simulation.min_speed: must not exceed simulation.max_speed")
        kinds_d = _table(data.get("kinds", {}), "kinds")
        kinds = {name: piece_type_from_dict(name, d, f"kinds.{name}") for name, d in kinds_d.items()}
        return cls(Ring(radius, centre), sim, kinds)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data that :meth:`from_dict` reads back exactly."""
        # The simulation's fields are all numbers: a plain copy of them (dataclasses.asdict's deep
        # copy cost a fifth of a preview's snapshot).
        sim = {f.name: getattr(self.sim, f.name) for f in fields(self.sim)}
        return {
            "ring": {"radius": self.ring.radius, "centre_radius": self.ring.centre_radius},
            "simulation": sim,
            "kinds": {name: t.to_json() for name, t in sorted(self.kinds.items())},
        }

    def to_toml(self, header: list[str] | tuple[str, ...] = ()) -> str:
        """These materials as a complete TOML file in the layout of ``assets/materials.toml`` (a
        tuning profile), with ``header`` lines as comments at the top."""
        data = self.to_dict()
        lines = [f"# {h}" if h else "#" for h in header]
        for section in ("ring", "simulation"):
            lines += ["", f"[{section}]"] if lines else [f"[{section}]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in data[section].items()]
        for name, kind in data["kinds"].items():
            lines += ["", f"[kinds.{json.dumps(name)}]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in kind.items()]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path, header: list[str] | tuple[str, ...] = ()) -> Path:
        """Write these materials as a tuning profile, atomically, after checking that the text
        loads back as exactly these materials (so a profile the loader would refuse is never
        written)."""
        text = self.to_toml(header)
        if Materials.from_dict(tomllib.loads(text)).to_dict() != self.to_dict():
            raise ValueError(f"{path}: the profile would not load back as the same materials")
        return write_atomic(path, text)

    # ----- changing ------------------------------------------------------------------------------
    def with_kinds(self, extra: dict[str, PieceType]) -> Materials:
        """These materials plus more piece kinds (e.g. the wrestlers' pieces)."""
        return replace(self, kinds={**self.kinds, **extra})

    def with_overrides(self, overrides: dict[str, float]) -> Materials:
        """A copy with tuning parameters changed, validated like the file.

        Keys: ``FIELD`` (that field of every kind, e.g. ``table_friction``), ``FIELD.KIND``
        (``mass.small``), ``simulation.KEY`` or ``ring.KEY``.
        """
        data = self.to_dict()
        for key, value in overrides.items():
            parts = key.split(".")
            if parts[0] in ("simulation", "ring") and len(parts) == 2:
                section = data[parts[0]]
                if parts[1] not in section:
                    raise ValueError(f"{key}: unknown parameter")
                section[parts[1]] = value
            elif parts[0] in _LIMITS and parts[0] != "density" and len(parts) in (1, 2):
                targets = list(data["kinds"]) if len(parts) == 1 else [parts[1]]
                for kind in targets:
                    if kind not in data["kinds"]:
                        raise ValueError(f"{key}: unknown piece kind {kind!r}")
                    data["kinds"][kind][parts[0]] = value
            else:
                raise ValueError(
                    f"{key}: unknown parameter (use FIELD, FIELD.KIND, simulation.KEY or ring.KEY;"
                    f" FIELD is one of mass, thickness, table_friction, piece_friction, restitution)")
        return Materials.from_dict(data)

    def value(self, key: str) -> float:
        """Read a parameter by the names :meth:`with_overrides` takes (``FIELD`` reads the mean)."""
        parts = key.split(".")
        if parts[0] == "simulation" and len(parts) == 2 and parts[1] in _SIM_KEYS:
            return float(getattr(self.sim, parts[1]))
        if parts[0] == "ring" and len(parts) == 2 and parts[1] in ("radius", "centre_radius"):
            return float(getattr(self.ring, parts[1]))
        if parts[0] in _LIMITS and len(parts) == 2:
            if parts[1] not in self.kinds:
                raise ValueError(f"{key}: unknown piece kind {parts[1]!r}")
            return float(getattr(self.kinds[parts[1]], parts[0]))
        if parts[0] in _LIMITS and len(parts) == 1:
            vals = [getattr(t, parts[0]) for t in self.kinds.values()]
            return math.fsum(vals) / len(vals)
        raise ValueError(f"{key}: unknown parameter")
