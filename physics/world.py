"""The Kabuto Sumo ring as a physical world: pieces at rest, pushes, falls. No game rules here.

A small disc 45 mm left of the centre, and a medium disc pushed in from the left edge (180 degrees
round the ring), straight at it. The hand stops with the medium once it is wholly on the ring; the
small disc it struck slides on by itself:

    >>> from physics import World, Push
    >>> world = World.empty()
    >>> world.place("S1", "small", -0.045, 0.0)
    >>> careful = world.preview(Push("M1", "medium", entry_deg=180, heading_deg=0, speed=0.3))
    >>> careful.fell_ids                        # at 0.3 m/s the small disc slides a little: nothing falls
    []
    >>> shove = world.push(Push("M1", "medium", entry_deg=180, heading_deg=0, speed=1.2))
    >>> shove.fell_ids                          # at 1.2 m/s it sends the small disc across and off
    ['S1']
    >>> [p.id for p in world.pieces]            # push() made the outcome the world's state
    ['M1']

Physics simulates any forward speed; the game's rules (:mod:`kabuto.rules`) let a player push at
most 0.45 m/s ("no flicking"), so the shove above is a physics experiment, not a legal push.

A World holds only the *at-rest* state (an ordered list of :class:`PieceState`) and the
:class:`Materials` in force. Each push builds a fresh pymunk Space from that state (see
:mod:`physics.sim` for why), so a push's outcome depends only on the state before it and the push.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
from typing import Any

import pymunk

from kabuto_base.numbers import finite_number, is_finite_number
from physics import shapes
from physics.materials import Materials
from physics.numeric import bisect
from physics.sim import ANIMATION_RATE, Episode, levels_of, outline_shapes, shapes_depth
from physics.state import PieceState, Push, PushResult

SNAPSHOT_VERSION = 1


class PushRefused(ValueError):
    """A push the ring cannot take (:meth:`World.check_push`): ``reason`` says which check refused
    it - ``"beyond_platform"`` (a heading past the platform's range), ``"too_steep"`` (the piece
    would run along the edge), ``"no_speed"`` or ``"spot_blocked"`` (a piece hangs over the edge
    where the platform would stand) - and ``fields`` what about (``kind``, ``steepest_deg``,
    ``limit_deg``, ``piece``), so a front end can say it in its own words."""

    def __init__(self, reason: str, fields: dict[str, object], message: str):
        super().__init__(message)
        self.reason = reason
        self.fields = fields


class World:
    """Pieces at rest on the ring, and the materials they are made of."""

    def __init__(self, materials: Materials, pieces: list[PieceState] | tuple[PieceState, ...] = ()):
        self.materials = materials
        self._pieces: dict[str, PieceState] = {}
        for p in pieces:
            if p.id in self._pieces:
                raise ValueError(f"piece {p.id!r}: the same id twice")
            if p.kind not in materials.kinds:
                raise ValueError(f"piece {p.id!r}: unknown kind {p.kind!r}")
            for v, name in ((p.x, "x"), (p.y, "y"), (p.angle, "angle")):
                finite_number(v, f"piece {p.id!r}: {name}")
            self._pieces[p.id] = p
        levels_of(self._pieces)  # validates stack chains: every base on the ring, no loops

    @classmethod
    def _trusted(cls, materials: Materials, pieces: list[PieceState]) -> World:
        """A world of states the simulator itself just produced: valid already, so not checked
        again (a preview's result is built this way, in every AI search)."""
        world = cls.__new__(cls)
        world.materials = materials
        world._pieces = {p.id: p for p in pieces}
        return world

    @classmethod
    def empty(cls, materials: Materials | None = None) -> World:
        return cls(materials or Materials.load())

    # ----- reading -------------------------------------------------------------------------------
    @property
    def ring(self):
        return self.materials.ring

    @property
    def pieces(self) -> list[PieceState]:
        """Every piece on the ring, in canonical (id) order."""
        return [self._pieces[k] for k in sorted(self._pieces)]

    def piece(self, pid: str) -> PieceState:
        try:
            return self._pieces[pid]
        except KeyError:
            raise ValueError(f"no piece {pid!r} on the ring") from None

    def __contains__(self, pid: object) -> bool:
        return pid in self._pieces

    def levels(self) -> dict[str, int]:
        return levels_of(self._pieces)

    def riders(self, pid: str) -> list[str]:
        """Every piece stacked on ``pid``, directly or higher up, bottom first."""
        out: list[str] = []
        frontier = [pid]
        while frontier:
            nxt = sorted(q.id for q in self._pieces.values() if q.base in frontier)
            out.extend(nxt)
            frontier = nxt
        return out

    # ----- snapshots -----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Plain JSON-able data of the whole at-rest world, materials included."""
        return {
            "version": SNAPSHOT_VERSION,
            "materials": self.materials.to_dict(),
            "pieces": [p.to_json() for p in self.pieces],
        }

    @classmethod
    def from_snapshot(cls, data: Any) -> World:
        """Restore a world saved by :meth:`snapshot`; ValueError names a bad field."""
        if not isinstance(data, dict):
            raise ValueError("snapshot: expected an object")
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"snapshot.version: expected {SNAPSHOT_VERSION}, got {data.get('version')!r}")
        materials = Materials.from_dict(data.get("materials"))
        raw = data.get("pieces")
        if not isinstance(raw, list):
            raise ValueError("snapshot.pieces: expected a list")
        pieces = []
        for i, d in enumerate(raw):
            where = f"snapshot.pieces[{i}]"
            if not isinstance(d, dict):
                raise ValueError(f"{where}: expected an object")
            try:
                pid, kind = d["id"], d["kind"]
                x, y, angle, base = d["x"], d["y"], d.get("angle", 0.0), d.get("base")
            except KeyError as exc:
                raise ValueError(f"{where}.{exc.args[0]}: missing") from None
            if not isinstance(pid, str) or not isinstance(kind, str):
                raise ValueError(f"{where}: id and kind must be strings")
            if base is not None and not isinstance(base, str):
                raise ValueError(f"{where}.base: must be a piece id or null")
            pieces.append(PieceState(pid, kind, finite_number(x, f"{where}.x"),
                                     finite_number(y, f"{where}.y"),
                                     finite_number(angle, f"{where}.angle"), base))
        return cls(materials, pieces)

    def copy(self) -> World:
        return World(self.materials, self.pieces)

    # ----- pushing -------------------------------------------------------------------------------
    def check_push(self, push: Push) -> tuple[float, float, float]:
        """Validate a push; return the pushed piece's start pose on the platform (x, y, angle).

        Raises ValueError naming what makes the push physically impossible: an unknown kind, an id
        already on the ring, a heading beyond the platform's range or so steep that the piece would
        never be wholly on the ring, a hand that does not move forward, or a platform spot blocked
        by a piece that overhangs the edge there. How fast a player may push is a rule of the game
        (:mod:`kabuto.rules`), not physics: any positive speed is simulated.
        """
        sim = self.materials.sim
        if not isinstance(push.piece, str) or not push.piece:
            raise ValueError("push.piece: must be a non-empty id")
        if push.piece in self._pieces:
            raise ValueError(f"push.piece: {push.piece!r} is already on the ring")
        if push.kind not in self.materials.kinds:
            raise ValueError(f"push.kind: unknown piece kind {push.kind!r}")
        for name in ("entry_deg", "heading_deg", "speed", "spin_deg"):
            finite_number(getattr(push, name), f"push.{name}")
        if abs(push.heading_deg) > sim.heading_limit_deg:
            raise PushRefused("beyond_platform", {"limit_deg": sim.heading_limit_deg},
                              f"push.heading_deg: {push.heading_deg:g} is beyond the platform's range "
                              f"of +/-{sim.heading_limit_deg:g} degrees from the inward normal")
        steepest = self.steepest_heading(push.kind)
        if abs(push.heading_deg) > steepest:
            raise PushRefused("too_steep", {"kind": push.kind, "steepest_deg": steepest},
                              f"push.heading_deg: at {push.heading_deg:g} degrees a {push.kind} would "
                              f"run along the edge and never be wholly on the ring (at most "
                              f"+/-{steepest:.1f} degrees for it)")
        if push.speed <= 0:
            raise PushRefused("no_speed", {}, f"push.speed: must be positive (a hand that does not "
                              f"move forward never gets its piece in), got {push.speed:g} m/s")
        start = self.platform_pose(push)
        blocker = self._overlapping(push.kind, start, level=0)
        if blocker:
            raise PushRefused("spot_blocked", {"piece": blocker},
                              f"push: the platform spot at {push.entry_deg:g} degrees is blocked by "
                              f"piece {blocker!r} hanging over the edge")
        return start

    def steepest_heading(self, kind: str) -> float:
        """The largest heading (degrees off the inward normal) at which a ``kind`` piece can still
        get wholly onto the ring: its line passes ``R sin(heading)`` from the centre, and the
        piece (within its bounding radius r) is wholly inside only if ``R sin(heading) + r <= R``.
        Never more than the platform's own limit."""
        ptype = self.materials.kinds.get(kind)
        if ptype is None:
            raise ValueError(f"push.kind: unknown piece kind {kind!r}")
        R = self.ring.radius
        ratio = max(0.0, min(1.0, (R - ptype.size) / R))
        return min(self.materials.sim.heading_limit_deg, math.degrees(math.asin(ratio)))

    def platform_pose(self, push: Push) -> tuple[float, float, float]:
        """Where the pushed piece sits on the platform: wholly outside the ring, touching its edge,
        on the push line through the entry point."""
        R = self.ring.radius
        ptype = self.materials.kinds.get(push.kind)
        if ptype is None:
            raise ValueError(f"push.kind: unknown piece kind {push.kind!r}")
        dx, dy = push.direction()
        px, py = push.entry_point(R)
        angle = math.atan2(dy, dx) + math.radians(push.spin_deg)

        if isinstance(ptype.shape, shapes.Circle):
            # |P - s d| = R + r with P.d = -R cos(heading): s^2 - 2 s P.d - (2Rr + r^2) = 0.
            r = ptype.shape.radius
            pd = px * dx + py * dy
            s = pd + math.sqrt(pd * pd + 2 * R * r + r * r)
            return px - s * dx, py - s * dy, angle

        s = _platform_offset(ptype.shape, ptype.size, R, px, py, dx, dy, angle)
        return px - s * dx, py - s * dy, angle

    def preview(self, push: Push, settle_within: float | None = None) -> PushResult:
        """Simulate a push without changing this world.

        ``settle_within`` (metres; a search's quick look): stop once no piece can fall any more nor
        move farther than that (:meth:`physics.sim.Episode.settled`). The falls are the whole run's;
        the pieces stand within that distance of their rest, and ``steps`` counts the steps run.
        """
        start = self.check_push(push)
        ep = Episode(self.materials, self._pieces.values(), frame_deg=push.entry_deg)
        ep.start_push(push, start)
        return self._finish(ep, push, settle_within=settle_within)

    def push(self, push: Push) -> PushResult:
        """Simulate a push and make its at-rest outcome this world's state."""
        result = self.preview(push)
        self._adopt(result)
        return result

    def settle(self) -> PushResult:
        """Let the world run to rest with no push (e.g. after a move placed pieces by hand)."""
        return self.launch({})

    def launch(self, velocities: dict[str, tuple[float, float, float]],
               commit: bool = True, sample_rate: float = ANIMATION_RATE) -> PushResult:
        """Send pieces off with velocities ``{id: (vx, vy, spin)}`` and run to rest: a flick, for
        experiments and tuning (a game moves pieces only by pushes and scripted effects).

        The result's trajectory holds every piece's pose and velocity ``sample_rate`` times a
        second (at most every step: ``simulation.steps_per_second``)."""
        self._check_vectors(velocities, "launch", "(vx, vy, spin)")
        ep = Episode(self.materials, self._pieces.values())
        ep.launch(velocities)
        return self._run(ep, commit, sample_rate)

    def strike(self, impulses: dict[str, tuple[float, float, float]],
               commit: bool = True, sample_rate: float = ANIMATION_RATE) -> PushResult:
        """Give pieces impulses ``{id: (jx, jy, angular)}`` at their centres (N s and N m s), as a
        sharp tap would, and run to rest. A piece resting on a stack is struck alone: what it
        rides on feels it only through friction."""
        self._check_vectors(impulses, "strike", "(jx, jy, angular)")
        ep = Episode(self.materials, self._pieces.values())
        ep.strike(impulses)
        return self._run(ep, commit, sample_rate)

    def press(self, forces: dict[str, tuple[float, float, float]], duration: float,
              commit: bool = True, sample_rate: float = ANIMATION_RATE) -> PushResult:
        """Press on pieces with constant forces ``{id: (fx, fy, torque)}`` (N and N m, at their
        centres) for ``duration`` seconds, then let go and run to rest. The trajectory (at
        ``sample_rate``) shows where they were meanwhile."""
        self._check_vectors(forces, "press", "(fx, fy, torque)")
        finite_number(duration, "duration")
        if duration < 0:
            raise ValueError(f"duration: must not be negative, got {duration:g}")
        ep = Episode(self.materials, self._pieces.values())
        ep.hold_forces(forces, duration)
        return self._run(ep, commit, sample_rate)

    def _check_vectors(self, given: dict[str, tuple[float, float, float]], what: str,
                       form: str) -> None:
        for pid, v in given.items():
            self.piece(pid)
            if len(v) != 3 or not all(is_finite_number(c) for c in v):
                raise ValueError(f"{what} {pid!r}: expected {form} finite numbers")

    def _run(self, ep: Episode, commit: bool, sample_rate: float) -> PushResult:
        finite_number(sample_rate, "sample_rate")
        if sample_rate <= 0:
            raise ValueError(f"the trajectory's sample rate must be positive, got {sample_rate:g}")
        result = self._finish(ep, None, sample_rate)
        if commit:
            self._adopt(result)
        return result

    def _finish(self, ep: Episode, push: Push | None, sample_rate: float = ANIMATION_RATE,
                settle_within: float | None = None) -> PushResult:
        falls, steps, released, stalled, capped, traj = ep.run(sample_rate, settle_within)
        world = World._trusted(self.materials, ep.at_rest_state())
        return PushResult(push, falls, world.snapshot(), steps, steps * ep.dt, released, stalled,
                          capped, traj, ep.released_pose)

    def _adopt(self, result: PushResult) -> None:
        self._pieces = {d["id"]: PieceState(d["id"], d["kind"], d["x"], d["y"], d["angle"], d["base"])
                        for d in result.snapshot["pieces"]}

    # ----- editing (for scripted effects) ---------------------------------------------------------
    def place(self, pid: str, kind: str, x: float, y: float, angle: float = 0.0,
              base: str | None = None, allow_overlap: bool = False) -> None:
        """Put a piece on the ring (or on ``base``), at rest. ValueError if it cannot physically go
        there: off the ring, overlapping another piece (unless ``allow_overlap``), or on a base it
        would not stand on (its centre not over the base). Which pieces the game lets a player stack
        on which is a rule (:mod:`kabuto.rules`), not physics."""
        if pid in self._pieces:
            raise ValueError(f"piece {pid!r} is already on the ring")
        if kind not in self.materials.kinds:
            raise ValueError(f"unknown piece kind {kind!r}")
        x, y, angle = (finite_number(v, name) for v, name in ((x, "x"), (y, "y"), (angle, "angle")))
        if math.hypot(x, y) > self.ring.radius:
            raise ValueError(f"({x:.3f}, {y:.3f}) is off the ring")
        level = 0
        if base is not None:
            if base not in self._pieces:
                raise ValueError(f"piece {pid!r}: its base {base!r} is not on the ring")
            level = self.levels()[base] + 1
            bp = self._pieces[base]
            base_shape = self.materials.kinds[bp.kind].shape
            if not shapes.covers(base_shape, bp.x, bp.y, bp.angle, x, y):
                raise ValueError(f"the centre of {pid!r} would not be over its base {base!r}")
        if not allow_overlap:
            blocker = self._overlapping(kind, (x, y, angle), level)
            if blocker:
                raise ValueError(f"piece {pid!r} would overlap piece {blocker!r}")
        self._pieces[pid] = PieceState(pid, kind, x, y, angle, base)

    def remove(self, pid: str) -> list[str]:
        """Take a piece off the ring with everything stacked on it; returns their ids, it first."""
        self.piece(pid)
        gone = [pid, *self.riders(pid)]
        for g in gone:
            del self._pieces[g]
        return gone

    def move(self, pid: str, x: float, y: float, angle: float | None = None) -> None:
        """Move a piece (and its riders with it) to a new spot on the same level."""
        p = self.piece(pid)
        a = p.angle if angle is None else angle
        if math.hypot(x, y) > self.ring.radius:
            raise ValueError(f"({x:.3f}, {y:.3f}) is off the ring")
        carried = {pid, *self.riders(pid)}
        blocker = self._overlapping(p.kind, (x, y, a), self.levels()[pid], ignore=carried)
        if blocker:
            raise ValueError(f"piece {pid!r} would overlap piece {blocker!r}")
        da = a - p.angle
        c, s = math.cos(da), math.sin(da)
        self._pieces[pid] = PieceState(pid, p.kind, x, y, a, p.base)
        for r in self.riders(pid):
            q = self._pieces[r]
            rx, ry = q.x - p.x, q.y - p.y
            self._pieces[r] = PieceState(r, q.kind, x + c * rx - s * ry, y + s * rx + c * ry,
                                         q.angle + da, q.base)

    # ----- geometry queries ----------------------------------------------------------------------
    def touching(self, pid: str) -> list[str]:
        """Pieces physically in contact with ``pid``: on its level, in contact within the collision
        slop (Chipmunk's own collision test on the outline grown by the slop), or stacked directly
        on it, or its base."""
        p = self.piece(pid)
        level = self.levels()[pid]
        hits = self._query(p.kind, (p.x, p.y, p.angle), level, grow=self.materials.sim.collision_slop)
        out = {q for q, _ in hits if q != pid}
        out |= {q.id for q in self._pieces.values() if q.base == pid}
        if p.base is not None:
            out.add(p.base)
        return sorted(out)

    def clear_distance(self, pid: str, kind: str, ux: float, uy: float, angle: float = 0.0) -> float:
        """How far from ``pid``'s centre, along the unit direction (ux, uy), a ``kind`` piece turned
        to ``angle`` first stands clear of ``pid`` (touching it within the collision slop). Only
        ``pid`` counts; a spot off the ring counts as not clear."""
        p = self.piece(pid)
        alone = World(self.materials, [p])

        def clear(d: float) -> bool:
            try:
                alone.place(f"{pid}+probe", kind, p.x + ux * d, p.y + uy * d, angle)
            except ValueError:
                return False
            alone.remove(f"{pid}+probe")
            return True

        kinds = self.materials.kinds
        return bisect(clear, 0.0, kinds[p.kind].size + kinds[kind].size + 0.001, 30)[1]

    def in_circle(self, radius: float | None = None) -> list[str]:
        """Pieces any part of which is inside (or touching) the centre circle (default: the ring's
        printed centre circle)."""
        r = self.ring.centre_radius if radius is None else radius
        out = []
        for p in self.pieces:
            near, _ = shapes.extent_from_origin(self.materials.kinds[p.kind].shape, p.x, p.y, p.angle)
            if near <= r:
                out.append(p.id)
        return out

    def overlaps(self) -> list[tuple[str, str, float]]:
        """Every pair of pieces on one level whose outlines overlap: ``(id, id, depth in metres)``,
        the smaller id first, in id order. At rest no depth exceeds ``simulation.rest_overlap``."""
        return Episode(self.materials, self._pieces.values()).overlaps()

    def max_overlap(self) -> float:
        """The deepest overlap between two pieces on one level (metres; 0 when none overlap)."""
        return max((d for _, _, d in self.overlaps()), default=0.0)

    def _overlapping(self, kind: str, pose: tuple[float, float, float], level: int,
                     ignore: set[str] | None = None) -> str | None:
        """Id of the first piece on ``level`` that a ``kind`` at ``pose`` would overlap by more
        than the collision slop, else None."""
        slop = self.materials.sim.collision_slop
        for pid, depth in self._query(kind, pose, level):
            if depth > slop and not (ignore and pid in ignore):
                return pid
        return None

    def _query(self, kind: str, pose: tuple[float, float, float], level: int,
               grow: float = 0.0) -> list[tuple[str, float]]:
        """(id, penetration depth) of every piece on ``level`` that a ``kind`` at ``pose``, its
        outline grown by ``grow``, collides with, in id order. Chipmunk's collision test decides;
        only pieces whose bounding circles come near are built."""
        kinds = self.materials.kinds
        reach = kinds[kind].size + grow + 1e-3
        near = [p for p in self.pieces
                if math.hypot(p.x - pose[0], p.y - pose[1]) < reach + kinds[p.kind].size]
        if near:  # (the levels only for pieces near: every preview asks about its platform spot)
            levels = self.levels()
            near = [p for p in near if levels[p.id] == level]
        if not near:
            return []
        space = pymunk.Space()
        owner: dict[pymunk.Shape, str] = {}
        for p in near:
            body = pymunk.Body(body_type=pymunk.Body.STATIC)
            body.position = (p.x, p.y)
            body.angle = p.angle
            shp = outline_shapes(kinds[p.kind], body)
            space.add(body, *shp)
            owner.update((s, p.id) for s in shp)
        probe_body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        probe_body.position = pose[:2]
        probe_body.angle = pose[2]
        found: dict[str, float] = {}
        for s in outline_shapes(kinds[kind], probe_body, grow):
            s.cache_bb()
            for info in space.shape_query(s):
                depth = shapes_depth(s, info.shape) - grow
                pid = owner[info.shape]
                found[pid] = max(found.get(pid, -math.inf), depth)
        return sorted(found.items())


@functools.lru_cache(maxsize=4096)
def _platform_offset(shape: shapes.Shape, size: float, R: float, px: float, py: float, dx: float,
                     dy: float, angle: float) -> float:
    """How far back along the push line from the entry point a shaped piece turned to ``angle``
    stands wholly outside the ring: a bisection of 60 steps, so an AI's search (which checks each
    of its pushes twice, and the same aims again and again) remembers them."""
    def outside(s: float) -> bool:
        near, _ = shapes.extent_from_origin(shape, px - s * dx, py - s * dy, angle)
        return near >= R

    hi = 2.0 * size + 1e-3
    while not outside(hi):
        hi *= 2
    return bisect(outside, 0.0, hi, 60)[1]


def state_hash(snapshot: dict[str, Any]) -> str:
    """SHA-256 of a snapshot's pieces, exact to the last bit of every float.

    ``json.dumps`` writes floats with ``repr``, which round-trips exactly, so two states hash the
    same only if every coordinate is bit-identical.
    """
    text = json.dumps(snapshot["pieces"], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
