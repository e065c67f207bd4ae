"""Overlap-checked placing and moving on a :class:`physics.World`, for moves and edits.

WORKAROUND (reported to the physics owner): ``World.place`` and ``World.move`` decide overlap with
Chipmunk's shape query using the piece being placed as the probe. When that probe is a polygon and
the other piece a circle, the query reports the penetration depth with the wrong sign, so a polygon
piece (a wrestler, a Horn Bar, a Dung Ball) can be put overlapping a disc. These helpers run the
World's own check and then the reverse query (each same-level neighbour as the probe against the
piece alone), which is exact for that pair, and refuse if either finds an overlap.
"""
from __future__ import annotations

import math

from physics import PieceState, World
from physics.shapes import Polygons


def _reverse_blocker(world: World, pid: str, ignore: set[str]) -> str | None:
    """A same-level piece that overlaps ``pid`` when it is the probe, else None."""
    p = world.piece(pid)
    kinds = world.materials.kinds
    if not isinstance(kinds[p.kind].shape, Polygons):
        return None  # a circle probe is reported correctly by the World's own check
    levels = world.levels()
    alone = World(world.materials, [PieceState(p.id, p.kind, p.x, p.y, p.angle)])
    reach = kinds[p.kind].size + 1e-3
    for q in world.pieces:
        if q.id == pid or q.id in ignore or levels[q.id] != levels[pid]:
            continue
        if math.hypot(q.x - p.x, q.y - p.y) > reach + kinds[q.kind].size:
            continue
        try:
            alone.place(q.id, q.kind, q.x, q.y, q.angle)
        except ValueError:
            return q.id
        alone.remove(q.id)
    return None


def place(world: World, pid: str, kind: str, x: float, y: float, angle: float = 0.0,
          base: str | None = None, allow_overlap: bool = False) -> None:
    """``World.place``, refusing overlaps found in either direction (ValueError, world unchanged)."""
    world.place(pid, kind, x, y, angle, base=base, allow_overlap=allow_overlap)
    if allow_overlap:
        return
    blocker = _reverse_blocker(world, pid, set())
    if blocker is not None:
        world.remove(pid)
        raise ValueError(f"piece {pid!r} would overlap piece {blocker!r}")


def move(world: World, pid: str, x: float, y: float, angle: float | None = None) -> None:
    """``World.move``, refusing overlaps found in either direction (ValueError, world unchanged)."""
    trial = world.copy()
    trial.move(pid, x, y, angle)
    blocker = _reverse_blocker(trial, pid, {pid, *trial.riders(pid)})
    if blocker is not None:
        raise ValueError(f"piece {pid!r} would overlap piece {blocker!r}")
    world.move(pid, x, y, angle)
