"""The stepping loop's shortcuts (issue 16 point 6) change nothing a push does.

Episode.run skips a test on a step when a bound proves its answer: a stack's fall test while every
piece of the stack has its centre inside the ring, the hand's release while the piece's centre is
so far out that its outline must still stick out of the ring. Each bound is checked here against
geometry (hypothesis: any outline turned any way, any weighted mean of points), and the loop with
the shortcuts is checked against the loop that works every test out in full every step
(``physics.sim.SHORTCUTS`` off): over seeded pushes into the starting boards, a crowd with stacks
and pushes of shaped pieces, every fall, its time, the step count, the release and the final
state are equal to the last bit. (``tools/check_loop.py`` holds the loop to an older revision's
the same way, over thousands of pushes.)
"""
from __future__ import annotations

import hashlib
import math
import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kabuto.rules.wrestlers import wrestler
from physics import Push, World, sim, state_hash
from physics.shapes import Circle, Polygons, extent_from_origin, least_reach, normalised
from physics.state import PushResult, Trajectory
from tests.physics.helpers import allowed, board, random_push, stacked_crowd


def _digest(res: PushResult) -> tuple:
    traj = res.trajectory
    arrays = hashlib.sha256(traj.poses.tobytes())
    assert traj.velocities is not None
    arrays.update(traj.velocities.tobytes())
    return ([(f.piece, f.kind, f.time, f.carried_by) for f in res.fell], res.steps,
            res.released_at, res.stalled, res.capped, res.released_pose, state_hash(res.snapshot),
            arrays.hexdigest())


def _both(world: World, push: Push, monkeypatch: pytest.MonkeyPatch,
          settle_within: float | None = None) -> tuple[tuple, tuple]:
    fast = _digest(world.preview(push, settle_within=settle_within))
    with monkeypatch.context() as m:
        m.setattr(sim, "SHORTCUTS", False)
        full = _digest(world.preview(push, settle_within=settle_within))
    return fast, full


def _shaped_world() -> tuple[World, list[str]]:
    """The 3-player board with the signature pieces' kinds known, so shaped pieces can be pushed."""
    extra = {}
    for name, key in (("hank", "bar"), ("jade", "gem"), ("bea", "bomb"), ("annie", "pillar")):
        piece = wrestler(name).signature_piece(key)
        extra[piece.kind] = piece.type
    world = board(3)
    world = World(world.materials.with_kinds(extra), world.pieces)
    return world, sorted(extra)


def test_the_loop_with_shortcuts_pushes_exactly_as_the_full_loop(monkeypatch):
    rng = random.Random(16)
    worlds = [board(2), board(3), board(4), stacked_crowd()]
    falls = 0
    for i in range(24):
        world = worlds[i % len(worlds)]
        push = random_push(world, rng)
        if not allowed(world, push):
            continue
        fast, full = _both(world, push, monkeypatch)
        assert fast == full, push
        falls += len(fast[0])
    assert falls  # some of these pushes knock pieces out: the fall tests were exercised


def test_shaped_pieces_are_released_at_the_same_step_as_by_the_full_test(monkeypatch):
    world, kinds = _shaped_world()
    rng = random.Random(5)
    released = 0
    for _ in range(9):
        kind = rng.choice(kinds)
        steepest = world.steepest_heading(kind)
        push = Push("P", kind, rng.uniform(0, 360), rng.uniform(-steepest, steepest),
                    rng.uniform(0.1, 0.5), spin_deg=rng.uniform(0, 180))
        if not allowed(world, push):
            continue
        fast, full = _both(world, push, monkeypatch)
        assert fast == full, push
        released += fast[2] is not None
    assert released


def test_a_sketch_stopped_once_settled_is_the_same_with_or_without_shortcuts(monkeypatch):
    world = stacked_crowd()
    rng = random.Random(8)
    for _ in range(6):
        push = random_push(world, rng)
        fast, full = _both(world, push, monkeypatch, settle_within=1e-3)
        assert fast == full, push


_coord = st.floats(-0.03, 0.03, allow_nan=False)


@st.composite
def _outlines(draw: st.DrawFn) -> Polygons | Circle:
    if draw(st.booleans()):
        return Circle(draw(st.floats(0.002, 0.03)))
    # A convex polygon: points round a circle at sorted angles, stretched, then centred.
    n = draw(st.integers(3, 8))
    angles = sorted(draw(st.lists(st.floats(0, 2 * math.pi), min_size=n, max_size=n,
                                  unique=True)))
    rx, ry = draw(st.floats(0.003, 0.03)), draw(st.floats(0.003, 0.03))
    pts = tuple((rx * math.cos(a), ry * math.sin(a)) for a in angles)
    area = sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1]
               for i in range(n))
    if area < 1e-7:
        return Circle(rx)
    shape = normalised(Polygons((pts,)))
    assert isinstance(shape, Polygons)
    return shape


@settings(max_examples=300, deadline=None)
@given(_outlines(), st.floats(-0.25, 0.25), st.floats(-0.25, 0.25), st.floats(-7, 7))
def test_an_outline_reaches_at_least_least_reach_beyond_its_centre_from_the_ring_centre(
        shape, x, y, angle):
    far = extent_from_origin(shape, x, y, angle)[1]
    assert far >= math.hypot(x, y) + least_reach(shape) - 1e-12


def test_least_reach_is_the_inradius_of_a_square_and_a_disc_radius():
    half = 0.01
    square = Polygons((((-half, -half), (half, -half), (half, half), (-half, half)),))
    assert least_reach(square) == pytest.approx(half)
    # Turned 45 degrees with its corner straight out, it reaches sqrt(2) half further; the edge
    # straight out (angle 0, centre on the x axis) exactly half.
    assert extent_from_origin(square, 0.2, 0.0, 0.0)[1] == pytest.approx(
        math.hypot(0.2 + half, half))
    assert least_reach(Circle(0.013)) == 0.013


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_coord, _coord, st.floats(0.001, 0.2)), min_size=1, max_size=5))
def test_a_stack_centre_is_never_farther_out_than_its_farthest_piece(pieces):
    xs, ys, masses = (np.array(v) for v in zip(*pieces, strict=True))
    share = masses / masses.sum()
    centre = math.hypot(share @ xs, share @ ys)
    assert centre <= np.hypot(xs, ys).max() + sim._MARGIN


def test_a_trajectory_put_together_later_reads_and_pickles_like_one_made_at_once():
    world = board(2)
    res = world.preview(Push("P", "medium", 30, 0, 0.4))
    traj = res.trajectory
    again = pickle.loads(pickle.dumps(traj))
    assert type(again) is Trajectory
    assert again.ids == traj.ids and again.rate == traj.rate
    assert np.array_equal(again.poses, traj.poses, equal_nan=True)
    assert traj.velocities is not None and again.velocities is not None
    assert np.array_equal(again.velocities, traj.velocities, equal_nan=True)
    assert traj.duration == pytest.approx(res.time, abs=1 / traj.rate)
