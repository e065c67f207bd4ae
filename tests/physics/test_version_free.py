"""Numbers that depend on no Python version (issue 47).

A piece's area, moment of inertia and centre are sums over the parts of its outline. The built-in
``sum()`` of floats rounds after every term (CPython 3.11) or compensates (3.12 and later), so the
same outline gave two answers, and every push of a game with a piece of three or more parts
(Mike's, Annie's) diverged between 3.11 and 3.12. A correctly rounded sum has one answer whatever
the order of its terms: listing the same parts in another order (a relabelled outline, the same
piece) must give the same numbers to the bit, which a rounding-order-dependent sum does not.
"""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from physics import PieceType
from physics.shapes import Polygons, area
from physics.sim import _moment


def _part(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    """An axis-aligned rectangle, counter-clockwise, its corner at (x, y)."""
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


parts = st.lists(
    st.tuples(st.floats(-0.02, 0.02), st.floats(-0.02, 0.02), st.floats(0.001, 0.02),
              st.floats(0.001, 0.02)).map(lambda t: _part(*t)),
    min_size=3, max_size=5)


@settings(max_examples=60, deadline=None)
@given(parts)
def test_area_and_moment_do_not_depend_on_the_order_of_the_parts(ps):
    kinds = [PieceType(name="p", shape=Polygons(tuple(order)), thickness=0.005, mass=0.005,
                       table_friction=0.3, piece_friction=0.4, restitution=0.3)
             for order in itertools.islice(itertools.permutations(ps), 24)]
    areas = {area(k.shape) for k in kinds}
    moments = {_moment(k) for k in kinds}
    assert len(areas) == 1 and len(moments) == 1
