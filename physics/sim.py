"""One episode of simulation: a fresh pymunk Space built from an at-rest state, stepped to rest.

Determinism: a Space copied or unpickled does not continue like the original (Chipmunk's cached
contacts and warm-start impulses are not carried over), so nothing here is ever copied. Every push
builds a new Space from the ordered at-rest state - bodies in canonical order (by level and
position, never by id: see :func:`canonical_key`), then their constraints in the same order - and
the same state plus the same push is bit-identical in any process, whatever the pieces are called.

Table friction is Coulomb friction, not damping: each piece on the ring surface is tied to the
static body by a PivotJoint and a GearJoint with no bias (they only remove velocity) whose force is
clamped to ``mu * M * g`` (``M`` is the piece plus everything stacked on it) and whose torque is
clamped to ``mu * M * g * r_mean`` (``r_mean``: the mean distance of the contact area from the
centre). The solver clamps those impulses together with the contacts, so a piece pushed with less
than the limit does not creep, and a sliding piece decelerates at exactly ``mu * g``. A piece that
slides and spins at once gets less of each: every step the two limits are set from the flat-piece
Coulomb model of :mod:`physics.friction` (spin makes a disc slide farther; both stop together).

A stacked piece is tied the same way to its base (coefficient: the two kinds' piece friction), so
it rides along until a jolt asks for more than friction gives. Pieces collide only with pieces on
their own level (a collision filter bit per level).

Support is statics: a rider stays while the centre of mass of it and everything on it is over its
base's outline, else it slides off onto whatever is under that centre (a neighbour at the same
height, or one level down, or the ring surface). A piece on the ring surface falls when the centre
of mass of it and everything stacked on it passes the ring's edge: a stack is judged as a whole.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pymunk
import pymunk.batch as batch
from pymunk._chipmunk import ffi, lib

from physics import friction, shapes
from physics.materials import Materials, PieceType
from physics.shapes import Circle
from physics.state import Fall, PieceState, Push, Trajectory

_FIELDS = (batch.BodyFields.POSITION | batch.BodyFields.ANGLE | batch.BodyFields.VELOCITY
           | batch.BodyFields.ANGULAR_VELOCITY)
_ITERATOR = ffi.addressof(lib, "pmSpaceBodyGetIteratorFuncBatched")
ANIMATION_RATE = 60.0
#: Below this (m/s, at a piece's rim) a piece is still on its support: friction is static.
_STILL = 1e-6
#: Friction limits follow the coupled model to this fraction of their full value.
_RETUNE = 1e-2
#: ... recomputed every this many steps (120 Hz at 480 steps a second).
_COUPLE_EVERY = 4


def level_filter(level: int) -> pymunk.ShapeFilter:
    """Shapes on one stack level collide only with each other."""
    f = _FILTERS.get(level)
    if f is None:
        bit = 1 << level
        f = _FILTERS[level] = pymunk.ShapeFilter(categories=bit, mask=bit)
    return f


_FILTERS: dict[int, pymunk.ShapeFilter] = {}


class _Piece:
    """A piece's body, shapes and support joints inside one Space."""

    __slots__ = ("id", "kind", "type", "body", "shapes", "base", "level", "support", "row", "mu",
                 "load", "tied_to", "coupled", "base_row", "r_mean", "r_eq")

    def __init__(self, state: PieceState, ptype: PieceType, level: int, consts: _KindConsts):
        self.id = state.id
        self.kind = state.kind
        self.type = ptype
        self.base: str | None = state.base
        self.level = level
        # Chipmunk's setters called directly: pymunk's properties do the same through a Python
        # __setattr__ hook, and building the Space is a third of a preview.
        body = pymunk.Body(ptype.mass, consts.moment)
        lib.cpBodySetPosition(body._body, (state.x, state.y))
        lib.cpBodySetAngle(body._body, state.angle)
        self.body = body
        shp = outline_shapes(ptype, body)
        filt = level_filter(level)
        for s in shp:
            sp = s._shape
            lib.cpShapeSetFriction(sp, consts.friction)
            lib.cpShapeSetElasticity(sp, consts.elasticity)
            lib.cpShapeSetFilter(sp, filt)
        self.shapes = shp
        self.support: list[pymunk.Constraint] = []
        self.row = -1
        self.mu = 0.0
        self.load = -1.0
        self.tied_to: str | None = None
        #: The (force, torque) fractions of full friction the support joints are set to now.
        self.coupled = (1.0, 1.0)
        self.base_row = -1
        #: Mean contact radius, and the radius of the disc with that mean (physics.friction).
        self.r_mean = consts.r_mean
        self.r_eq = 1.5 * self.r_mean


class _KindConsts:
    """What every piece of one kind shares, worked out once per Episode."""

    __slots__ = ("moment", "friction", "elasticity", "r_mean")

    def __init__(self, ptype: PieceType):
        self.moment = _moment(ptype)
        self.friction = math.sqrt(ptype.piece_friction)
        self.elasticity = math.sqrt(ptype.restitution)
        self.r_mean = shapes.mean_contact_radius(ptype.shape)


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

    def __init__(self, materials: Materials, pieces: Iterable[PieceState],
                 frame_deg: float = 0.0):
        """``frame_deg``: the direction (degrees round the ring) the canonical order is measured
        from; a push passes its entry point, so a push and its world turned together about the
        ring's centre enter the Space in the same order."""
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
        by_id = {p.id: p for p in pieces}
        levels = levels_of(by_id)
        # Canonical order: bodies, shapes and constraints go into the Space sorted by where the
        # pieces are, never by their ids, so relabelling or reordering pieces cannot change the
        # solver's order (which decides the last millimetres of a crowded push).
        c, s = math.cos(math.radians(frame_deg)), math.sin(math.radians(frame_deg))
        ordered = sorted(by_id.values(), key=lambda p: canonical_key(p, levels[p.id], c, s))
        self.pieces: dict[str, _Piece] = {}
        self._consts: dict[str, _KindConsts] = {}
        self._rank: dict[str, int] = {}
        for st in ordered:
            self._add(st, levels[st.id])
        self._attach_all_supports()
        self.driven: _Piece | None = None
        self.released_pose: tuple[float, float, float] | None = None
        self._drive: list[pymunk.Constraint] = []
        self._controller: pymunk.Body | None = None
        self._buf = batch.Buffer()
        self._forces: list[tuple[pymunk.Body, tuple[float, float, float]]] = []
        self._force_steps = 0
        # The rows are mapped when first needed: a push adds its piece and maps them then.
        self._stale = True

    # ----- structure -----------------------------------------------------------------------------
    def _add(self, st: PieceState, level: int) -> _Piece:
        ptype = self.materials.kinds.get(st.kind)
        if ptype is None:
            raise ValueError(f"piece {st.id!r}: unknown kind {st.kind!r}")
        consts = self._consts.get(st.kind)
        if consts is None:
            consts = self._consts[st.kind] = _KindConsts(ptype)
        p = _Piece(st, ptype, level, consts)
        self.space.add(p.body, *p.shapes)
        self.pieces[p.id] = p
        self._rank[p.id] = len(self._rank)
        return p

    def _children(self) -> dict[str, list[str]]:
        children: dict[str, list[str]] = {}
        for p in self.pieces.values():
            if p.base is not None:
                children.setdefault(p.base, []).append(p.id)
        return children

    def _loads(self) -> dict[str, float]:
        """Weight (N) pressing on each piece's support: the piece plus everything stacked on it."""
        children = self._children()
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
        lib.cpConstraintSetMaxBias(pivot._constraint, 0.0)
        lib.cpConstraintSetMaxBias(gear._constraint, 0.0)
        p.support = [pivot, gear]
        p.tied_to = p.base
        p.load = -1.0
        self._set_load(p, load)
        self.space.add(pivot, gear)

    @staticmethod
    def _set_load(p: _Piece, load: float) -> None:
        """Full (static) friction limits for a support pressed by ``load`` newtons."""
        if load != p.load:
            pivot, gear = p.support
            lib.cpConstraintSetMaxForce(pivot._constraint, p.mu * load)
            lib.cpConstraintSetMaxForce(gear._constraint, p.mu * load * p.r_mean)
            p.load = load
            p.coupled = (1.0, 1.0)

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
        self._layout = ([p.id for p in self._order], self._rows, [p.level for p in self._order])
        # Room for twice the rows so the C side never has to grow (and reallocate) the array.
        self._arr = np.zeros(max(1, 2 * n) * 6)
        self._buf.set_float_buf(self._arr)
        self._data = ffi.new("pmBatchedData *")
        self._data.fields = _FIELDS.value
        self._data.floatArray = self._buf._float_arr
        self._data.intArray = self._buf._int_arr
        self._view = self._arr[: n * 6].reshape(n, 6)
        self._stale = False
        # Stacks. A piece with riders is judged with them: its fall by the combined centre of mass
        # of the whole stack on it; a rider's support by the combined centre of itself and what
        # rides on it (for a lone rider: its own centre).
        children = self._children()

        def stack(pid: str) -> list[str]:
            out = [pid]
            for c in children.get(pid, ()):
                out += stack(c)
            return out

        self._stacked = []
        self._stacks = []
        for p in self._order:
            if p.base is None and p.id not in children:
                continue
            members = [self.pieces[q] for q in stack(p.id)]
            rows = np.array([q.row for q in members], dtype=np.intp)
            mass = np.array([q.type.mass for q in members])
            entry = (p, rows, mass / mass.sum())
            if p.base is not None:
                self._stacked.append(entry)
            elif p is not self.driven:
                self._stacks.append(entry)
        # Distance beyond which a row's centre has fallen: the ring's radius for lone pieces on
        # it; never for riders (their base decides), stack bases (the stack's centre decides, in
        # _check_stacks), the hand's controller body or the piece still on the platform.
        self._fall_limit = np.full(n, np.inf)
        R = self.materials.ring.radius
        for p in self._order:
            if p is not self.driven and p.base is None and p.id not in children:
                self._fall_limit[p.row] = R
        # Column views and scratch arrays for the per-step checks (numpy ufuncs with out=: about
        # 2 us a step for falls and rest together, where einsum or temporaries cost twice that).
        view = self._view
        self._x, self._y = view[:, 0], view[:, 1]
        self._vx, self._vy, self._w = view[:, 3], view[:, 4], view[:, 5]
        self._dist = np.empty(n)
        self._beyond = np.empty(n, dtype=bool)
        # Coupled friction (see _couple): the rows of every piece and of its support (its own row
        # for the ring surface, where the support is still), and how fast a row may move before
        # its friction is recomputed.
        self._speed_weights = np.zeros((3,))
        self._motion = np.empty(n)
        self._absv = np.empty((n, 3))
        sizes = [p.type.size for p in self._order]
        self._speed_weights[:] = (1.0, 1.0, max(sizes, default=0.0))
        self._by_row: list[_Piece | None] = [None] * n
        for p in self._order:
            self._by_row[p.row] = p
            p.base_row = self.pieces[p.base].row if p.base is not None else -1
        self._coupled: set[_Piece] = {p for p in self._order if p.coupled != (1.0, 1.0)}

    def _read(self) -> np.ndarray:
        """(rows, 6) view: x, y, angle, vx, vy, w of every body in the space, read just now."""
        self._buf._float_arr.num = 0
        lib.cpSpaceEachBody(self.space._space, _ITERATOR, self._data)
        return self._view

    # ----- coupled friction ----------------------------------------------------------------------
    def _couple(self, data: np.ndarray) -> None:
        """Set every moving piece's friction limits from its sliding and spinning speeds.

        The joints keep their full limits (``mu N`` and ``mu N r_mean``) while a piece rests on
        its support: that is static friction. Once it moves relative to its support, force and
        torque follow the flat-piece Coulomb model of :mod:`physics.friction` for the speeds at
        the start of the step. Only rows that move are looked at (most of a crowd is still).
        """
        np.abs(data[:, 3:], out=self._absv)
        np.dot(self._absv, self._speed_weights, out=self._motion)
        by_row = self._by_row
        look = self._coupled.copy()
        for row in np.flatnonzero(self._motion > _STILL).tolist():
            p = by_row[row]
            if p is not None:
                look.add(p)
        for p, _rows, _share in self._stacked:  # a still rider on a moving base moves over it
            if by_row[p.base_row] in look:
                look.add(p)
        coupled = self._coupled
        f_tab, t_tab = friction.tables()
        last = len(f_tab) - 2
        for p in look:
            x, y, _, vx, vy, w = data[p.row].tolist()
            if p.base_row >= 0:
                bx, by, _, bvx, bvy, bw = data[p.base_row].tolist()
                vx -= bvx - bw * (y - by)
                vy -= bvy + bw * (x - bx)
                w -= bw
            slide = math.hypot(vx, vy)
            spin = abs(w) * p.r_eq
            if slide <= _STILL and spin <= _STILL:
                f = t = 1.0                      # resting on its support: static friction
            else:
                # friction.fraction, inlined: this loop runs for every moving piece.
                pos = slide / (slide + spin) * (last + 1)
                i = min(int(pos), last)
                a = pos - i
                f = f_tab[i] + a * (f_tab[i + 1] - f_tab[i])
                t = t_tab[i] + a * (t_tab[i + 1] - t_tab[i])
            old_f, old_t = p.coupled
            if abs(f - old_f) > _RETUNE or abs(t - old_t) > _RETUNE or (
                    f == t == 1.0 and old_f + old_t != 2.0):
                full = p.mu * p.load
                pivot, gear = p.support
                lib.cpConstraintSetMaxForce(pivot._constraint, full * f)
                lib.cpConstraintSetMaxForce(gear._constraint, full * t * p.r_mean)
                p.coupled = (f, t)
                if f == t == 1.0:
                    coupled.discard(p)
                else:
                    coupled.add(p)

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

    def strike(self, impulses: dict[str, tuple[float, float, float]]) -> None:
        """Give pieces impulses ``(jx, jy, angular)`` at their centres (N s, and N m s)."""
        for pid, (jx, jy, ja) in impulses.items():
            body = self.pieces[pid].body
            body.velocity = (body.velocity.x + jx / body.mass, body.velocity.y + jy / body.mass)
            body.angular_velocity = body.angular_velocity + ja / body.moment

    def hold_forces(self, forces: dict[str, tuple[float, float, float]], duration: float) -> None:
        """Press on pieces with constant forces ``(fx, fy, torque)`` at their centres for the
        first ``duration`` seconds of :meth:`run` (Chipmunk clears forces after every step)."""
        self._forces = [(self.pieces[pid].body, f) for pid, f in forces.items()]
        self._force_steps = int(round(duration / self.dt))

    def _press(self) -> None:
        for body, (fx, fy, tq) in self._forces:
            body.force = (fx, fy)
            body.torque = tq

    def run(self, sample_rate: float = ANIMATION_RATE
            ) -> tuple[list[Fall], int, float | None, bool, bool, Trajectory]:
        """Step until everything is at rest (or the time cap). Returns falls, steps, release time,
        stalled, capped and the trajectory sampled at ``sample_rate`` (at most once a step). The
        pose of the pushed piece at its release is left in ``released_pose``.

        At rest means both: every body slower than the rest thresholds for ``rest_steps`` steps,
        and no two pieces on one level overlapping by more than ``rest_overlap``. Chipmunk pushes
        overlaps apart with bias velocities that the speeds do not show, so a world can look still
        while a piece that dropped onto a neighbour is still being pushed out.
        """
        if self._stale:
            self._reindex()
        sim = self.materials.sim
        dt = self.dt
        R = self.materials.ring.radius
        rest_v = sim.rest_speed
        rest_w = sim.rest_spin
        max_steps = int(math.ceil(sim.max_time / dt))
        drive_steps = int(math.ceil(sim.max_drive_time / dt))
        sample_every = max(1, round(sim.steps_per_second / sample_rate))
        traj_ids = [p.id for p in self._order]
        col = {pid: i for i, pid in enumerate(traj_ids)}
        raw: list[tuple[tuple, np.ndarray]] = []

        sampled_at = [-1]

        def sample(data: np.ndarray) -> None:
            # Cheap in the loop: keep the raw rows and the current layout; assemble at the end.
            raw.append((self._layout, data.copy()))
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
        self._couple(data)
        forces = self._force_steps
        while step < max_steps:
            if step < forces:
                self._press()
            if first:
                self.space.step(dt)
                first = False
            else:
                cp_step(space_ptr, dt)
            step += 1
            data = self._read()
            # Falling off: a lone piece's centre of mass past the ring edge, or a whole stack's
            # (the piece still in the hand is on the platform, outside the ring, and is exempt
            # until released).
            hypot(self._x, self._y, out=self._dist)
            greater(self._dist, self._fall_limit, out=self._beyond)
            if self._beyond.any() or self._stacks:
                gone = set(np.flatnonzero(self._beyond).tolist())
                for p, rows, share in self._stacks:
                    if math.hypot(share @ data[rows, 0], share @ data[rows, 1]) > R:
                        gone.add(p.row)
                if gone:
                    self._fall([p for p in self._order if p.row in gone], step * dt, falls)
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
            elif step % 2 == 0 and step >= forces:
                # At rest: every body slower than the rest thresholds, checked every other step,
                # and (checked once the speeds say so) no overlap left to push out.
                if (hypot(self._vx, self._vy, out=self._dist).max() < rest_v
                        and np.abs(self._w).max() < rest_w):
                    quiet += 2
                    if quiet >= sim.rest_steps:
                        if self.max_overlap(data) <= sim.rest_overlap:
                            break
                        quiet = 0
                else:
                    quiet = 0
            if step % _COUPLE_EVERY == 0:
                self._couple(data)
            if step % sample_every == 0:
                sample(data)
        capped = step >= max_steps
        if sampled_at[0] != step:  # the trajectory always ends on the at-rest state
            sample(data)
        states = np.full((len(raw), len(traj_ids), 7), np.nan)
        for t, ((order, rows, levels), rows_data) in enumerate(raw):
            cols = [col[pid] for pid in order]
            states[t, cols, :6] = rows_data[rows]
            states[t, cols, 6] = levels
        traj = Trajectory(traj_ids, sample_rate if sample_every > 1 else sim.steps_per_second,
                          states[:, :, (0, 1, 2, 6)], states[:, :, 3:6])
        return falls, step, released_at, stalled, capped, traj

    def _fall(self, gone: list[_Piece], t: float, falls: list[Fall]) -> None:
        """Remove fallen pieces and everything stacked on them.

        Falls are reported in id order; the bodies leave the Space in canonical order (Chipmunk
        reorders its arrays on removal, so the order of removal must not depend on ids either).
        """
        removed: list[str] = []
        for p in sorted(gone, key=lambda q: q.id):
            if p.id in removed:
                continue
            removed.append(p.id)
            falls.append(Fall(p.id, p.kind, t))
            self._report_riders(p.id, t, falls, removed)
        for pid in sorted(removed, key=self._rank.__getitem__):
            self._remove(pid)
        self._after_structure_change()

    def _report_riders(self, pid: str, t: float, falls: list[Fall], removed: list[str]) -> None:
        for r in sorted(q.id for q in self.pieces.values() if q.base == pid):
            if r not in removed:
                removed.append(r)
                falls.append(Fall(r, self.pieces[r].kind, t, carried_by=pid))
                self._report_riders(r, t, falls, removed)

    def _after_structure_change(self) -> None:
        self._update_supports()
        self._reindex()

    def _check_stacks(self, data: np.ndarray) -> bool:
        """A rider stays while the centre of mass of it and everything on it is over its base's
        outline. One whose centre has left its base drops a level: onto whatever piece of that
        level is under its centre (its base's own base, or a neighbour), else on down, to the ring
        surface (where it falls at once if that spot is off the ring). Returns whether anything
        dropped (the rows were then rebuilt and must be read again)."""
        dropped = False
        for p, rows, share in self._stacked:
            assert p.base is not None  # _stacked holds only pieces on a base
            base = self.pieces[p.base]
            x, y = float(share @ data[rows, 0]), float(share @ data[rows, 1])
            if _over(base, x, y, data):
                continue
            carried = {self._by_row[r] for r in rows.tolist()}
            # It may slide onto a neighbour of its base at the same height, else it drops.
            level = base.level + 1
            new_base: str | None = None
            while level > 0 and new_base is None:
                level -= 1
                for q in self._order:  # canonical order: the first one under it takes it
                    if (q.level == level and q not in carried and q is not self.driven
                            and q is not base and _over(q, x, y, data)):
                        new_base = q.id
                        break
            p.base = new_base
            p.level = level + (new_base is not None)
            dropped = True
        if dropped:
            # Levels of pieces riding on a dropped piece follow it down.
            for q in self.pieces.values():
                lvl = 0
                b = q.base
                while b is not None:
                    lvl += 1
                    b = self.pieces[b].base
                if lvl != q.level or q.shapes[0].filter != level_filter(lvl):
                    q.level = lvl
                    for s in q.shapes:
                        s.filter = level_filter(lvl)
            self._after_structure_change()
        return dropped

    # ----- queries -------------------------------------------------------------------------------
    def max_overlap(self, data: np.ndarray | None = None) -> float:
        """The deepest overlap (metres) between two pieces on the same level, where they are now."""
        return max((depth for _, _, depth in self._overlaps(data, listed=False)), default=0.0)

    def overlaps(self, data: np.ndarray | None = None) -> list[tuple[str, str, float]]:
        """(id, id, depth) of every pair of pieces on one level whose outlines overlap."""
        return sorted(self._overlaps(data, listed=True))

    def _overlaps(self, data: np.ndarray | None, listed: bool) -> list[tuple[str, str, float]]:
        """Overlapping pairs; with ``listed`` False only the deepest disc pair and the polygon
        pairs (enough for the deepest overlap, and cheap: the rest test runs this)."""
        if self._stale:
            self._reindex()
        if data is None:
            data = self._read()
        order = [p for p in self._order if p is not self.driven]
        if len(order) < 2:
            return []
        rows = np.array([p.row for p in order], dtype=np.intp)
        xy = data[rows, :2]
        size = np.array([p.type.size for p in order])
        level = np.array([p.level for p in order])
        round_ = np.array([isinstance(p.type.shape, Circle) for p in order])
        d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
        depth = size[:, None] + size[None, :] - d     # exact for two discs, a bound otherwise
        near = np.triu((depth > 0) & (level[:, None] == level[None, :]), 1)
        discs = near & round_[:, None] & round_[None, :]
        out: list[tuple[str, str, float]] = []
        pairs = zip(*np.nonzero(discs), strict=True) if listed else (
            [np.unravel_index(np.argmax(np.where(discs, depth, -np.inf)), depth.shape)]
            if discs.any() else [])
        for i, j in pairs:
            out.append(_pair(order[i].id, order[j].id, float(depth[i, j])))
        for i, j in zip(*np.nonzero(near & ~discs), strict=True):
            a, b = order[i], order[j]
            dep = max((shapes_depth(sa, sb) for sa in a.shapes for sb in b.shapes),
                      default=-math.inf)
            if dep > 0:
                out.append(_pair(a.id, b.id, dep))
        return out

    def at_rest_state(self) -> list[PieceState]:
        if self._stale:
            self._reindex()
        data = self._read()
        out = []
        for p in sorted(self.pieces.values(), key=lambda q: q.id):
            x, y, a = data[p.row, :3]
            out.append(PieceState(p.id, p.kind, float(x), float(y), float(a), p.base))
        return out


def _pair(a: str, b: str, depth: float) -> tuple[str, str, float]:
    return (a, b, depth) if a < b else (b, a, depth)


def canonical_key(p: PieceState, level: int, c: float = 1.0, s: float = 0.0) -> tuple:
    """Where a piece is - its level, then its position along and across the frame direction
    ``(c, s)``, then its kind - is the order bodies enter a Space. Two pieces on one level cannot
    share a spot, so the id only breaks ties that never happen."""
    return (level, round(p.x * c + p.y * s, 9), round(p.y * c - p.x * s, 9), p.kind, p.id)


def shapes_depth(a: pymunk.Shape, b: pymunk.Shape) -> float:
    """How deep two shapes overlap (negative: the gap between them; -inf: not in contact).

    pymunk reports a polygon-against-circle contact with the distance's sign flipped when the
    polygon is given first, so the circle always goes first.
    """
    if isinstance(b, pymunk.Circle) and not isinstance(a, pymunk.Circle):
        a, b = b, a
    try:
        points = a.shapes_collide(b).points
    except AssertionError:  # pymunk asserts when the two are not in contact at all
        return -math.inf
    return max((-pt.distance for pt in points), default=-math.inf)


def _over(base: _Piece, x: float, y: float, data: np.ndarray) -> bool:
    """Whether the world point (x, y) lies over ``base``'s outline where it is now."""
    bx, by, ba = data[base.row, :3]
    return shapes.covers(base.type.shape, bx, by, ba, x, y)
