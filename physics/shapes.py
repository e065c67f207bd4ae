"""Piece outlines seen from above: a circle, or a union of convex polygons.

Outlines are plain data in the piece's own frame, in metres. :func:`normalised` moves an outline so
that its centre of mass (uniform density) is the origin: a body's position is then its centre of
mass, which is what "a piece whose centre passes the ring edge falls" refers to.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from kabuto_base.numbers import is_finite_number
from physics.bounds import check

Point = tuple[float, float]


@dataclass(frozen=True)
class Circle:
    """A round piece of the given radius (metres), centred on the origin."""

    radius: float

    def to_json(self) -> dict:
        return {"circle": self.radius}


@dataclass(frozen=True)
class Polygons:
    """A piece made of one or more convex polygons (vertex lists, counter-clockwise, metres)."""

    parts: tuple[tuple[Point, ...], ...]

    def to_json(self) -> dict:
        return {"polygons": [[list(p) for p in part] for part in self.parts]}


Shape = Circle | Polygons


def shape_from_json(data: object, where: str = "shape") -> Shape:
    """Parse ``{"circle": r}`` or ``{"polygons": [[[x, y], ...], ...]}``; ValueError names ``where``."""
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError(f"{where}: expected {{circle = r}} or {{polygons = [[[x, y], ...]]}}")
    if "circle" in data:
        return Circle(check("shape.radius", data["circle"], f"{where}.circle"))
    if "polygons" in data:
        parts = data["polygons"]
        if not isinstance(parts, list) or not parts:
            raise ValueError(f"{where}.polygons: expected a non-empty list of polygons")
        # Counts first, before any vertex is read: a 100,000-vertex outline costs nothing.
        check("shape.parts", len(parts), f"{where}.polygons (number of parts)")
        total = 0
        out = []
        for i, part in enumerate(parts):
            w = f"{where}.polygons[{i}]"
            if not isinstance(part, list) or len(part) < 3:
                raise ValueError(f"{w}: a polygon needs at least 3 vertices")
            check("shape.vertices", len(part), f"{w} (number of vertices)")
            total += len(part)
            check("shape.total_vertices", total, f"{where}.polygons (number of vertices)")
            pts = []
            for j, v in enumerate(part):
                if (not isinstance(v, (list, tuple)) or len(v) != 2
                        or not all(is_finite_number(c) for c in v)):
                    raise ValueError(f"{w}[{j}]: expected a vertex [x, y] of finite numbers")
                pts.append((check("shape.coordinate", v[0], f"{w}[{j}][0]"),
                            check("shape.coordinate", v[1], f"{w}[{j}][1]")))
            pts = _ccw(pts)
            if not _is_convex(pts):
                raise ValueError(f"{w}: polygon is not convex (split it into convex parts)")
            if _poly_area(pts) <= 1e-12:
                raise ValueError(f"{w}: polygon has no area")
            out.append(tuple(pts))
        shape = Polygons(tuple(out))
        check("shape.radius", bounding_radius(normalised(shape)), f"{where} (its size)")
        return shape
    raise ValueError(f"{where}: unknown shape {next(iter(data))!r} (use circle or polygons)")


def _poly_area(pts: list[Point] | tuple[Point, ...]) -> float:
    s = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        s += x0 * y1 - x1 * y0
    return s / 2.0


def _ccw(pts: list[Point]) -> list[Point]:
    return pts if _poly_area(pts) >= 0 else pts[::-1]


def _is_convex(pts: list[Point]) -> bool:
    n = len(pts)
    for i in range(n):
        ax, ay = pts[i]
        bx, by = pts[(i + 1) % n]
        cx, cy = pts[(i + 2) % n]
        if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) < -1e-15:
            return False
    return True


def _poly_centroid(pts: tuple[Point, ...]) -> Point:
    a = _poly_area(pts)
    cx = cy = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return cx / (6 * a), cy / (6 * a)


def area(shape: Shape) -> float:
    if isinstance(shape, Circle):
        return math.pi * (shape.radius * shape.radius)
    # fsum, not sum: the built-in sum of floats is compensated since CPython 3.12, so a piece of
    # three or more parts got another area (and moment) on 3.11 than on 3.12 and 3.13.
    return math.fsum(_poly_area(p) for p in shape.parts)


def centroid(shape: Shape) -> Point:
    if isinstance(shape, Circle):
        return (0.0, 0.0)
    total = 0.0
    cx = cy = 0.0
    for p in shape.parts:
        a = _poly_area(p)
        px, py = _poly_centroid(p)
        cx += a * px
        cy += a * py
        total += a
    return cx / total, cy / total


def normalised(shape: Shape) -> Shape:
    """The same outline moved so that its centre of mass is the origin.

    Idempotent to the bit: an outline already centred (to within a picometre, i.e. rounding
    noise) is returned unchanged, so saved outlines load back exactly and saved games continue
    bit-identically.
    """
    if isinstance(shape, Circle):
        return shape
    cx, cy = centroid(shape)
    if abs(cx) < 1e-12 and abs(cy) < 1e-12:
        return shape
    return Polygons(tuple(tuple((x - cx, y - cy) for x, y in p) for p in shape.parts))


def bounding_radius(shape: Shape) -> float:
    """Largest distance of any point of the outline from the origin."""
    if isinstance(shape, Circle):
        return shape.radius
    return max(math.hypot(x, y) for p in shape.parts for x, y in p)


@functools.lru_cache(maxsize=256)
def mean_contact_radius(shape: Shape, samples: int = 40) -> float:
    """Mean distance from the origin over the outline's area.

    Spin friction of a flat piece under uniform pressure is ``mu * m * g * mean_contact_radius``
    (for a disc that is 2R/3). Polygons are integrated on a grid, which is plenty for a torque limit.
    """
    if isinstance(shape, Circle):
        return 2.0 * shape.radius / 3.0
    r = bounding_radius(shape)
    h = 2 * r / samples
    tot = 0.0
    cnt = 0
    for i in range(samples):
        x = -r + (i + 0.5) * h
        for j in range(samples):
            y = -r + (j + 0.5) * h
            if contains(shape, (x, y)):
                tot += math.hypot(x, y)
                cnt += 1
    return tot / cnt if cnt else r / 2


def contains(shape: Shape, p: Point) -> bool:
    """Whether the local point ``p`` lies inside the outline."""
    x, y = p
    if isinstance(shape, Circle):
        return x * x + y * y <= shape.radius * shape.radius
    for part in shape.parts:
        n = len(part)
        if all((part[(i + 1) % n][0] - part[i][0]) * (y - part[i][1])
               - (part[(i + 1) % n][1] - part[i][1]) * (x - part[i][0]) >= 0 for i in range(n)):
            return True
    return False


def covers(shape: Shape, x: float, y: float, angle: float, px: float, py: float) -> bool:
    """Whether the world point (px, py) lies over the outline placed at (x, y, angle)."""
    dx, dy = px - x, py - y
    if isinstance(shape, Circle):
        return dx * dx + dy * dy <= shape.radius * shape.radius
    c, s = math.cos(-angle), math.sin(-angle)
    return contains(shape, (c * dx - s * dy, s * dx + c * dy))


def world_points(shape: Shape, x: float, y: float, angle: float) -> list[tuple[Point, ...]]:
    """The outline's polygons placed at (x, y, angle) (circles are not expanded)."""
    assert isinstance(shape, Polygons)
    c, s = math.cos(angle), math.sin(angle)
    return [tuple((x + c * px - s * py, y + s * px + c * py) for px, py in part) for part in shape.parts]


def least_reach(shape: Shape) -> float:
    """How far the outline reaches from its centre at least, in every direction: the minimum over
    directions ``u`` of its support ``max_v u.v`` (the distance from the centre to the nearest edge
    line of the outline's convex hull; a circle's radius).

    Whatever the outline is turned to, its farthest point from any spot ``Q`` is then at least
    ``|Q - centre| + least_reach``: the vertex that reaches farthest along the direction from ``Q``
    to the centre lies at least that far beyond the centre. A pushed piece whose centre is farther
    than ``R - least_reach`` from the ring's centre still sticks out of the ring. When the centre is
    not inside the hull (never for a piece: outlines are centred on their centre of mass), ``-size``
    is returned, which is always true.

    >>> least_reach(Circle(0.02))
    0.02
    >>> round(least_reach(Polygons((((-0.02, -0.01), (0.02, -0.01), (0.02, 0.01), (-0.02, 0.01)),))), 6)
    0.01
    """
    if isinstance(shape, Circle):
        return shape.radius
    hull = _hull([v for part in shape.parts for v in part])
    n = len(hull)
    least = math.inf
    for i in range(n):
        (ax, ay), (bx, by) = hull[i], hull[(i + 1) % n]
        # Signed distance of the centre from the edge's line (positive: inside, the hull is ccw).
        least = min(least, ((bx - ax) * -ay - (by - ay) * -ax) / math.hypot(bx - ax, by - ay))
    return least if least > 0 else -bounding_radius(shape)


def _hull(points: list[Point]) -> list[Point]:
    """The convex hull of ``points``, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def half(seq: list[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return lower[:-1] + upper[:-1]


def _segment_distance_to_origin(a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / L2))
    return math.hypot(ax + t * dx, ay + t * dy)


def extent_from_origin(shape: Shape, x: float, y: float, angle: float) -> tuple[float, float]:
    """(nearest, farthest) distance of the placed outline's points from the world origin.

    The nearest distance is 0 when the outline covers the origin. Used to decide "wholly inside"
    and "wholly outside" the ring, which is centred on the origin.
    """
    if isinstance(shape, Circle):
        d = math.hypot(x, y)
        return max(0.0, d - shape.radius), d + shape.radius
    near = math.inf
    far = 0.0
    for part in world_points(shape, x, y, angle):
        n = len(part)
        inside = True
        for i in range(n):
            a, b = part[i], part[(i + 1) % n]
            far = max(far, math.hypot(*a))
            near = min(near, _segment_distance_to_origin(a, b))
            if (b[0] - a[0]) * (0 - a[1]) - (b[1] - a[1]) * (0 - a[0]) < 0:
                inside = False
        if inside:
            near = 0.0
    return near, far
