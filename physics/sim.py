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

import functools
import math
import weakref
from collections.abc import Iterable
from typing import cast

import numpy as np
import pymunk
import pymunk.batch as batch
from pymunk._chipmunk import ffi, lib

from physics import friction, shapes
from physics.chipmunk import Ptr, RawSpace
from physics.chipmunk import shapes_depth as raw_shapes_depth
from physics.materials import Materials, PieceType
from physics.shapes import Circle
from physics.state import Fall, PieceState, Push, Trajectory

_FIELDS = (batch.BodyFields.BODY_ID | batch.BodyFields.POSITION | batch.BodyFields.ANGLE
           | batch.BodyFields.VELOCITY | batch.BodyFields.ANGULAR_VELOCITY)
_ITERATOR = ffi.addressof(lib, "pmSpaceBodyGetIteratorFuncBatched")
#: Per contact pair: the two bodies' ids (ints) and the depths of its one or two contact points.
_ARBITER_FIELDS = (batch.ArbiterFields.BODY_A_ID | batch.ArbiterFields.BODY_B_ID
                   | batch.ArbiterFields.DISTANCE_1 | batch.ArbiterFields.DISTANCE_2)
_ARBITER_ITERATOR = ffi.addressof(lib, "pmSpaceArbiterIteratorFuncBatched")
ANIMATION_RATE = 60.0
#: Below this (m/s, at a piece's rim) a piece is still on its support: friction is static.
_STILL = 1e-6
#: Friction limits follow the coupled model to this fraction of their full value.
_RETUNE = 1e-2
#: ... recomputed every this many steps (120 Hz at 480 steps a second).
_COUPLE_EVERY = 4


#: Room (m) left for Chipmunk's push-out of overlaps when judging that nothing more can fall.
_SETTLE_MARGIN = 1e-3

_SIX = np.arange(6)
#: Resting bodies sleep (physics model 3; see Episode). Off only to compare with model 2.
SLEEP = True
#: The per-step tests skip what provably cannot change their answer (Episode.run). Off: every
#: test worked out in full every step, the reference tests/physics/test_shortcuts.py compares with.
SHORTCUTS = True
#: Room (m) for rounding when a test is skipped on a bound: far more than float64's error at the
#: ring's size (about 1e-17 m), far less than anything a piece does in a step.
_MARGIN = 1e-9


class _Piece:
    """A piece's body, shapes and support joints inside one Space."""

    __slots__ = ("id", "kind", "type", "body", "shapes", "round", "base", "level", "support",
                 "row", "mu", "load", "tied_to", "coupled", "base_row", "r_mean", "r_eq")

    def __init__(self, space: RawSpace, state: PieceState, consts: _KindConsts, level: int,
                 row: int):
        self.id = state.id
        self.kind = state.kind
        self.type = consts.type
        self.base: str | None = state.base
        self.level = level
        # Raw Chipmunk objects (physics.chipmunk): the same calls pymunk's classes make, without
        # their Python bookkeeping, which cost a third of a preview.
        self.body: Ptr = space.body(consts.mass, consts.moment, state.x, state.y, state.angle, row)
        self.round = consts.radius is not None
        self.shapes = space.piece_shapes(self.body, consts.radius, consts.vertices, consts.friction,
                                         consts.elasticity, 1 << level)
        self.support: list[Ptr] = []
        self.row = row
        self.mu = 0.0
        self.load = -1.0
        self.tied_to: str | None = None
        #: The (force, torque) fractions of full friction the support joints are set to now.
        self.coupled = (1.0, 1.0)
        self.base_row = -1
        #: Mean contact radius, and the radius of the disc with that mean (physics.friction).
        self.r_mean = consts.r_mean
        self.r_eq = consts.r_eq


class _KindConsts:
    """What every piece of one kind shares (:func:`_kind_consts`: once per process)."""

    __slots__ = ("type", "mass", "moment", "friction", "elasticity", "r_mean", "r_eq",
                 "least_reach", "radius", "vertices")

    def __init__(self, ptype: PieceType):
        self.type = ptype
        self.mass = ptype.mass
        self.moment = _moment(ptype)
        self.friction = math.sqrt(ptype.piece_friction)
        self.elasticity = math.sqrt(ptype.restitution)
        self.r_mean = shapes.mean_contact_radius(ptype.shape)
        self.r_eq = 1.5 * self.r_mean
        self.least_reach = shapes.least_reach(ptype.shape)
        #: A disc's radius (None for polygons), or the polygons' vertices as Chipmunk reads them
        #: (cpPolyShapeNew copies them, so one array serves every piece of the kind).
        self.radius = ptype.shape.radius if isinstance(ptype.shape, Circle) else None
        self.vertices = ([] if isinstance(ptype.shape, Circle)
                         else [RawSpace.vertices(part) for part in ptype.shape.parts])


@functools.lru_cache(maxsize=256)
def _kind_consts(ptype: PieceType) -> _KindConsts:
    """A kind's constants, worked out once per process (a polygon's moment and mean contact radius
    took a tenth of an AI preview when every Episode worked them out again)."""
    return _KindConsts(ptype)


class _MaterialsConsts:
    """What every Episode of one :class:`Materials` shares: the idle speed and each kind's
    constants by name (:func:`_materials_consts`). Looking a kind up by its PieceType hashes its
    whole outline; by name, once per Materials, it costs nothing."""

    __slots__ = ("idle_speed", "kinds", "__weakref__")

    def __init__(self, materials: Materials):
        self.idle_speed = idle_speed(materials)
        self.kinds: dict[str, _KindConsts] = {}


#: id(materials) -> (a weak reference to it, its constants); an entry leaves with its Materials.
_BY_MATERIALS: dict[int, tuple[weakref.ref, _MaterialsConsts]] = {}


def _materials_consts(materials: Materials) -> _MaterialsConsts:
    key = id(materials)
    hit = _BY_MATERIALS.get(key)
    if hit is not None and hit[0]() is materials:
        return hit[1]
    consts = _MaterialsConsts(materials)

    def forget(_ref: weakref.ref, k: int = key) -> None:
        _BY_MATERIALS.pop(k, None)

    _BY_MATERIALS[key] = (weakref.ref(materials, forget), consts)
    return consts


def outline_shapes(ptype: PieceType, body: pymunk.Body, grow: float = 0.0) -> list[pymunk.Shape]:
    """pymunk shapes of a piece kind's outline on ``body``, optionally grown by ``grow`` metres."""
    if isinstance(ptype.shape, Circle):
        return [pymunk.Circle(body, ptype.shape.radius + grow)]
    return [pymunk.Poly(body, list(part), radius=grow) for part in ptype.shape.parts]


def _moment(t: PieceType) -> float:
    if isinstance(t.shape, Circle):
        return pymunk.moment_for_circle(t.mass, 0, t.shape.radius)
    total_area = shapes.area(t.shape)
    return math.fsum(pymunk.moment_for_poly(t.mass * shapes._poly_area(p) / total_area, list(p))
                     for p in t.shape.parts)


def idle_speed(materials: Materials) -> float:
    """Chipmunk's idle speed u: a body idles while m v^2 + I w^2 < m u^2, which keeps v under
    u and w under u sqrt(m / I); u is the largest speed that keeps both under the rest
    thresholds for every kind."""
    sim = materials.sim
    spins = [sim.rest_spin * math.sqrt(_moment(t) / t.mass) for t in materials.kinds.values()]
    return min([sim.rest_speed, *spins])


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
        # Resting bodies sleep (physics model 3): Chipmunk leaves a sleeping body out of the
        # solver and out of the index of moving shapes, and wakes it, in the step, before solving,
        # the moment an awake body touches it. A piece at rest on its support has no velocity to
        # lose (its friction joints have no bias), so sleeping changes nothing it would have done
        # but the solver's order; it saves most of a crowded step, where most pieces never move.
        # Idle: kinetic energy under m u^2 for rest_steps steps, with u chosen so that an idle
        # body is under both rest thresholds (speed, and spin for the kind with the least moment
        # per mass), so a sleeping body is at rest by the same test as an awake one (run).
        shared = _materials_consts(materials)
        self._consts = shared.kinds
        self.space = RawSpace(sim.iterations, sim.collision_slop, shared.idle_speed,
                              sim.rest_steps * sim.dt if SLEEP else math.inf)
        by_id = {p.id: p for p in pieces}
        levels = levels_of(by_id)
        # Canonical order: bodies, shapes and constraints go into the Space sorted by where the
        # pieces are, never by their ids, so relabelling or reordering pieces cannot change the
        # solver's order (which decides the last millimetres of a crowded push).
        c, s = math.cos(math.radians(frame_deg)), math.sin(math.radians(frame_deg))
        ordered = sorted(by_id.values(), key=lambda p: canonical_key(p, levels[p.id], c, s))
        self.pieces: dict[str, _Piece] = {}
        # pymunk's Space adds a static body of its own to the Space's list of bodies when it is
        # first asked for; so does this one, at the same moment (model 2's numbers had it).
        self._static_ptr: Ptr | None = None
        self._rank: dict[str, int] = {}
        for st in ordered:
            self._add(st, levels[st.id])
        self._attach_all_supports()
        self.driven: _Piece | None = None
        self.released_pose: tuple[float, float, float] | None = None
        self._drive: list[Ptr] = []
        self._controller: Ptr | None = None
        self._line = (0.0, 0.0)  # the direction the hand drives its piece (start_push)
        self._hand_speed = 0.0   # the hand's speed along that line
        self._stopping = False   # the piece is wholly on the ring and the hand is stopping
        self._buf = batch.Buffer()
        self._contacts = batch.Buffer()   # its arrays: _reindex, with room for every pair
        self._contacts_data = ffi.new("pmBatchedData *")
        self._contacts_data.fields = _ARBITER_FIELDS.value
        self._contacts_data.floatArray = self._contacts._float_arr
        self._contacts_data.intArray = self._contacts._int_arr
        self._forces: list[tuple[Ptr, tuple[float, float, float]]] = []
        self._force_steps = 0
        # The rows are mapped when first needed: a push adds its piece and maps them then.
        self._stale = True
        # settled(): masses, moments and the weakest hold on the ring, for the current rows.
        self._settle_rows: list[_Piece] | None = None
        self._settle_m = self._settle_i = np.zeros(0)
        self._settle_grip = 1.0

    # ----- structure -----------------------------------------------------------------------------
    def _add(self, st: PieceState, level: int) -> _Piece:
        consts = self._consts.get(st.kind)
        if consts is None or consts.type is not self.materials.kinds.get(st.kind):
            ptype = self.materials.kinds.get(st.kind)
            if ptype is None:
                raise ValueError(f"piece {st.id!r}: unknown kind {st.kind!r}")
            consts = self._consts[st.kind] = _kind_consts(ptype)
        # Its row is its place in the canonical order (the pushed piece comes last): _reindex
        # keeps it while no body leaves the Space.
        p = _Piece(self.space, st, consts, level, len(self._rank))
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
        g = self.g
        children = self._children()
        if not children:  # nothing stacked (most boards): each piece bears its own weight
            return {pid: p.type.mass * g for pid, p in self.pieces.items()}
        memo: dict[str, float] = {}

        def mass(pid: str) -> float:
            if pid not in memo:
                memo[pid] = math.fsum([self.pieces[pid].type.mass,
                                       *(mass(c) for c in children.get(pid, ()))])
            return memo[pid]

        return {pid: mass(pid) * g for pid in self.pieces}

    def _attach_all_supports(self) -> None:
        loads = self._loads()
        for p in self.pieces.values():
            self._tie(p, loads[p.id])

    def _tie(self, p: _Piece, load: float) -> None:
        """(Re)create the friction joints that hold ``p`` on the ring surface or on its base."""
        space = self.space
        for j in p.support:
            space.remove_joint(j)
        local: tuple[float, float] | None = None
        if p.base is None:
            other = self._static()
            p.mu = p.type.table_friction
        else:
            base = self.pieces[p.base]
            other = base.body
            p.mu = math.sqrt(p.type.piece_friction * base.type.piece_friction)
            at = lib.cpBodyWorldToLocal(other, lib.cpBodyGetPosition(p.body))
            local = (at.x, at.y)
        full = p.mu * load
        p.support = space.support(other, p.body, local, full, full * p.r_mean)
        p.tied_to = p.base
        p.load = load
        p.coupled = (1.0, 1.0)

    def _static(self) -> Ptr:
        if self._static_ptr is None:
            self._static_ptr = self.space.static_body()
        return self._static_ptr

    @staticmethod
    def _set_load(p: _Piece, load: float) -> None:
        """Full (static) friction limits for a support pressed by ``load`` newtons."""
        if load != p.load:
            pivot, gear = p.support
            lib.cpConstraintSetMaxForce(pivot, p.mu * load)
            lib.cpConstraintSetMaxForce(gear, p.mu * load * p.r_mean)
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
        for j in p.support:
            self.space.remove_joint(j)
        if self.driven is p:
            self._release()
        self.space.remove_body(p.body)  # body, then shapes: the order pymunk's remove() had
        for shape in p.shapes:
            self.space.remove_shape(shape)

    def _reindex(self) -> None:
        """Map the pieces to rows; the rows change only when bodies are added or removed.

        Rows are canonical: the pieces in canonical order, then one spare row for every other body
        (the hand's controller, the static body). Chipmunk lists its bodies awake ones first, so
        its order changes whenever one falls asleep or wakes; :meth:`_read` reads them with their ids (pymunk.batch writes the fields straight into
        preallocated numpy arrays: about 1 us a read, against 50 us for Python attribute access)
        and puts each in its canonical row.
        """
        self._order = list(self.pieces.values())
        for i, p in enumerate(self._order):
            if p.row != i:  # (a body's row is set when it is made; it moves up when one leaves)
                p.row = i
                RawSpace.set_row(p.body, i)
        # Then the other bodies Chipmunk lists (the hand's controller, the static body), all in
        # one spare row.
        count = batch.Buffer()
        data = ffi.new("pmBatchedData *")
        data.fields = batch.BodyFields.BODY_ID.value
        data.floatArray, data.intArray = count._float_arr, count._int_arr
        lib.cpSpaceEachBody(self.space.ptr, _ITERATOR, data)
        self._spare = len(self._order)
        self._nrows = n = self._spare + 1
        self._rows = np.arange(len(self._order), dtype=np.intp)
        self._layout = ([p.id for p in self._order], self._rows, [p.level for p in self._order])
        # Room for twice the rows so the C side never has to grow (and reallocate) the arrays.
        self._arr = np.zeros(max(1, 2 * n) * 6)
        self._ids = np.zeros(max(1, 2 * n), dtype=np.uintp)
        self._buf.set_float_buf(self._arr)
        self._buf.set_int_buf(self._ids)
        self._data = ffi.new("pmBatchedData *")
        self._data.fields = _FIELDS.value
        self._data.floatArray = self._buf._float_arr
        self._data.intArray = self._buf._int_arr
        self._float_arr, self._int_arr = self._buf._float_arr, self._buf._int_arr
        self._space_ptr = self.space.ptr
        self._view = np.zeros((n, 6))
        # Chipmunk's contacts (_keep_overlapping_awake) are read into arrays of their own, with
        # room for every pair of shapes (two depths and two rows each), so Chipmunk never has to
        # grow them: it cannot reallocate memory numpy owns.
        shapes_count = sum(len(p.shapes) for p in self._order)
        room = max(2, shapes_count * (shapes_count - 1) + 2)
        self._depths = np.zeros(room)
        self._pair_rows = np.zeros(room, dtype=np.uintp)
        self._deep = np.zeros(room, dtype=bool)
        self._contacts.set_float_buf(self._depths)
        self._contacts.set_int_buf(self._pair_rows)
        self._view_flat = self._view.reshape(-1)
        self._recount(count._int_arr.num)
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
            entry = (p, rows, mass / math.fsum(mass.tolist()))
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
        self._suspect = self._suspects(R)
        # Column views and scratch arrays for the per-step checks (numpy ufuncs with out=: about
        # 2 us a step for falls and rest together, where einsum or temporaries cost twice that).
        view = self._view
        self._x, self._y = view[:, 0], view[:, 1]
        self._vx, self._vy, self._w = view[:, 3], view[:, 4], view[:, 5]
        self._dist = np.empty(n)
        self._beyond = np.empty(n, dtype=bool)
        self._scratch = np.empty(n)
        self._flags = np.empty(n, dtype=bool)
        # Coupled friction (see _couple): the rows of every piece and of its support (its own row
        # for the ring surface, where the support is still), and how fast a row may move before
        # its friction is recomputed.
        self._speed_weights = np.zeros((3,))
        self._motion = np.empty(n)
        self._moving = np.empty(n, dtype=bool)
        self._vel = view[:, 3:]
        self._absv = np.empty((n, 3))
        sizes = [p.type.size for p in self._order]
        self._speed_weights[:] = (1.0, 1.0, max(sizes, default=0.0))
        self._by_row: list[_Piece | None] = [None] * n
        for p in self._order:
            self._by_row[p.row] = p
            p.base_row = self.pieces[p.base].row if p.base is not None else -1
        self._coupled: set[_Piece] = {p for p in self._order if p.coupled != (1.0, 1.0)}

    def _columns(self) -> tuple:
        """The arrays of the current rows the run loop works on every step (x, y, distance,
        suspect limits, beyond flags, vx, vy, w, scratch, flags) and the row count: taken into
        local names once per layout (else a dozen attribute look-ups every step)."""
        return (self._x, self._y, self._dist, self._suspect, self._beyond, self._vx, self._vy,
                self._w, self._scratch, self._flags, self._nrows)

    def _suspects(self, R: float) -> np.ndarray:
        """Per row, the distance from the ring's centre beyond which the fall test must be worked
        out in full: the ring's radius for a lone piece (its own test); a little less for every
        piece of a stack standing on the ring surface; never for the others.

        A stack falls when its centre of mass passes the edge. That centre is a weighted mean of
        its pieces' centres (weights positive, summing to one), and a mean is never farther from
        the ring's centre than the farthest of the points it averages: the distance is a convex
        function. So while every piece of a stack has its centre inside ``R - _MARGIN`` (room for
        the rounding of the weighted sums) the stack cannot have fallen, and its test - two dot
        products and a hypot per stack, every step - is skipped. With SHORTCUTS off every row is
        a suspect and every test runs, as before the shortcut.
        """
        if not SHORTCUTS:
            return np.full(self._nrows, -np.inf)
        out = self._fall_limit.copy()
        for _p, rows, _share in self._stacks:
            out[rows] = R - _MARGIN
        return out

    def _recount(self, listed: int) -> None:
        """Size the raw views for the ``listed`` bodies Chipmunk lists now."""
        self._nraw = listed
        self._raw_ids = self._ids[: self._nraw]
        self._raw_flat = self._arr[: self._nraw * 6]
        self._seen = b""        # the order of bodies the gather below was made for
        self._gather = np.zeros(self._nrows * 6, dtype=np.intp)

    def _read(self) -> np.ndarray:
        """(rows, 6): x, y, angle, vx, vy, w of every body in the space, read just now, in
        canonical rows."""
        self._float_arr.num = 0
        self._int_arr.num = 0
        lib.cpSpaceEachBody(self._space_ptr, _ITERATOR, self._data)
        order = self._raw_ids.tobytes()
        if order != self._seen:  # a body fell asleep or woke: Chipmunk lists them anew
            rows = np.minimum(self._raw_ids, self._spare).astype(np.intp)
            at = np.zeros(self._nrows, dtype=np.intp)
            at[rows] = np.arange(len(rows))  # where each row's body is in Chipmunk's list
            self._gather[:] = (at[:, None] * 6 + _SIX).reshape(-1)
            self._seen = order
        self._raw_flat.take(self._gather, out=self._view_flat, mode="clip")
        return self._view

    # ----- coupled friction ----------------------------------------------------------------------
    def _couple(self, data: np.ndarray) -> None:
        """Set every moving piece's friction limits from its sliding and spinning speeds.

        The joints keep their full limits (``mu N`` and ``mu N r_mean``) while a piece rests on
        its support: that is static friction. Once it moves relative to its support, force and
        torque follow the flat-piece Coulomb model of :mod:`physics.friction` for the speeds at
        the start of the step. Only rows that move are looked at (most of a crowd is still).
        """
        vel = self._vel if data is self._view else data[:, 3:]
        # |vx| + |vy| + |w| size, added in this order by ufuncs: a matrix product would go to BLAS,
        # whose kernel (and its use of fused multiply-adds) depends on the CPU and the numpy build.
        absv, motion = np.abs(vel, out=self._absv), self._motion
        np.add(absv[:, 0], absv[:, 1], out=motion)
        np.multiply(absv[:, 2], self._speed_weights[2], out=absv[:, 2])
        np.add(motion, absv[:, 2], out=motion)
        by_row = self._by_row
        look: set[_Piece | None] = set(self._coupled)
        np.greater(self._motion, _STILL, out=self._moving)
        look.update([by_row[row] for row in self._moving.nonzero()[0].tolist()])
        look.discard(None)  # the spare row (the hand's controller, the static body)
        for rider, _rows, _share in self._stacked:  # a still rider on a moving base moves over it
            if by_row[rider.base_row] in look:
                look.add(rider)
        coupled = self._coupled
        f_tab, t_tab = friction.tables()
        last = len(f_tab) - 2
        asleep = lib.cpBodyIsSleeping
        for p in cast("set[_Piece]", look):  # (None was discarded above)
            if asleep(p.body):
                continue  # Chipmunk froze it at rest; a new limit would wake it
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
                lib.cpConstraintSetMaxForce(pivot, full * f)
                lib.cpConstraintSetMaxForce(gear, full * t * p.r_mean)
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
        space = self.space
        # The hand: a velocity servo at the push speed with a bounded force (no bias: steady
        # pressure, it does not try to make up lost ground).
        hand = space.kinematic(x, y, dx * push.speed, dy * push.speed)
        # The platform: the piece cannot leave the line while the hand drives it.
        groove = space.groove(self._static(), p.body, (x, y), (x + dx * reach, y + dy * reach),
                              (0.0, 0.0))
        grip = space.pivot(hand, p.body, (0.0, 0.0), (0.0, 0.0))
        lib.cpConstraintSetMaxBias(grip, 0.0)
        lib.cpConstraintSetMaxForce(grip, self.materials.sim.hand_force)
        # The fingers keep the piece from turning while it is driven.
        hold = space.gear(self._static(), p.body, 0.0, 1.0)
        lib.cpConstraintSetMaxBias(hold, 0.0)
        self._controller = hand
        self._drive = [groove, grip, hold]
        self._line = (dx, dy)
        self._hand_speed = push.speed
        self.driven = p
        self._reindex()

    def _slow_hand(self, by: float) -> None:
        """The hand, stopping with its piece once it is wholly on the ring, slows by ``by`` (m/s)
        along its line (``simulation.hand_stop`` times a step)."""
        self._hand_speed = max(0.0, self._hand_speed - by)
        line_x, line_y = self._line
        lib.cpBodySetVelocity(self._controller, (line_x * self._hand_speed, line_y * self._hand_speed))

    def _release(self) -> None:
        for j in self._drive:
            self.space.remove_joint(j)
        if self._controller is not None:
            self.space.remove_body(self._controller)
        self._drive = []
        self._controller = None
        self._stopping = False
        p, self.driven = self.driven, None
        if self._stale or p is None or p.id not in self.pieces:
            self._reindex()
            return
        # The rows stay; only the controller left Chipmunk's list, and the piece let go now falls
        # like any lone piece (nothing rides on a piece in the hand).
        self._recount(self._nraw - 1)
        self._fall_limit[p.row] = self.materials.ring.radius
        self._suspect[p.row] = self.materials.ring.radius if SHORTCUTS else -np.inf

    # ----- running -------------------------------------------------------------------------------
    def launch(self, velocities: dict[str, tuple[float, float, float]]) -> None:
        """Send pieces off with the given (vx, vy, spin) - a flick, for experiments and tuning."""
        for pid, (vx, vy, w) in velocities.items():
            body = self.pieces[pid].body
            lib.cpBodySetVelocity(body, (vx, vy))
            lib.cpBodySetAngularVelocity(body, w)

    def strike(self, impulses: dict[str, tuple[float, float, float]]) -> None:
        """Give pieces impulses ``(jx, jy, angular)`` at their centres (N s, and N m s)."""
        for pid, (jx, jy, ja) in impulses.items():
            body = self.pieces[pid].body
            v, m = lib.cpBodyGetVelocity(body), lib.cpBodyGetMass(body)
            lib.cpBodySetVelocity(body, (v.x + jx / m, v.y + jy / m))
            lib.cpBodySetAngularVelocity(body, lib.cpBodyGetAngularVelocity(body)
                                         + ja / lib.cpBodyGetMoment(body))

    def hold_forces(self, forces: dict[str, tuple[float, float, float]], duration: float) -> None:
        """Press on pieces with constant forces ``(fx, fy, torque)`` at their centres for the
        first ``duration`` seconds of :meth:`run` (Chipmunk clears forces after every step)."""
        self._forces = [(self.pieces[pid].body, f) for pid, f in forces.items()]
        self._force_steps = int(round(duration / self.dt))

    def _press(self) -> None:
        for body, (fx, fy, tq) in self._forces:
            lib.cpBodySetForce(body, (fx, fy))
            lib.cpBodySetTorque(body, tq)

    def run(self, sample_rate: float = ANIMATION_RATE, settle_within: float | None = None
            ) -> tuple[list[Fall], int, float | None, bool, bool, Trajectory]:
        """Step until everything is at rest (or the time cap). Returns falls, steps, release time,
        stalled, capped and the trajectory sampled at ``sample_rate`` (at most once a step). The
        pose of the pushed piece at its release is left in ``released_pose``.

        ``settle_within`` (metres; previews only, see :meth:`settled`): stop as soon as no piece
        can travel farther than that any more, nor fall - the falls are then those of the whole
        run, and every piece is within that distance of where it would come to rest.

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
        space_ptr = self.space.ptr
        cp_step = lib.cpSpaceStep
        hypot, greater, less, count_nonzero = np.hypot, np.greater, np.less, np.count_nonzero
        absolute = np.absolute
        driven_radius = (self.driven.type.shape.radius
                         if self.driven is not None and isinstance(self.driven.type.shape, Circle)
                         else None)
        # The piece in the hand still sticks out of the ring while its centre is farther than this
        # from the ring's centre (shapes.least_reach), so its release waits (see _skip_release).
        sticks_out = (R - self._consts[self.driven.kind].least_reach + _MARGIN
                      if self.driven is not None and SHORTCUTS else math.inf)
        # The hand never carries its piece back out: once the piece's centre passes the point of
        # its line nearest the ring's centre (a line steep enough to graze the edge never gets it
        # wholly in), the hand lets go there (model 5; it drove on along the whole chord before).
        line_x, line_y = self._line
        hand_stop = sim.hand_stop
        self._couple(data)
        forces = self._force_steps
        read = self._read
        layout: tuple | None = None  # the rows the local names below were taken for
        while step < max_steps:
            if step < forces:
                self._press()
            cp_step(space_ptr, dt)
            step += 1
            data = read()
            if layout is not self._layout:  # (taken again only when bodies come or go)
                layout = self._layout
                xs, ys, dist, suspect, beyond, vxs, vys, ws, scratch, flags, nrows = self._columns()
            # Falling off: a lone piece's centre of mass past the ring edge, or a whole stack's
            # (the piece still in the hand is on the platform, outside the ring, and is exempt
            # until released). The stacks are worked out only when one of their pieces' centres
            # is near the edge (see _suspects).
            hypot(xs, ys, out=dist)
            fresh = True  # dist holds this step's rows
            if count_nonzero(greater(dist, suspect, out=beyond)):
                greater(dist, self._fall_limit, out=beyond)
                gone = set(np.flatnonzero(beyond).tolist())
                for p, rows, share in self._stacks:
                    if math.hypot(*_centre(share, rows, data)) > R:
                        gone.add(p.row)
                if gone:
                    self._fall([p for p in self._order if p.row in gone], step * dt, falls)
                    data = read()
                    fresh = False
            if self._stacked and self._check_stacks(data):
                data = read()  # the layout changed: read the bodies into the new rows
                fresh = False
            driven = self.driven
            if driven is not None and self._stopping:
                # The shove is over: the hand, still on its piece, slows at ``hand_stop`` and
                # lets go once it has stood still for a step (model 7); never later than
                # max_drive_time.
                if self._hand_speed > 0.0 and step < drive_steps:
                    self._slow_hand(hand_stop * dt)
                else:
                    self._release()
                    data = read()
            elif driven is not None:
                row = driven.row
                outward = data[row, 0] * line_x + data[row, 1] * line_y > 0.0
                if fresh and step < drive_steps and dist[row] > sticks_out and not outward:
                    pass  # still sticking out of the ring, and still going in: not released yet
                else:
                    x, y, a = data[row, :3]
                    if driven_radius is not None:
                        far = math.hypot(x, y) + driven_radius
                    else:
                        far = shapes.extent_from_origin(driven.type.shape, x, y, a)[1]
                    if far <= R and step < drive_steps:
                        # Wholly on the ring: "immediately stop pushing". The shove ends here
                        # (``released_at``), and the hand stops with its piece instead of
                        # letting it glide on (a flick).
                        released_at = step * dt
                        self.released_pose = (float(x), float(y), float(a))
                        self._stopping = True
                        self._slow_hand(hand_stop * dt)
                    elif step >= drive_steps or outward:
                        stalled = bool(far > R)
                        released_at = step * dt
                        self.released_pose = (float(x), float(y), float(a))
                        self._release()
                        data = read()
            elif step % 2 == 0 and step >= forces:
                if (settle_within is not None and step % _COUPLE_EVERY == 0
                        and self.settled(data, settle_within)):
                    break
                if layout is not self._layout:  # a fall or a drop this step: the rows changed
                    layout = self._layout
                    xs, ys, dist, suspect, beyond, vxs, vys, ws, scratch, flags, nrows = (
                        self._columns())
                # At rest: every body slower than the rest thresholds, checked every other step,
                # and (checked once the speeds say so) no overlap left to push out. (Counting the
                # rows under each threshold is the test "the largest is under it" without numpy's
                # slow reductions; a NaN fails both.)
                if (count_nonzero(less(hypot(vxs, vys, out=scratch), rest_v, out=flags)) == nrows
                        and count_nonzero(less(absolute(ws, out=scratch), rest_w,
                                               out=flags)) == nrows):
                    quiet += 2
                    if quiet >= sim.rest_steps:
                        # Chipmunk's contacts first (cheap); then, once they show no overlap,
                        # every pair (sleeping ones too), exactly.
                        if (not self._keep_overlapping_awake()
                                and self.max_overlap(data) <= sim.rest_overlap):
                            break
                        self._wake_overlapping(data)
                        quiet = 0
                else:
                    quiet = 0
            if step % _COUPLE_EVERY == 0:
                self._couple(data)
                self._keep_overlapping_awake()
            if step % sample_every == 0:
                sample(data)
        capped = step >= max_steps
        if sampled_at[0] != step:  # the trajectory always ends on the at-rest state
            sample(data)
        rate = sample_rate if sample_every > 1 else sim.steps_per_second
        traj = Trajectory.later(traj_ids, rate, functools.partial(_assemble, raw, col, len(traj_ids)))
        return falls, step, released_at, stalled, capped, traj

    def settled(self, data: np.ndarray, within: float) -> bool:
        """Whether nothing can fall any more and no piece can move farther than ``within`` metres.

        Nothing puts energy in once the hand has let go: friction only takes it out, and a piece
        sliding on the ring loses at least ``mu m g`` joules a metre - the contact area's mean speed
        is at least its centre's, whatever it spins. So the kinetic energy ``E`` of every piece
        together, if it all went into one piece ``j``, carries it at most ``E / (mu_j m_j g)``
        further. A step that shows that bound under ``within`` and every centre farther than it
        (and a millimetre for Chipmunk's push-out of overlaps) from the edge has the run's falls
        all behind it. Stacks are not judged (a rider's drop changes its support): never settled
        while any piece rides on another.
        """
        if self._stacked or self.driven is not None:
            return False
        order = self._order
        if self._settle_rows is not order:
            self._settle_rows = order
            self._settle_m = np.array([p.type.mass for p in order])
            self._settle_i = np.array([lib.cpBodyGetMoment(p.body) for p in order])
            self._settle_grip = float(min((p.mu * p.type.mass * self.g for p in order), default=1.0))
        n = len(order)
        v = data[:n]
        # Products element by element, then one correctly rounded sum: no BLAS (see _couple).
        energy = 0.5 * math.fsum([*(self._settle_m * (v[:, 3] * v[:, 3] + v[:, 4] * v[:, 4])).tolist(),
                                  *(self._settle_i * (v[:, 5] * v[:, 5])).tolist()])
        reach = energy / self._settle_grip
        if reach > within:
            return False
        R = self.materials.ring.radius
        return bool(np.hypot(v[:, 0], v[:, 1]).max(initial=0.0) < R - reach - _SETTLE_MARGIN)

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
        level is under its centre (its base's own base, or a neighbour) and carries it
        (:meth:`~physics.materials.PieceType.carries`), else on down, to the ring surface (where it
        falls at once if that spot is off the ring). Returns whether anything dropped (the rows were then rebuilt and must be
        read again)."""
        dropped = False
        for p, rows, share in self._stacked:
            assert p.base is not None  # _stacked holds only pieces on a base
            base = self.pieces[p.base]
            x, y = _centre(share, rows, data)
            if _over(base, x, y, data):
                continue
            carried = {self._by_row[r] for r in rows.tolist()}
            # It may slide onto a neighbour of its base at the same height, else it drops.
            level = base.level + 1
            new_base: str | None = None
            while level > 0 and new_base is None:
                level -= 1
                for q in self._order:  # canonical order: the first one under it takes it
                    # Only onto a piece that carries it (PieceType.carries): not a wrestler
                    # piece, none smaller than the rider.
                    if (q.level == level and q not in carried and q is not self.driven
                            and q is not base and q.type.carries(p.type) and _over(q, x, y, data)):
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
                if lvl != q.level or lib.cpShapeGetFilter(q.shapes[0]).categories != 1 << lvl:
                    q.level = lvl
                    for s in q.shapes:
                        RawSpace.set_level(s, 1 << lvl)
            self._after_structure_change()
        return dropped

    def _keep_overlapping_awake(self) -> bool:
        """Keep awake (reset the idle time of) every piece in a contact deeper than rest_overlap,
        so none falls asleep inside a neighbour: Chipmunk's idle test sees velocities, not the bias
        velocities that push an overlap out. Read from Chipmunk's contacts of awake bodies (a few
        us a call). Returns whether there was any."""
        floats, ints = self._contacts._float_arr, self._contacts._int_arr
        floats.num = ints.num = 0
        lib.cpSpaceEachCachedArbiter(self._space_ptr, _ARBITER_ITERATOR, self._contacts_data)
        num = floats.num
        if not num:
            return False
        flags = self._deep[:num]
        if not np.count_nonzero(np.less(self._depths[:num], -self.materials.sim.rest_overlap,
                                        out=flags)):
            return False
        deep = flags.nonzero()[0]
        rows = self._pair_rows[:ints.num].tolist()  # userData: the rows
        order = self._order
        n = len(order)
        woken: set[int] = set()
        activate = lib.cpBodyActivate
        for pair in sorted(set((deep // 2).tolist())):
            for row in rows[2 * pair: 2 * pair + 2]:
                # Each body once, in the order first met: activating a body twice in a row
                # changes nothing the first call did not (its idle time is 0 already, its
                # component awake), so the Space is left as by a call for every contact.
                if row < n and row not in woken:
                    woken.add(row)
                    activate(order[row].body)
        return True

    def _wake_overlapping(self, data: np.ndarray) -> None:
        """Wake the pieces still overlapping more than rest_overlap. Chipmunk pushes overlaps out
        with bias velocities, which its idle test does not see, so a piece that dropped onto a
        neighbour may fall asleep inside it."""
        limit = self.materials.sim.rest_overlap
        for a, b, depth in self._overlaps(data, listed=True):
            if depth > limit:
                lib.cpBodyActivate(self.pieces[a].body)
                lib.cpBodyActivate(self.pieces[b].body)

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
            dep = max((raw_shapes_depth(sa, a.round, sb, b.round) for sa in a.shapes
                       for sb in b.shapes),
                      default=-math.inf)
            if dep > 0:
                out.append(_pair(a.id, b.id, dep))
        return out

    def at_rest_state(self) -> list[PieceState]:
        if self._stale:
            self._reindex()
        rows = self._read()[:, :3].tolist()  # Python floats: the values float() would give
        out = []
        for p in sorted(self.pieces.values(), key=lambda q: q.id):
            x, y, a = rows[p.row]
            out.append(PieceState(p.id, p.kind, x, y, a, p.base))
        return out


def _assemble(raw: list[tuple[tuple, np.ndarray]], col: dict[str, int], width: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """A run's samples as trajectory arrays (poses, velocities): ``raw`` holds each sample's rows
    and the layout they were read in; a piece that has fallen has NaN from then on."""
    states = np.full((len(raw), width, 7), np.nan)
    t = 0
    while t < len(raw):  # a run of samples with one layout (it changes only when pieces fall)
        layout = raw[t][0]
        end = t + 1
        while end < len(raw) and raw[end][0] is layout:
            end += 1
        order, rows, levels = layout
        cols = [col[pid] for pid in order]
        block = np.stack([rows_data for _, rows_data in raw[t:end]])
        states[t:end, cols, :6] = block[:, rows]
        states[t:end, cols, 6] = levels
        t = end
    return states[:, :, (0, 1, 2, 6)], states[:, :, 3:6]


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


def _centre(share: np.ndarray, rows: np.ndarray, data: np.ndarray) -> tuple[float, float]:
    """Centre of mass of the pieces in ``rows`` (``share``: their masses' fractions).

    Each coordinate is one correctly rounded sum (``math.fsum``) of the products: a numpy dot
    product would go to BLAS, whose kernel and its rounding depend on the CPU and the numpy build.
    """
    xy = data[rows, :2] * share[:, None]
    return math.fsum(xy[:, 0].tolist()), math.fsum(xy[:, 1].tolist())
