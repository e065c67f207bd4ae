"""Scenarios: a small, fixed situation on the ring (pieces, one or more pushes) and what to measure.

A scenario is data, a TOML file in ``assets/scenarios/`` (the file name without ``.toml`` is its
name; the format is described in ``docs/tuning.md``)::

    description = "A small disc pushed straight in onto an empty ring slides on its own."

    [[piece]]                       # pieces at rest before the first push (optional)
    id = "T"
    kind = "small"
    x = -0.05                       # metres from the ring's centre
    y = 0.0
    # base = "M"                    # stacked on piece M

    [[push]]                        # one or more pushes, in order (fields of physics.Push)
    piece = "P"
    kind = "small"
    entry_deg = 180.0
    speed = 0.3
    hand = false                    # no hand: the piece slides in on its own (default: the hand)

    [[metric]]                      # one number per run each
    name = "slide_mm"
    what = "slide"
    piece = "P"

Instead of (or besides) listing pieces, ``[board] players = 2`` puts the game's starting board
(:func:`kabuto.rules.boards.starting_board`) on the ring, with the game's piece ids:
``seat0:wrestler seat1:wrestler ..`` (the wrestler spots, in seat order), ``L1 ..`` (large),
``M01 ..`` (medium) and ``S01 ..`` (small). ``[board] wrestler_kind`` names the kind on the
wrestler spots; a scenario may derive such a kind from a standard one with ``[stand_in.NAME]``
(``like`` = a kind, optional ``radius`` for a round outline).

A push is the game's: the hand shoves its piece in along the push line and, once the piece is
wholly on the ring, stops with it (``simulation.hand_stop``), so the piece itself barely slides on.
``hand = false`` makes the push a launch instead, for measuring a disc that slides and hits on its
own (friction, restitution, masses): the piece is set down where it first lies wholly on the ring
along that line and sent off from there at ``speed`` along it, with no hand (:meth:`World.launch`).

Metrics (``what``), distances in millimetres:

* ``slide`` (``piece``: a pushed piece): from where it first lay wholly inside the ring - where the
  rulebook's hand stops pushing ("Immediately stop pushing when the piece completely enters the
  ring"), and where a launch starts - to where it came to rest.
* ``displacement`` (``piece`` or ``pieces``, ``combine`` = max | mean | sum | min; default max):
  from where each piece stood before the first push to where it rests.
* ``knocked_out`` (optional ``pieces``; default every piece, pushed ones included): how many fell.
* ``fell`` (``piece``): 1 if it fell off the ring, else 0.
* ``stack_survival`` (``piece`` stacked on ``base``): 1 if it still rides on that base at the end.
* ``rider_slip`` (``piece`` stacked on ``base``): how far it moved relative to its base.

A piece that fell is measured to where its centre crossed the ring's edge, so every metric is a
finite number in every run (plots and fits need that); ``fell`` and ``knocked_out`` say that it
fell.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

import kabuto_assets
from kabuto.rules.boards import set_up, stand_in_wrestlers, starting_board
from kabuto.tuning.errors import TuneError
from kabuto_base.fileio import read_toml
from physics import Circle, Materials, PieceState, Push, PushResult, World, shapes
from physics.bounds import check
from physics.numeric import bisect

METRIC_KINDS = ("slide", "displacement", "knocked_out", "fell", "stack_survival", "rider_slip")
COMBINE: dict[str, Callable[[list[float]], float]] = {
    "max": max, "min": min, "sum": sum, "mean": lambda v: sum(v) / len(v)}
PUSH_FIELDS = ("speed", "heading_deg", "entry_deg", "spin_deg")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def scenarios_dir() -> Path:
    """Where the scenario files live: ``assets/scenarios/``."""
    return kabuto_assets.path("scenarios")


# ----- the records ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class StandIn:
    """A piece kind made from a standard one: the same material, optionally a round outline."""

    name: str
    like: str
    radius: float | None = None


@dataclass(frozen=True)
class MetricSpec:
    """One measured number: what is measured, on which pieces."""

    name: str
    what: str
    pieces: tuple[str, ...] = ()
    base: str | None = None
    combine: str = "max"


@dataclass(frozen=True)
class Scenario:
    """A situation on the ring and what it reports. Build one with :func:`load_scenario`."""

    name: str
    description: str
    pieces: tuple[PieceState, ...]
    pushes: tuple[Push, ...]
    metrics: tuple[MetricSpec, ...]
    board: int | None = None
    wrestler_kind: str | None = None
    stand_ins: tuple[StandIn, ...] = ()
    source: str = ""
    #: The pushed pieces sent off with no hand (``hand = false``): launches.
    launches: frozenset[str] = frozenset()

    @property
    def metric_names(self) -> list[str]:
        return [m.name for m in self.metrics]


@dataclass(frozen=True)
class ScenarioOutcome:
    """What one run of a scenario measured."""

    metrics: dict[str, float]
    #: Some push's hand could not get its piece wholly onto the ring (physics gave up).
    stalled: bool = False
    #: Some push had not come to rest within the simulation's time cap.
    capped: bool = False


# ----- finding and loading ----------------------------------------------------------------------
def list_scenarios(folder: Path | None = None) -> list[str]:
    """Names of the scenario files in ``folder`` (default ``assets/scenarios/``), sorted.

    A file there is a scenario if it has a ``[[push]]``; other TOML files (a calibration targets
    file, say) are skipped.
    """
    folder = folder or scenarios_dir()
    out = []
    for path in sorted(folder.glob("*.toml")):
        try:
            if "push" in read_toml(path):
                out.append(path.stem)
        except ValueError:
            out.append(path.stem)  # listed, so that loading it by name reports what is wrong
    return out


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A scenario by name (``assets/scenarios/NAME.toml``) or by the path of a ``.toml`` file.

    Raises :class:`TuneError` naming the problem: an unknown scenario (listing the known ones), a
    file that is not valid TOML, an unknown or missing key, a metric naming a piece that is not
    there.
    """
    text = str(name_or_path)
    path = Path(text)
    if not (text.endswith(".toml") or path.is_file()):
        path = scenarios_dir() / f"{text}.toml"
        if not path.is_file():
            known = ", ".join(list_scenarios()) or "none"
            raise TuneError(f"unknown scenario {text!r} (known: {known})")
    try:
        data = read_toml(path)
    except ValueError as exc:  # names the file and what is wrong with it
        raise TuneError(str(exc)) from None
    return scenario_from_dict(path.stem, data, source=str(path))


def scenario_from_dict(name: str, data: Any, source: str = "") -> Scenario:
    """A validated :class:`Scenario` from the TOML layout (see the module docstring)."""
    where = f"scenario {name}"
    if not isinstance(data, dict):
        raise TuneError(f"{where}: expected a table")
    _known_keys(data, ("description", "board", "stand_in", "piece", "push", "metric"), where)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise TuneError(f"{where}.description: must be a string")

    stand_ins = []
    raw_si = _table(data.get("stand_in", {}), f"{where}.stand_in")
    for si_name, d in raw_si.items():
        w = f"{where}.stand_in.{si_name}"
        d = _table(d, w)
        _known_keys(d, ("like", "radius", "note"), w)
        like = _string(d, "like", w)
        radius = None
        if "radius" in d:
            radius = check("shape.radius", d["radius"], f"{w}.radius", TuneError)
        stand_ins.append(StandIn(si_name, like, radius))

    board = None
    wrestler_kind = None
    if "board" in data:
        w = f"{where}.board"
        d = _table(data["board"], w)
        _known_keys(d, ("players", "wrestler_kind", "note"), w)
        players = d.get("players")
        if players not in (2, 3, 4) or isinstance(players, bool):
            raise TuneError(f"{w}.players: must be 2, 3 or 4, got {players!r}")
        board = int(players)
        wrestler_kind = _string(d, "wrestler_kind", w)

    pieces = []
    for i, d in enumerate(_array(data.get("piece", []), f"{where}.piece")):
        w = f"{where}.piece[{i}]"
        _known_keys(d, ("id", "kind", "x", "y", "angle", "base", "note"), w)
        base = d.get("base")
        if base is not None and not isinstance(base, str):
            raise TuneError(f"{w}.base: must be a piece id")
        pieces.append(PieceState(_string(d, "id", w), _string(d, "kind", w),
                                 _num(d.get("x"), f"{w}.x", "piece.coordinate"),
                                 _num(d.get("y"), f"{w}.y", "piece.coordinate"),
                                 _num(d.get("angle", 0.0), f"{w}.angle", "piece.angle"), base))

    pushes = []
    launches = set()
    raw_pushes = _array(data.get("push"), f"{where}.push")
    if not raw_pushes:
        raise TuneError(f"{where}: needs at least one [[push]]")
    for i, d in enumerate(raw_pushes):
        w = f"{where}.push[{i}]"
        _known_keys(d, ("piece", "kind", *PUSH_FIELDS, "hand", "note"), w)
        if "entry_deg" not in d:
            raise TuneError(f"{w}.entry_deg: missing")
        hand = d.get("hand", True)
        if not isinstance(hand, bool):
            raise TuneError(f"{w}.hand: must be true or false")
        nums = {k: _num(d[k], f"{w}.{k}", f"push.{k}") for k in PUSH_FIELDS if k in d}
        pushes.append(Push(_string(d, "piece", w), _string(d, "kind", w), **nums))
        if not hand:
            launches.add(pushes[-1].piece)

    ids = [p.id for p in pieces] + [p.piece for p in pushes]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise TuneError(f"{where}: piece id {dup[0]!r} is used twice")
    for p in pieces:
        if p.base is not None and p.base not in {q.id for q in pieces}:
            raise TuneError(f"{where}: piece {p.id!r} is stacked on {p.base!r}, which is not listed")

    metrics = []
    raw_metrics = _array(data.get("metric"), f"{where}.metric")
    if not raw_metrics:
        raise TuneError(f"{where}: needs at least one [[metric]]")
    for i, d in enumerate(raw_metrics):
        metrics.append(_metric(d, f"{where}.metric[{i}]", pushed={p.piece for p in pushes}))
    names = [m.name for m in metrics]
    if len(set(names)) != len(names):
        raise TuneError(f"{where}: metric name {sorted(n for n in names if names.count(n) > 1)[0]!r} "
                        "is used twice")
    scenario = Scenario(name, description, tuple(pieces), tuple(pushes), tuple(metrics), board,
                        wrestler_kind, tuple(stand_ins), source, frozenset(launches))
    known_ids = set(initial_ids(scenario)) | {p.piece for p in pushes}
    for m in metrics:
        for pid in (*m.pieces, *([m.base] if m.base else [])):
            if pid not in known_ids:
                raise TuneError(f"{where}: metric {m.name!r} names piece {pid!r}, which is not in "
                                "the scenario")
    return scenario


def _metric(d: Any, w: str, pushed: set[str]) -> MetricSpec:
    d = _table(d, w)
    _known_keys(d, ("name", "what", "piece", "pieces", "base", "combine", "note"), w)
    name = _string(d, "name", w)
    if not _NAME.match(name):
        raise TuneError(f"{w}.name: {name!r} must be letters, digits and _ (a CSV column name)")
    what = _string(d, "what", w)
    if what not in METRIC_KINDS:
        raise TuneError(f"{w}.what: unknown metric {what!r} (expected one of {', '.join(METRIC_KINDS)})")
    if "piece" in d and "pieces" in d:
        raise TuneError(f"{w}: give piece or pieces, not both")
    if "piece" in d:
        pieces: tuple[str, ...] = (_string(d, "piece", w),)
    elif "pieces" in d:
        raw = d["pieces"]
        if not isinstance(raw, list) or not raw or not all(isinstance(p, str) for p in raw):
            raise TuneError(f"{w}.pieces: must be a non-empty list of piece ids")
        pieces = tuple(raw)
    else:
        pieces = ()
    combine = d.get("combine", "max")
    if combine not in COMBINE:
        raise TuneError(f"{w}.combine: must be one of {', '.join(COMBINE)}, got {combine!r}")
    base = d.get("base")
    if what in ("slide", "fell", "stack_survival", "rider_slip") and len(pieces) != 1:
        raise TuneError(f"{w}: metric {what!r} needs exactly one piece (piece = \"ID\")")
    if what == "displacement" and not pieces:
        raise TuneError(f"{w}: metric 'displacement' needs piece or pieces")
    if what == "slide" and pieces[0] not in pushed:
        raise TuneError(f"{w}: metric 'slide' measures a pushed piece; {pieces[0]!r} is not pushed")
    if what in ("stack_survival", "rider_slip"):
        if not isinstance(base, str):
            raise TuneError(f"{w}.base: metric {what!r} needs the base piece's id")
    elif base is not None:
        raise TuneError(f"{w}.base: only stack_survival and rider_slip take a base")
    return MetricSpec(name, what, pieces, base, combine)


# ----- small validators -------------------------------------------------------------------------
def _known_keys(d: dict, known: tuple[str, ...], where: str) -> None:
    for k in d:
        if k not in known:
            raise TuneError(f"{where}.{k}: unknown key (expected one of {', '.join(known)})")


def _table(v: Any, where: str) -> dict:
    if not isinstance(v, dict):
        raise TuneError(f"{where}: expected a table")
    return v


def _array(v: Any, where: str) -> list[dict]:
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise TuneError(f"{where}: expected an array of tables ([[...]])")
    return v


def _string(d: dict, key: str, where: str) -> str:
    v = d.get(key)
    if not isinstance(v, str) or not v:
        raise TuneError(f"{where}.{key}: {'missing' if v is None else 'must be a non-empty string'}")
    return v


def _num(v: Any, where: str, bound: str) -> float:
    """A number within ``physics.bounds.BOUNDS[bound]`` (TuneError naming ``where`` otherwise)."""
    if v is None:
        raise TuneError(f"{where}: missing")
    return check(bound, v, where, TuneError)


# ----- building the world -----------------------------------------------------------------------
def _board(scenario: Scenario) -> list[PieceState]:
    """The game's starting board, if the scenario asks for it, with its stand-in wrestlers."""
    if scenario.board is None or scenario.wrestler_kind is None:
        return []
    try:
        return starting_board(scenario.board, stand_in_wrestlers(scenario.board, scenario.wrestler_kind))
    except ValueError as exc:
        raise TuneError(f"scenario {scenario.name}: the {scenario.board}-player board: {exc}") from None


def initial_ids(scenario: Scenario) -> list[str]:
    """Ids of every piece on the ring before the first push (board pieces first)."""
    return [p.id for p in _board(scenario)] + [p.id for p in scenario.pieces]


def scenario_materials(scenario: Scenario, materials: Materials) -> Materials:
    """``materials`` plus the scenario's stand-in kinds, made from the (possibly tuned) kinds they
    stand in for, so that tuning ``mass.large`` also tunes a stand-in made ``like = "large"``."""
    extra = {}
    for si in scenario.stand_ins:
        if si.like not in materials.kinds:
            raise TuneError(f"scenario {scenario.name}: stand_in.{si.name}.like: unknown piece kind "
                            f"{si.like!r}")
        t = materials.kinds[si.like]
        extra[si.name] = replace(t, name=si.name,
                                 shape=Circle(si.radius) if si.radius is not None else t.shape)
    return materials.with_kinds(extra) if extra else materials


def build_world(scenario: Scenario, materials: Materials) -> World:
    """The ring before the first push. ValueError if a piece cannot be placed (off the ring,
    overlapping, stacked on something it may not be)."""
    materials = scenario_materials(scenario, materials)
    world = World.empty(materials)
    for p in _board(scenario):
        world.place(p.id, p.kind, p.x, p.y, p.angle)  # checks that the stand-ins fit their spots
    if scenario.board is not None and scenario.wrestler_kind is not None:
        world = set_up(world, scenario.board)  # as the players leave it, like a game's
    # Bases before the pieces stacked on them.
    pending = list(scenario.pieces)
    while pending:
        ready = [p for p in pending if p.base is None or p.base in world]
        if not ready:
            raise ValueError(f"piece {pending[0].id!r}: its stack never reaches the ring")
        for p in ready:
            world.place(p.id, p.kind, p.x, p.y, p.angle, p.base)
        pending = [p for p in pending if p not in ready]
    return world


def with_push_settings(scenario: Scenario, settings: dict[str, float]) -> Scenario:
    """The scenario with ``push.FIELD`` settings applied to every push (e.g. ``push.speed``)."""
    if not settings:
        return scenario
    fields: dict[str, Any] = {}
    for key, value in settings.items():
        f = key.split(".", 1)[1]
        if f not in PUSH_FIELDS:
            raise TuneError(f"{key}: unknown push parameter (expected push.FIELD, FIELD one of "
                            f"{', '.join(PUSH_FIELDS)})")
        fields[f] = float(value)
    return replace(scenario, pushes=tuple(replace(p, **fields) for p in scenario.pushes))


# ----- running ----------------------------------------------------------------------------------
def run_scenario(scenario: Scenario, materials: Materials,
                 push_settings: dict[str, float] | None = None) -> ScenarioOutcome:
    """Play the scenario's pushes under ``materials`` and measure its metrics.

    ``push_settings`` (``push.speed`` and the like) replace those fields in every push. Raises
    ValueError (from physics) if the scenario cannot be set up or a push is not allowed.
    """
    scenario = with_push_settings(scenario, push_settings or {})
    world = build_world(scenario, materials)
    R = world.ring.radius
    start = {p.id: (p.x, p.y) for p in world.pieces}
    start_base = {p.id: p.base for p in world.pieces}
    fell_at: dict[str, tuple[float, float]] = {}
    entered: dict[str, tuple[float, float] | None] = {}
    stalled = capped = False
    for push in scenario.pushes:
        pose = world.check_push(push)  # validates the push; returns its start on the platform
        start[push.piece] = pose[:2]
        entry = _entry_point(world.materials.kinds[push.kind].shape, pose, push.direction(), R)
        entered[push.piece] = entry
        if push.piece in scenario.launches:
            result = _launch(world, push, entry, pose[2])
        else:
            result = world.push(push)
        stalled |= result.stalled
        capped |= result.capped
        for f in result.fell:
            fell_at[f.piece] = _fall_point(result, f.piece, R)
    final: dict[str, tuple[float, float]] = {p.id: (p.x, p.y) for p in world.pieces}
    where = {**final, **fell_at}

    def moved(pid: str, origin: tuple[float, float] | None = None) -> float:
        ox, oy = origin if origin is not None else start[pid]
        x, y = where[pid]
        return 1000.0 * math.hypot(x - ox, y - oy)

    out: dict[str, float] = {}
    for m in scenario.metrics:
        if m.what == "slide":
            pid = m.pieces[0]
            e = entered[pid]
            out[m.name] = moved(pid, e) if e is not None else math.nan
        elif m.what == "displacement":
            out[m.name] = float(COMBINE[m.combine]([moved(p) for p in m.pieces]))
        elif m.what == "knocked_out":
            pool = m.pieces or tuple(where)
            out[m.name] = float(sum(1 for p in pool if p in fell_at))
        elif m.what == "fell":
            out[m.name] = 1.0 if m.pieces[0] in fell_at else 0.0
        elif m.what == "stack_survival":
            rider = m.pieces[0]
            on = rider in final and world.piece(rider).base == m.base
            out[m.name] = 1.0 if on and start_base.get(rider) == m.base else 0.0
        elif m.what == "rider_slip":
            rider, base = m.pieces[0], m.base
            assert base is not None  # a rider_slip metric always names its base (checked on load)
            (rx0, ry0), (bx0, by0) = start[rider], start[base]
            (rx1, ry1), (bx1, by1) = where[rider], where[base]
            out[m.name] = 1000.0 * math.hypot((rx1 - bx1) - (rx0 - bx0), (ry1 - by1) - (ry0 - by0))
    return ScenarioOutcome(out, stalled, capped)


def _launch(world: World, push: Push, entry: tuple[float, float] | None,
            angle: float) -> PushResult:
    """Send the pushed piece off on its own from ``entry`` at the push's speed along its line."""
    if entry is None:
        raise ValueError(f"push {push.piece!r}: at {push.heading_deg:g} degrees a {push.kind} is "
                         "never wholly on the ring, so there is nowhere to launch it from")
    world.place(push.piece, push.kind, *entry, angle)  # ValueError if it would overlap a piece
    dx, dy = push.direction()
    return world.launch({push.piece: (push.speed * dx, push.speed * dy, 0.0)})


def _entry_point(shape: shapes.Shape, pose: tuple[float, float, float],
                 direction: tuple[float, float], R: float) -> tuple[float, float] | None:
    """Where, along its push line, the pushed piece first lies wholly inside the ring; None if it
    never does (a push aimed so steeply along the edge that the piece cannot fit).

    The farthest point of a convex outline from the centre is a convex function of the distance
    travelled, so a ternary search finds its minimum and a bisection the first crossing below R.
    """
    x0, y0, a = pose
    dx, dy = direction

    def far(s: float) -> float:
        return shapes.extent_from_origin(shape, x0 + s * dx, y0 + s * dy, a)[1]

    lo, hi = 0.0, 2.0 * R + 2.0 * shapes.bounding_radius(shape)
    for _ in range(100):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if far(m1) <= far(m2):
            hi = m2
        else:
            lo = m1
    s_min = (lo + hi) / 2
    if far(s_min) > R:
        return None
    _, s = bisect(lambda s: far(s) <= R, 0.0, s_min, 100)
    return x0 + s * dx, y0 + s * dy


def _fall_point(result: PushResult, pid: str, R: float) -> tuple[float, float]:
    """Where a fallen piece's centre crossed the ring's edge, from its last two trajectory samples
    (the trajectory is sampled at 60 Hz; the crossing is extrapolated along the last motion)."""
    traj = result.trajectory
    col = traj.ids.index(pid)
    xy = traj.poses[:, col, :2]
    seen = np.flatnonzero(np.isfinite(xy[:, 0]))
    x1, y1 = (float(v) for v in xy[seen[-1]])
    x0, y0 = (float(v) for v in xy[seen[-2]]) if len(seen) > 1 else (x1, y1)
    dx, dy = x1 - x0, y1 - y0
    n = math.hypot(dx, dy)
    if math.hypot(x1, y1) >= R:
        return x1, y1
    if n < 1e-12:
        r = math.hypot(x1, y1) or 1.0
        return (x1 / r * R, y1 / r * R) if math.hypot(x1, y1) else (R, 0.0)
    dx, dy = dx / n, dy / n
    # |p + s d| = R, s >= 0: s^2 + 2 (p.d) s + |p|^2 - R^2 = 0
    b = x1 * dx + y1 * dy
    c = x1 * x1 + y1 * y1 - R * R
    s = -b + math.sqrt(b * b - c)
    return x1 + s * dx, y1 + s * dy


def describe(scenario: Scenario) -> str:
    """A few lines about a scenario: its description, pushes and metrics."""
    lines = [f"{scenario.name}: {scenario.description.strip().splitlines()[0] if scenario.description else ''}"]
    for p in scenario.pushes:
        verb = "launch" if p.piece in scenario.launches else "push"
        lines.append(f"  {verb} {p.piece} ({p.kind}) from {p.entry_deg:g} deg, heading {p.heading_deg:g}"
                     f" deg, {p.speed:g} m/s")
    lines.append("  metrics: " + ", ".join(f"{m.name} ({m.what})" for m in scenario.metrics))
    return "\n".join(lines)


__all__ = ["METRIC_KINDS", "MetricSpec", "ScenarioOutcome", "PieceState", "Scenario", "StandIn",
           "build_world", "describe", "initial_ids", "list_scenarios", "load_scenario",
           "run_scenario", "scenario_from_dict", "scenario_materials", "scenarios_dir",
           "with_push_settings"]
