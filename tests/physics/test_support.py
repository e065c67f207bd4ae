"""A stack rests on its support: statics decide, not each piece's own centre.

* A rider stays while the centre of mass of it (and what rides on it) is over its base's outline.
* A piece on the ring falls when the centre of mass of it and everything on it passes the edge.
* A rider whose centre leaves its base slides off: down a level, or off the ring.

Expected outcomes come from statics and Coulomb friction (slide distance v^2 / (2 mu g)), not from
numbers recorded from the simulator.
"""
from __future__ import annotations

import dataclasses
import math

import pytest

from physics import PieceState, World
from tests.physics.helpers import materials, max_overlap, slide_distance


def _com(world: World, ids: list[str]) -> tuple[float, float]:
    kinds = world.materials.kinds
    total = sum(kinds[world.piece(i).kind].mass for i in ids)
    x = sum(kinds[world.piece(i).kind].mass * world.piece(i).x for i in ids) / total
    y = sum(kinds[world.piece(i).kind].mass * world.piece(i).y for i in ids) / total
    return x, y


def test_a_rider_past_the_edge_but_over_its_base_stays_on_it():
    """The issue's first case: a large disc 8 mm inside the edge, a medium on it at the same spot,
    the medium launched outward at 0.27 m/s. It slides v^2/(2 mu g) = 9.3 mm over the large (whose
    outline reaches 11 mm past the edge): its centre is past the ring's edge, over its base."""
    m = materials()
    R = m.ring.radius
    world = World(m, [PieceState("L", "large", R - 0.008, 0.0),
                      PieceState("M", "medium", R - 0.008, 0.0, base="L")])
    mu = m.kinds["medium"].piece_friction
    slide = slide_distance(0.27, mu)
    # Statics: the medium ends over the large, and the pair's centre of mass is inside the ring.
    assert R - 0.008 + slide > R and slide < m.kinds["large"].shape.radius
    result = world.launch({"M": (0.27, 0.0, 0.0)})
    assert result.fell_ids == []
    medium, large = world.piece("M"), world.piece("L")
    assert medium.base == "L" and medium.x > R          # its own centre is past the edge
    # The large held: friction from the medium (mu m_M g) is below its grip on the ring.
    assert large.x == pytest.approx(R - 0.008, abs=1e-4)
    assert medium.x - large.x == pytest.approx(slide, rel=0.05)
    assert math.hypot(*_com(world, ["L", "M"])) < R


def test_a_stack_stays_while_its_combined_centre_is_inside_though_its_base_is_past_the_edge():
    """The issue's second case: a large at R - 5 mm with a medium on it at R - 20 mm, both sent
    outward at 0.196 m/s. The stack slides as one, v^2/(2 mu g) = 6.5 mm: the large's own centre
    ends past the edge, the pair's combined centre of mass inside, so nothing falls."""
    m = materials()
    R = m.ring.radius
    world = World(m, [PieceState("L", "large", R - 0.005, 0.0),
                      PieceState("M", "medium", R - 0.020, 0.0, base="L")])
    com0 = _com(world, ["L", "M"])[0]
    slide = slide_distance(0.196, m.kinds["large"].table_friction)
    assert R - 0.005 + slide > R > com0 + slide          # the statics of the case
    result = world.launch({"L": (0.196, 0.0, 0.0), "M": (0.196, 0.0, 0.0)})
    assert result.fell_ids == []
    assert world.piece("L").x > R and world.piece("M").base == "L"
    assert _com(world, ["L", "M"])[0] == pytest.approx(com0 + slide, rel=0.05, abs=3e-4)


def test_a_stack_falls_when_its_combined_centre_passes_the_edge():
    """The same stack sent faster: the combined centre now slides past the edge - both fall,
    the rider carried by its base."""
    m = materials()
    R = m.ring.radius
    world = World(m, [PieceState("L", "large", R - 0.005, 0.0),
                      PieceState("M", "medium", R - 0.020, 0.0, base="L")])
    com0 = _com(world, ["L", "M"])[0]
    v = math.sqrt(2 * m.kinds["large"].table_friction * m.sim.gravity * (R - com0 + 0.004))
    result = world.launch({"L": (v, 0.0, 0.0), "M": (v, 0.0, 0.0)})
    fell = {f.piece: f for f in result.fell}
    assert set(fell) == {"L", "M"} and fell["M"].carried_by == "L"


@pytest.mark.parametrize("spot", [0.0, 0.03])
def test_a_rider_whose_centre_leaves_its_base_slides_off_onto_the_ring(spot):
    """A small disc sent off the top of a large one at 0.5 m/s: on the large it would slide
    v^2/(2 mu_piece g) = 32 mm, far more than the 19 mm to the rim, so its centre leaves the base:
    it drops to the ring surface beside the large, not overlapping it."""
    m = materials()
    world = World(m, [PieceState("L", "large", spot, 0.0),
                      PieceState("S", "small", spot, 0.0, base="L")])
    assert slide_distance(0.5, m.kinds["small"].piece_friction) > m.kinds["large"].shape.radius
    result = world.launch({"S": (0.5, 0.0, 0.0)})
    assert result.fell_ids == []
    small, large = world.piece("S"), world.piece("L")
    assert small.base is None and world.levels()["S"] == 0
    assert small.x - large.x > m.kinds["large"].shape.radius   # it came down beyond the rim
    assert world.max_overlap() <= m.sim.rest_overlap


def test_a_rider_that_slides_off_past_the_edge_falls_and_its_base_stays():
    m = materials()
    R = m.ring.radius
    world = World(m, [PieceState("L", "large", R - 0.015, 0.0),
                      PieceState("S", "small", R - 0.015, 0.0, base="L")])
    result = world.launch({"S": (0.5, 0.0, 0.0)})
    assert result.fell_ids == ["S"] and result.fell[0].carried_by is None
    assert world.piece("L").x == pytest.approx(R - 0.015, abs=1e-3)


def test_a_rider_slides_across_onto_a_neighbour_of_the_same_height():
    """Two large discs side by side, a small one on the first sent towards the second: its centre
    leaves its base over the neighbour, so it rides on the neighbour instead of dropping."""
    m = materials()
    r = m.kinds["large"].shape.radius
    world = World(m, [PieceState("A", "large", 0.0, 0.0), PieceState("B", "large", 2 * r, 0.0),
                      PieceState("S", "small", 0.0, 0.0, base="A")])
    # Sliding 25 mm on the top surfaces takes it past A's rim (19 mm) but not past B's centre.
    v = math.sqrt(2 * m.kinds["small"].piece_friction * m.sim.gravity * 0.025)
    world.launch({"S": (v, 0.0, 0.0)})
    small = world.piece("S")
    assert small.base == "B" and world.levels()["S"] == 1


def test_a_rider_never_slides_onto_a_piece_that_carries_nothing():
    """The same slide towards a neighbour of a kind that is not stackable (as a wrestler piece is,
    three discs tall): the small does not ride on it but drops to the ring beside its base, where
    it is pushed out of the neighbour's outline. (It rode on it before: a state the rules refuse
    to load, which stopped a hard AI's look-ahead.)"""
    m = materials()
    post = dataclasses.replace(m.kinds["large"], name="post", stackable=False)
    m = dataclasses.replace(m, kinds={**m.kinds, "post": post})
    r = m.kinds["large"].shape.radius
    world = World(m, [PieceState("A", "large", 0.0, 0.0), PieceState("B", "post", 2 * r, 0.0),
                      PieceState("S", "small", 0.0, 0.0, base="A")])
    v = math.sqrt(2 * m.kinds["small"].piece_friction * m.sim.gravity * 0.025)
    world.launch({"S": (v, 0.0, 0.0)})
    small = world.piece("S")
    assert small.base is None and world.levels()["S"] == 0
    assert max_overlap(world) <= m.sim.rest_overlap
