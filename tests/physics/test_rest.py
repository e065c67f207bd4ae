"""At rest means still *and* apart: no two pieces on one level overlap by more than
``simulation.rest_overlap`` (0.1 mm) once a push has come to rest, stack collapses included.
``tools/bench_fidelity.py`` runs the issue's 10,000 pushes."""
from __future__ import annotations

import math
import random

import pytest

from physics import PieceState, World
from tests.physics.helpers import materials, random_push, stacked_crowd


def test_a_piece_that_slides_off_a_stack_onto_a_neighbour_is_pushed_out_before_rest():
    """A small disc shoved off a large one lands on the ring where a medium stands: the world
    is not at rest until the two no longer overlap."""
    m = materials()
    r_l, r_m = (m.kinds[k].shape.radius for k in ("large", "medium"))
    world = World(m, [PieceState("L", "large", 0.0, 0.0),
                      PieceState("S", "small", 0.0, 0.0, base="L"),
                      PieceState("M", "medium", r_l + r_m + 1e-3, 0.0)])
    world.launch({"S": (0.4, 0.0, 0.0)})
    assert world.piece("S").base is None
    assert world.max_overlap() <= m.sim.rest_overlap


@pytest.mark.parametrize("seed", [1, 2])
def test_random_pushes_into_a_crowd_with_stacks_end_with_no_overlap(seed):
    rng = random.Random(seed)
    world = stacked_crowd()
    limit = world.materials.sim.rest_overlap
    for i in range(8):
        push = random_push(world, rng, pid=f"P{i}", top=0.5)
        try:
            result = world.push(push)
        except ValueError:
            continue
        assert result.capped or world.max_overlap() <= limit


def test_a_world_at_rest_stays_put_when_settled_again():
    """The starting board's stand-ins overlap their neighbours by about 1 mm: the first settle
    pushes them apart; after that the world is at rest, and settling again changes nothing a
    player could see (it stops after the rest steps, nothing moves a hundredth of a millimetre)."""
    from tests.physics.helpers import board

    world = board(2)
    world.settle()
    before = {p.id: p for p in world.pieces}
    result = world.settle()
    assert result.steps <= world.materials.sim.rest_steps + 2
    for p in world.pieces:
        assert math.hypot(p.x - before[p.id].x, p.y - before[p.id].y) < 1e-5
    assert world.max_overlap() <= world.materials.sim.rest_overlap


def test_pieces_placed_inside_each_other_are_pushed_apart_though_neither_moves():
    """Two still discs placed 0.6 mm inside each other would look idle to Chipmunk's sleeping
    (bias velocities are not velocities); they are kept awake until pushed apart, and the run ends
    at rest, not at its time cap. A disc far from both sleeps through it exactly where it was."""
    m = materials()
    r = m.kinds["small"].shape.radius
    world = World(m, [PieceState("A", "small", -r + 3e-4, 0.0),
                      PieceState("B", "small", r - 3e-4, 0.0),
                      PieceState("C", "small", 0.0, 0.07)])
    assert world.max_overlap() == pytest.approx(6e-4)
    result = world.settle()
    assert not result.capped
    assert world.max_overlap() <= m.sim.rest_overlap
    # Pushed apart symmetrically (equal discs), along the line of centres.
    a, b, c = (world.piece(k) for k in "ABC")
    assert a.x == pytest.approx(-b.x, abs=1e-9) and a.y == pytest.approx(0.0, abs=1e-9)
    assert (c.x, c.y) == (0.0, 0.07)
