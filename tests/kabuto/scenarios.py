"""Arranged boards for the Kabuto Sumo tests.

:func:`arena` starts a real game and clears the ring down to the wrestler pieces, parked off the
x axis; tests then put the discs they need with :meth:`kabuto.Game.edit`. :func:`shove` is a push
along the x axis (entering at the left, 180 degrees) at the fastest speed the rules allow.

A legal push is slow (at most ``simulation.max_speed``, 0.5 m/s: "no flicking"): a lone piece let
go at the edge slides about 42 mm, so it cannot reach a piece near the far edge by itself. Knock-outs
happen as at the table, through a crowd: :func:`line_up` fills the x axis between the left edge and a
piece with touching discs, and :func:`shove` then drives the whole line, so the piece at its far end
(and often the disc behind it) goes out. The physics decides; tests assert on what it did.

Tests whose subject is not the hand (which pieces a shove off a crowded line ends up where is
awkward to arrange) may instead start the game with :func:`fast_hands`, saying why.
"""
from __future__ import annotations

import functools
from collections import Counter

from kabuto import Game
from kabuto.lab.positions import free_entry as free_entry  # the tests' and tools' shared helper
from kabuto.rules.inventory import BOARD, SUPPLY
from physics import Materials, shapes

#: The shipped ring's radius: the arranged boards are laid out relative to it, so they keep their
#: meaning when the ring's size is tuned.
RING = Materials.load().ring.radius
#: Wrestler spots clear of the x axis (seat order), about three quarters of the way to the edge.
SPOTS = [(sx * RING, sy * RING) for sx, sy in ((-0.35, 0.65), (0.35, -0.65), (0.35, 0.65), (-0.35, -0.65))]
#: Near the right edge, on the shove's line, 18 mm in: a piece here is knocked out by :func:`shove`.
EDGE = RING - 0.018
#: Where a medium disc hangs over the right edge, its centre 0.5 mm inside (it blocks the platform
#: spot at 0 degrees).
OVERHANG = RING - 0.0005


#: The hand's speed limit in :func:`fast_hands` (m/s): the limit before the rules said "no flicking".
FAST_SPEED = 2.0
#: How fast that hand stops (m/s^2): from :data:`FAST_SPEED` it carries its piece about 0.2 m on,
#: farther than the ring is wide.
FAST_STOP = 10.0


@functools.lru_cache(maxsize=1)
def fast_hands() -> Materials:
    """The default materials with the flick the rules forbid: the hand allowed up to
    :data:`FAST_SPEED` and slowing at :data:`FAST_STOP` once its piece is wholly on the ring, so
    the piece runs on across the ring. For tests whose subject is something else (where a
    knocked-out piece goes, who wins) and that knock a piece out with one shove instead of through a
    crowd. The physics is good to 5 m/s."""
    return Materials.load().with_overrides({"simulation.max_speed": FAST_SPEED,
                                            "simulation.hand_stop": FAST_STOP})


def wide_circle(radius: float = 0.015) -> Materials:
    """The default materials with a centre circle of ``radius`` (15 mm: 30 mm across, the printed
    circle before issue 16's second design round): room for four pieces to touch it at once, for
    tests of what Vice Grip does with the pieces it finds, which does not depend on the circle's
    size (the shipped 5 mm circle has room for two)."""
    return Materials.load().with_overrides({"ring.centre_radius": radius})


#: Where :func:`first_round` pushes its smalls in: the right of the ring, away from the shoves
#: along the x axis from the left and the pushes from 150-200 degrees the tests make.
QUIET_ENTRIES = (30.0, 330.0, 60.0, 300.0)


def first_round(g: Game) -> Game:
    """Every seat takes a quiet first turn (a slow small, see :data:`QUIET_ENTRIES`), so moves that
    wait for a player's second turn (Rhino Rita's Charge) may be used; each small comes from the
    supply first, so the inventories are as they were. Returns ``g``."""
    for entry in QUIET_ENTRIES[:g.players]:
        give(g, g.seat_inventory(g.current_seat), "small")
        g.push("small", entry, 0.0, 0.2)
    assert not g.is_over and g.turn.number == g.players + 1
    return g


def arena(players: int = 2, wrestlers: list[str] | None = None, first_player: int = 0,
          junior: bool = False, seed: int = 0, materials: Materials | None = None) -> Game:
    """A game whose board holds only the wrestler pieces, at :data:`SPOTS` (``materials``: as for
    :meth:`kabuto.Game.new`, e.g. :func:`fast_hands`)."""
    if wrestlers is None:
        wrestlers = ["mike", "hank", "annie", "rita"][:players] if not junior else \
            ["hank", "gus", "jade", "dora"][:players]
    g = Game.new(players=players, wrestlers=wrestlers, first_player=first_player, junior=junior,
                 seed=seed, materials=materials)
    for p in g.world.pieces:
        if not g.is_wrestler_piece(p.id):
            g.edit(p.id, SUPPLY)
    for s in g.seats:
        g.edit(s.piece_id, SUPPLY)
    for s in g.seats:
        x, y = SPOTS[s.index]
        g.edit(s.piece_id, BOARD, x, y, 0.0)
    return g


def radius(g: Game, kind: str) -> float:
    """A disc kind's radius, as the game's materials have it."""
    return g.materials.kinds[kind].size


def put(g: Game, pid: str, x: float, y: float, angle: float = 0.0, base: str | None = None) -> None:
    g.edit(pid, BOARD, x, y, angle, base)


def shove(g: Game, piece: str = "medium", speed: float | None = None, **kw):
    """A straight push from the left edge along the x axis, by default as fast as the game's
    materials allow (0.5 m/s under the rules; 2 m/s under :func:`fast_hands`)."""
    return g.push(piece, 180.0, 0.0, g.materials.sim.max_speed if speed is None else speed, **kw)


def line_up(g: Game, front: str, kind: str = "medium", gap: float = 0.0003) -> list[str]:
    """Fill the line parallel to the x axis behind ``front`` (a piece at rest) back to the left edge
    with touching ``kind`` discs from the supply, ``gap`` metres apart, each wholly inside the ring.
    Returns their ids, nearest ``front`` first. For ``front`` on the x axis a :func:`shove` then
    drives the whole line: under the rules' speed limit, this is how a push reaches a piece near the
    far edge."""
    R = g.materials.ring.radius
    r = shapes.bounding_radius(g.materials.kinds[kind].shape)
    placed: list[str] = []
    last = front
    while True:
        x, y = beside(g, last, kind, 180.0, gap)
        if x * x + y * y > (R - r - 0.001) ** 2:  # it would hang over the edge (or nearly)
            return placed
        spare = g.ledger.pieces_in(SUPPLY, kind)
        assert spare, f"the supply has no {kind} left for the line"
        g.edit(spare[0], BOARD, x, y, 0.0)
        placed.append(spare[0])
        last = spare[0]


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

    p = g.world.piece(pid)
    ux, uy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    d = g.world.clear_distance(pid, kind, ux, uy, angle) + gap
    return p.x + ux * d, p.y + uy * d
