"""Arranged boards for the Kabuto Sumo tests.

:func:`arena` starts a real game and clears the ring down to the wrestler pieces, parked off the
x axis; tests then put the discs they need with :meth:`kabuto.Game.edit`. :func:`shove` is a hard
push along the x axis (entering at the left, 180 degrees) that knocks out what lies near the right
edge: the physics decides, and tests assert on what it did.
"""
from __future__ import annotations

from collections import Counter

from kabuto import Game
from kabuto.inventory import BOARD, SUPPLY

#: Wrestler spots clear of the x axis (seat order).
SPOTS = [(-0.035, 0.065), (0.035, -0.065), (0.035, 0.065), (-0.035, -0.065)]
#: Near the right edge, on the shove's line: a piece here is knocked out by :func:`shove`.
EDGE = 0.082


def arena(players: int = 2, wrestlers: list[str] | None = None, first_player: int = 0,
          junior: bool = False, seed: int = 0) -> Game:
    """A game whose board holds only the wrestler pieces, at :data:`SPOTS`."""
    if wrestlers is None:
        wrestlers = ["mike", "hank", "annie", "rita"][:players] if not junior else \
            ["hank", "gus", "jade", "dora"][:players]
    g = Game.new(players=players, wrestlers=wrestlers, first_player=first_player, junior=junior,
                 seed=seed)
    for p in g.world.pieces:
        if not g.is_wrestler_piece(p.id):
            g.edit(p.id, SUPPLY)
    for s in g.seats:
        g.edit(s.piece_id, SUPPLY)
    for s in g.seats:
        x, y = SPOTS[s.index]
        g.edit(s.piece_id, BOARD, x, y, 0.0)
    return g


def put(g: Game, pid: str, x: float, y: float, angle: float = 0.0, base: str | None = None) -> None:
    g.edit(pid, BOARD, x, y, angle, base)


def shove(g: Game, piece: str = "medium", speed: float = 1.5, **kw):
    """A hard straight push from the left edge along the x axis."""
    return g.push(piece, 180.0, 0.0, speed, **kw)


def give(g: Game, place: str, kind: str, n: int = 1) -> list[str]:
    """Move ``n`` pieces of ``kind`` from the supply into ``place`` (an inventory)."""
    ids = g.ledger.pieces_in(SUPPLY, kind)[:n]
    assert len(ids) == n, f"the supply has only {len(ids)} {kind}"
    for pid in ids:
        g.edit(pid, place)
    return ids


def empty(g: Game, place: str) -> None:
    """Return everything in ``place`` to the supply."""
    for pid in g.ledger.pieces_in(place):
        g.edit(pid, SUPPLY)


def check_conservation(g: Game, expected_ids: set[str] | None = None) -> None:
    """Every piece is in exactly one place, the board is the world, nothing created or lost."""
    loc = g.locations()
    if expected_ids is not None:
        assert set(loc) == expected_ids
    board = {pid for pid, pl in loc.items() if pl == BOARD}
    assert board == {p.id for p in g.world.pieces}
    assert len(loc) == len(set(loc))
    valid = {BOARD, SUPPLY, *(g.inventory_place(s) for s in range(len(g.sides)))}
    assert set(loc.values()) <= valid
    counts = Counter(g.kind_of(pid) for pid in loc)
    assert counts["large"] == 5 and counts["medium"] == 15 and counts["small"] == 20


def beside(g: Game, pid: str, kind: str, angle_deg: float, gap: float = 0.00005,
           angle: float = 0.0) -> tuple[float, float]:
    """The spot where a ``kind`` piece (turned to ``angle``) just clears ``pid`` on the side
    ``angle_deg`` points to from its centre, ``gap`` metres away: touching it within the collision
    slop."""
    import math

    from physics import World

    p = g.world.piece(pid)
    alone = World(g.materials, [p])
    ux, uy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    lo, hi = 0.0, 0.05
    for _ in range(40):
        mid = (lo + hi) / 2
        try:
            alone.place("probe", kind, p.x + ux * mid, p.y + uy * mid, angle)
            alone.remove("probe")
            hi = mid
        except ValueError:
            lo = mid
    d = hi + gap
    return p.x + ux * d, p.y + uy * d
