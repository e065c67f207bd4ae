"""One episode of simulation: a fresh pymunk Space built from an at-rest state, stepped to rest.

Determinism: a Space copied or unpickled does not continue like the original (Chipmunk's cached
contacts and warm-start impulses are not carried over), so nothing here is ever copied. Every push
builds a new Space from the ordered at-rest state - bodies in id order, then their constraints in
the same order - and the same state plus the same push is bit-identical in any process.

Table friction is Coulomb friction, not damping: each piece on the ring surface is tied to the
static body by a PivotJoint and a GearJoint with no bias (they only remove velocity) whose force is
clamped to ``mu * M * g`` (``M`` is the piece plus everything stacked on it) and whose torque is
clamped to ``mu * M * g * r_mean`` (``r_mean``: the mean distance of the contact area from the
centre). The solver clamps those impulses together with the contacts, so a piece pushed with less
than the limit does not creep, and a sliding piece decelerates at exactly ``mu * g``.

A stacked piece is tied the same way to its base (coefficient: the two kinds' piece friction), so
it rides along until a jolt asks for more than friction gives. Pieces collide only with pieces on
their own level (a collision filter bit per level).
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pymunk
import pymunk.batch as batch
from pymunk._chipmunk import ffi, lib

from physics import shapes
from physics.materials import Materials, PieceType
from physics.shapes import Circle
from physics.state import Fall, PieceState, Push, Trajectory

_FIELDS = (batch.BodyFields.POSITION | batch.BodyFields.ANGLE | batch.BodyFields.VELOCITY
           | batch.BodyFields.ANGULAR_VELOCITY)
_ITERATOR = ffi.addressof(lib, "pmSpaceBodyGetIteratorFuncBatched")
ANIMATION_RATE = 60.0


def level_filter(level: int) -> pymunk.ShapeFilter:
    bit = 1 << level
    return pymunk.ShapeFilter(categories=bit, mask=bit)


class _Piece:
    """A piece's body, shapes and support joints inside one Space."""

    __slots__ = ("id", "kind", "type", "body", "shapes", "base", "level", "support", "row", "mu",
                 "load", "tied_to")

    def __init__(self, state: PieceState, ptype: PieceType, level: int):
        self.id = state.id
        self.kind = state.kind
        self.type = ptype
        self.base: str | None = state.base
        self.level = level
        body = pymunk.Body(ptype.mass, _moment(ptype))
        body.position = (state.x, state.y)
        body.angle = state.angle
        self.body = body
        friction = math.sqrt(ptype.piece_friction)
        elasticity = math.sqrt(ptype.restitution)
        shp = outline_shapes(ptype, body)
        for s in shp:
            s.friction = friction
            s.elasticity = elasticity
            s.filter = level_filter(level)
        self.shapes = shp
        self.support: list[pymunk.Constraint] = []
        self.row = -1
        self.mu = 0.0
        self.load = -1.0
        self.tied_to: str | None = None


def outline_shapes(ptype: PieceType, body: pymunk.Body, grow: float = 0.0) -> list[pymunk.Shape]:
    """pymunk shapes of a piece kind's outline on ``body``, optionally grown by ``grow`` metres."""
    if isinstance(ptype.shape, Circle):
        return [pymunk.Circle(body, ptype.shape.radius + grow)]
    return [pymunk.Poly(body, list(part), radius=grow) for part in ptype.shape.parts]


def _moment(t: PieceType) -> float:
    if isinstance(t.shape, Circle):
        return pymunk.moment_for_circle(t.mass, 0, t.shape.radius)
    total_area = shapes.area(t.shape)
    return sum(pymunk.moment_for_poly(t.mass * shapes._poly_area(p) / total_area, list(p))
               for p in t.shape.parts)


def levels_of(pieces: dict[str, PieceState]) -> dict[str, int]:
    """Stack level of every piece (0 on the ring surface). Raises ValueError on a broken chain."""
    out: dict[str, int] = {}
    for pid in pieces:
        chain: list[str] = []
        cur: str | None = pid
        while cur is not None and cur not in out:
            if cur in chain:
                raise ValueError(f"piece {pid!r}: stack bases form a loop")
            if cur not in pieces:
                raise ValueError(f"piece {chain[-1]!r}: its base {cur!r} is not on the ring")
            chain.append(cur)
            cur = pieces[cur].base
        lvl = -1 if cur is None else out[cur]
        for c in reversed(chain):
            lvl += 1
            out[c] = lvl
    return out


class Episode:
    """A Space built from an at-rest state, ready to step. Used once, then thrown away."""

    def __init__(self, materials: Materials, pieces: Iterable[PieceState]):
        self.materials = materials
        sim = materials.sim
        self.dt = sim.dt
        self.g = sim.gravity
        space = pymunk.Space()
        space.iterations = sim.iterations
        space.collision_slop = sim.collision_slop
        # Sleeping stays off (sleep_time_threshold is infinite by default); rest is decided from
        # the speeds. The idle threshold is set anyway so nothing depends on Chipmunk's estimate.
        space.idle_speed_threshold = sim.rest_speed
        self.space = space
        states = {p.id: p for p in sorted(pieces, key=lambda p: p.id)}
        levels = levels_of(states)
        self.pieces: dict[str, _Piece] = {}
        for pid, st in states.items():
            self._add(st, levels[pid])
        self._attach_all_supports()
        self.driven: _Piece | None = None
        self.released_pose: tuple[float, float, float] | None = None
        self._drive: list[pymunk.Constraint] = []
        self._controller: pymunk.Body | None = None
        self._buf = batch.Buffer()
        self._reindex()

    # ----- structure -----------------------------------------------------------------------------
    def _add(self, st: PieceState, level: int) -> _Piece:
        ptype = self.materials.kinds.get(st.kind)
        if ptype is None:
            raise ValueError(f"piece {st.id!r}: unknown kind {st.kind!r}")
        p = _Piece(st, ptype, level)
        self.space.add(p.body, *p.shapes)
        self.pieces[p.id] = p
        return p

    def _loads(self) -> dict[str, float]:
        """Weight (N) pressing on each piece's support: the piece plus everything stacked on it."""
        children: dict[str, list[str]] = {}
        for p in self.pieces.values():
            if p.base is not None:
                children.setdefault(p.base, []).append(p.id)
        memo: dict[str, float] = {}

        def mass(pid: str) -> float:
            if pid not in memo:
                memo[pid] = self.pieces[pid].type.mass + sum(mass(c) for c in children.get(pid, ()))
            return memo[pid]

        return {pid: mass(pid) * self.g for pid in self.pieces}

    def _attach_all_supports(self) -> None:
        loads = self._loads()
        for p in self.pieces.values():
            self._tie(p, loads[p.id])

    def _tie(self, p: _Piece, load: float) -> None:
        """(Re)create the friction joints that hold ``p`` on the ring surface or on its base."""
        if p.support:
            self.space.remove(*p.support)
        if p.base is None:
            other = self.space.static_body
            p.mu = p.type.table_friction
            pivot = pymunk.PivotJoint(other, p.body, p.body.position)
        else:
            base = self.pieces[p.base]
            other = base.body
            p.mu = math.sqrt(p.type.piece_friction * base.type.piece_friction)
            pivot = pymunk.PivotJoint(other, p.body, other.world_to_local(p.body.position), (0, 0))
        gear = pymunk.GearJoint(other, p.body, 0.0, 1.0)
        pivot.max_bias = 0.0
        gear.max_bias = 0.0
        p.support = [pivot, gear]
        p.tied_to = p.base
        p.load = -1.0
        self._set_load(p, load)
        self.space.add(pivot, gear)

    @staticmethod
    def _set_load(p: _Piece, load: float) -> None:
        if load != p.load:
            pivot, gear = p.support
            pivot.max_force = p.mu * load
            gear.max_force = p.mu * load * shapes.mean_contact_radius(p.type.shape)
            p.load = load

    def _update_supports(self) -> None:
        """After a fall or a drop: re-tie pieces whose support changed, re-weigh the others."""
        loads = self._loads()
        for p in self.pieces.values():
            if p.tied_to != p.base or not p.support:
                self._tie(p, loads[p.id])
            else:
                self._set_load(p, loads[p.id])

    def _remove(self, pid: str) -> None:
        p = self.pieces.pop(pid)
        if p.support:
            self.space.remove(*p.support)
        if self.driven is p:
            self._release()
        self.space.remove(p.body, *p.shapes)

    def _reindex(self) -> None:
        """Map batch rows to pieces; rows only move when bodies are added or removed.

        Also (re)binds the fast reader: pymunk.batch writes the bodies' fields straight into a
        preallocated numpy array (about 1 us a read, against 50 us for Python attribute access).
        """
        ids_buf = batch.Buffer()
        batch.get_space_bodies(self.space, batch.BodyFields.BODY_ID, ids_buf)
        ids = np.frombuffer(ids_buf.int_buf(), dtype=np.uintp).tolist()
        row_of = {bid: i for i, bid in enumerate(ids)}
        self._nrows = n = len(ids)
        self._order = list(self.pieces.values())
        for p in self._order:
            p.row = row_of[p.body.id]
        self._rows = np.array([p.row for p in self._order], dtype=np.intp)
        self._stacked = [p for p in self._order if p.base is not None]
        self._layout = ([p.id for p in self._order], self._rows, [p.level for p in self._order])
        # Room for twice the rows so the C side never has to grow (and reallocate) the array.
        self._arr = np.zeros(max(1, 2 * n) * 6)
        self._buf.set_float_buf(self._arr)
        self._data = ffi.new("pmBatchedData *")
        self._data.fields = _FIELDS.value
        self._data.floatArray = self._buf._float_arr
        self._data.intArray = self._buf._int_arr
        self._view = self._arr[: n * 6].reshape(n, 6)
        # Distance beyond which a row's centre has fallen: the ring's radius for pieces on it,
        # never for the hand's controller body or the piece still on the platform.
        self._fall_limit = np.full(n, np.inf)
        R = self.materials.ring.radius
        for p in self._order:
            if p is not self.driven:
                self._fall_limit[p.row] = R
        # Column views and scratch arrays for the per-step checks (numpy ufuncs with out=: about
        # 2 us a step for falls and rest together, where einsum or temporaries cost twice that).
        view = self._view
        self._x, self._y = view[:, 0], view[:, 1]
        self._vx, self._vy, self._w = view[:, 3], view[:, 4], view[:, 5]
        self._dist = np.empty(n)
        self._beyond = np.empty(n, dtype=bool)

    def _read(self) -> np.ndarray:
        """(rows, 6) view: x, y, angle, vx, vy, w of every body in the space, read just now."""
        self._buf._float_arr.num = 0
        lib.cpSpaceEachBody(self.space._space, _ITERATOR, self._data)
        return self._view

    # ----- the push ------------------------------------------------------------------------------
    def start_push(self, push: Push, start: tuple[float, float, float]) -> None:
        """Put the pushed piece on the platform at ``start`` = (x, y, angle) and take hold of it."""
        x, y, angle = start
        p = self._add(PieceState(push.piece, push.kind, x, y, angle), 0)
        self._tie(p, p.type.mass * self.g)
        dx, dy = push.direction()
        reach = 4 * self.materials.ring.radius
        # The platform: the piece cannot leave the line while the hand drives it.
        groove = pymunk.GrooveJoint(self.space.static_body, p.body, (x, y),
                                    (x + dx * reach, y + dy * reach), (0, 0))
        # The hand: a velocity servo at the push speed with a bounded force (no bias: steady
        # pressure, it does not try to make up lost ground).
        hand = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        hand.position = (x, y)
        hand.velocity = (dx * push.speed, dy * push.speed)
        grip = pymunk.PivotJoint(hand, p.body, (0, 0), (0, 0))
        grip.max_bias = 0.0
        grip.max_force = self.materials.sim.hand_force
        # The fingers keep the piece from turning while it is driven.
        hold = pymunk.GearJoint(self.space.static_body, p.body, 0.0, 1.0)
        hold.max_bias = 0.0
        self.space.add(hand, groove, grip, hold)
        self._controller = hand
        self._drive = [groove, grip, hold]
        self.driven = p
        self._reindex()

    def _release(self) -> None:
        self.space.remove(*self._drive)
        if self._controller is not None:
            self.space.remove(self._controller)
        self._drive = []
        self._controller = None
        self.driven = None
        self._reindex()

    # ----- running -------------------------------------------------------------------------------
    def launch(self, velocities: dict[str, tuple[float, float, float]]) -> None:
        """Send pieces off with the given (vx, vy, spin) - a flick, for experiments and tuning."""
        for pid, (vx, vy, w) in velocities.items():
            body = self.pieces[pid].body
            body.velocity = (vx, vy)
            body.angular_velocity = w

    def run(self) -> tuple[list[Fall], int, float | None, bool, bool, Trajectory]:
        """Step until everything is at rest (or the time cap). Returns falls, steps, release time,
        stalled, capped and the 60 Hz trajectory. The pose of the pushed piece at its release is
        left in ``released_pose``."""
        sim = self.materials.sim
        dt = self.dt
        R = self.materials.ring.radius
        rest_v = sim.rest_speed
        rest_w = sim.rest_spin
        max_steps = int(math.ceil(sim.max_time / dt))
        drive_steps = int(math.ceil(sim.max_drive_time / dt))
        sample_every = max(1, round(sim.steps_per_second / ANIMATION_RATE))
        traj_ids = [p.id for p in self._order]
        col = {pid: i for i, pid in enumerate(traj_ids)}
        raw: list[tuple[tuple, np.ndarray]] = []

        sampled_at = [-1]

        def sample(data: np.ndarray) -> None:
            # Cheap in the loop: keep the raw rows and the current layout; assemble at the end.
            raw.append((self._layout, data[:, :3].copy()))
            sampled_at[0] = step

        falls: list[Fall] = []
        released_at: float | None = None
        stalled = False
        quiet = 0
        step = 0
        data = self._read()
        sample(data)
        # One checked step through pymunk (it validates new bodies), then Chipmunk's step directly:
        # nothing here uses pymunk's post-step callbacks or deferred adds, and the wrapper costs a
        # fifth of a crowded step.
        space_ptr = self.space._space
        cp_step = lib.cpSpaceStep
        first = True
        hypot, greater = np.hypot, np.greater
        driven_radius = (self.driven.type.shape.radius
                         if self.driven is not None and isinstance(self.driven.type.shape, Circle)
                         else None)
        while step < max_steps:
            if first:
                self.space.step(dt)
                first = False
            else:
                cp_step(space_ptr, dt)
            step += 1
            data = self._read()
            # Falling off: a centre of mass past the ring edge (the piece still in the hand is
            # on the platform, outside the ring, and is exempt until released).
            hypot(self._x, self._y, out=self._dist)
            greater(self._dist, self._fall_limit, out=self._beyond)
            if self._beyond.any():
                out = set(np.flatnonzero(self._beyond).tolist())
                self._fall([p for p in self._order if p.row in out], step * dt, falls)
                data = self._read()
            if self._stacked and self._check_stacks(data):
                data = self._read()  # the layout changed: read the bodies into the new rows
            driven = self.driven
            if driven is not None:
                x, y, a = data[driven.row, :3]
                if driven_radius is not None:
                    far = math.hypot(x, y) + driven_radius
                else:
                    far = shapes.extent_from_origin(driven.type.shape, x, y, a)[1]
                if far <= R or step >= drive_steps:
                    stalled = bool(far > R)
                    released_at = step * dt
                    self.released_pose = (float(x), float(y), float(a))
                    self._release()
                    data = self._read()
            elif step % 2 == 0:
                # At rest: every body slower than the rest thresholds, checked every other step.
                if (hypot(self._vx, self._vy, out=self._dist).max() < rest_v
                        and np.abs(self._w).max() < rest_w):
                    quiet += 2
                    if quiet >= sim.rest_steps:
                        break
                else:
                    quiet = 0
            if step % sample_every == 0:
                sample(data)
        capped = step >= max_steps
        if sampled_at[0] != step:  # the animation always ends on the at-rest state
            sample(data)
        poses = np.full((len(raw), len(traj_ids), 4), np.nan)
        for t, ((order, rows, levels), xya) in enumerate(raw):
            cols = [col[pid] for pid in order]
            poses[t, cols, :3] = xya[rows]
            poses[t, cols, 3] = levels
        traj = Trajectory(traj_ids, ANIMATION_RATE, poses)
        return falls, step, released_at, stalled, capped, traj

    def _fall(self, gone: list[_Piece], t: float, falls: list[Fall]) -> None:
        """Remove fallen pieces and everything stacked on them, in a stable order."""
        for p in sorted(gone, key=lambda q: q.id):
            if p.id not in self.pieces:
                continue
            falls.append(Fall(p.id, p.kind, t))
            self._remove_with_riders(p.id, t, falls)
        self._after_structure_change()

    def _remove_with_riders(self, pid: str, t: float, falls: list[Fall]) -> None:
        riders = sorted(q.id for q in self.pieces.values() if q.base == pid)
        self._remove(pid)
        for r in riders:
            falls.append(Fall(r, self.pieces[r].kind, t, carried_by=pid))
            self._remove_with_riders(r, t, falls)

    def _after_structure_change(self) -> None:
        self._update_supports()
        self._reindex()

    def _check_stacks(self, data: np.ndarray) -> bool:
        """A stacked piece whose centre has left its base drops one level (or more). Returns
        whether anything dropped (the rows were then rebuilt and must be read again)."""
        dropped = False
        for p in self._stacked:
            assert p.base is not None  # _stacked holds only pieces on a base
            base = self.pieces[p.base]
            x, y = data[p.row, :2]
            if _over(base, x, y, data):
                continue
            # Find what is now under its centre, one level down at a time.
            new_base = base.base
            level = base.level
            while new_base is not None and not _over(self.pieces[new_base], x, y, data):
                level -= 1
                new_base = self.pieces[new_base].base
            p.base = new_base
            p.level = level
            for s in p.shapes:
                s.filter = level_filter(level)
            dropped = True
        if dropped:
            # Levels of pieces riding on a dropped piece follow it down.
            for q in self.pieces.values():
                lvl = 0
                b = q.base
                while b is not None:
                    lvl += 1
                    b = self.pieces[b].base
                if lvl != q.level:
                    q.level = lvl
                    for s in q.shapes:
                        s.filter = level_filter(lvl)
            self._after_structure_change()
        return dropped

    def at_rest_state(self) -> list[PieceState]:
        data = self._read()
        out = []
        for p in sorted(self.pieces.values(), key=lambda q: q.id):
            x, y, a = data[p.row, :3]
            out.append(PieceState(p.id, p.kind, float(x), float(y), float(a), p.base))
        return out


def _over(base: _Piece, x: float, y: float, data: np.ndarray) -> bool:
    """Whether the world point (x, y) lies over ``base``'s outline where it is now."""
    bx, by, ba = data[base.row, :3]
    return shapes.covers(base.type.shape, bx, by, ba, x, y)
