"""What one first push can do to a wrestler on a starting board: the board checks of issues 16 and 42.

A starting board is fair only if no first push wins outright. Three pushes threaten a wrestler most,
so each board is checked against them directly, as counts a design can be compared by:

* **from behind** (:func:`gripped_from_behind`): the platform right behind a wrestler, pushing
  straight at it at the hand's top speed. The hand drives its piece until it is wholly on the ring
  and the crowd between passes that travel on, so the wrestler is shoved towards the centre
  circle, where Mighty Jaw Mike's Vice Grip ("If any part of a piece is inside and touching the
  center circle, immediately knock out that piece") would take it under the reading that lets it
  grip wrestlers (the shipped card grips discs only: docs/rules-notes.md, "Vice Grip grips discs");
* **from the flank** (:func:`flank_knockouts`): the AI's flank push, 15-65 degrees round the ring
  from a wrestler, its line passing the wrestler's inner side, which drives it towards the edge;
* **from across the ring** (:func:`across_the_ring`): the platform on the far side of the centre
  from a wrestler, pushing through the crowd at it. A crammed crowd moves as one, and it glides on
  after the hand stops, so at the hand's top speed the whole crowd travels twice the pushed piece's
  width; a wrestler on the far side of the centre disc travels with it. On the 3-player board,
  where the point opposite each wrestler is the gap between the other two, the hard AI found such
  a push in 11 of 24 games, until its wrestlers stood in a pinwheel nearer the centre
  (docs/rules-notes.md, "The 3P wrestlers stand in a pinwheel");
* **left exposed** (:func:`left_exposed`): the same pushes at the wrestlers of the sides that do not
  move, counted when they leave the wrestler near the edge instead of off it, for the mover's side
  to finish next (on the 4-player board, where each team's wrestlers stand on one line through the
  centre, the teammate on turn 3: docs/rules-notes.md, "The 4P board's opening").
* **the window opposite** (:func:`opposite_window`): a finer grid of pushes of a medium from
  round the point opposite each wrestler of the sides that do not move, at the top of the hand's
  range, where the crowd's glide carried Goliath Gus off the 3-player board on turn 1 in a window
  the coarser grid above mostly steps over (docs/rules-notes.md, "Gus's window, measured").

All are plain pushes on copies of the game; the game itself is left as it was. Whether a whole
first turn can win (moves included) is :mod:`kabuto.lab.early_wins`' search. ``tools/first_pushes.py``
prints these counts for every board under the assets in force, so a change of the boards or the
physics is judged in a minute.
"""
from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from kabuto.ai.candidates import flank_heading
from kabuto.ai.scoring import positions_of
from kabuto.rules.errors import IllegalMove
from kabuto.rules.game import Game, Seat
from kabuto.rules.outcomes import PushOutcome

#: :func:`gripped_from_behind`'s grid round the line from the edge straight at a wrestler: the
#: platform this many degrees round either way, the heading this many degrees either way.
BEHIND_ENTRIES = (-6.0, 0.0, 6.0)
BEHIND_HEADINGS = (-8.0, 0.0, 8.0)
#: The kinds both checks push: every inventory starts with them.
KINDS = ("small", "medium")
#: :func:`flank_knockouts`: how far round the ring from a wrestler's bearing (degrees), how far
#: inside its centre the line passes (mm), and the speeds (shares of the hand's top speed).
FLANK_ROUND = (15.0, 65.0)
FLANK_OFFSETS_MM = (0.0, 4.5, 9.0)
FLANK_SPEEDS = (0.7, 1.0)
#: :func:`across_the_ring`'s grid round the point opposite a wrestler: the platform this many
#: degrees round either way (the hard AI's winning pushes came from within 12 degrees of it), the
#: heading this many degrees either way.
ACROSS_ENTRIES = (-12.0, -9.0, -6.0, -3.0, 0.0, 3.0, 6.0, 9.0, 12.0)
ACROSS_HEADINGS = (-15.0, -10.0, -5.0, 0.0, 5.0, 10.0, 15.0)
#: :func:`opposite_window`'s grid round the point opposite a wrestler: the platform every degree
#: within 8 either way, headings 3 degrees apart within 12, a medium (the kind that did it), at
#: these shares of the hand's top speed (Gus fell from 0.425 m/s of 0.45 up).
WINDOW_ENTRIES = tuple(float(d) for d in range(-8, 9))
WINDOW_HEADINGS = tuple(float(h) for h in range(-12, 13, 3))
WINDOW_KINDS = ("medium",)
WINDOW_SPEEDS = (0.94, 0.96, 0.98, 1.0)
#: :func:`left_exposed`: how near the ring's edge (mm, from a wrestler's centre) a first push may
#: leave an opposing wrestler before it counts. In three of the 4-player report's sample games won
#: on turn 3, the first push had left the wrestler knocked out 56-78 mm from the centre (29 to 7
#: mm from the edge): the next push of the side that moved finished it.
EXPOSED_MM = 30.0


@dataclass(frozen=True)
class FirstPush:
    """A first push that did harm: the wrestler it aimed at, and the push."""

    wrestler: str
    kind: str
    entry_deg: float
    heading_deg: float
    speed: float


def _bearing(game: Game, piece_id: str) -> tuple[float, float, float]:
    p = game.world.piece(piece_id)
    return p.x, p.y, math.degrees(math.atan2(p.y, p.x))


def _harms_a_wrestler(game: Game, o: PushOutcome) -> bool:
    """Whether a previewed push ends the game or knocks a wrestler out."""
    return o.result is not None or any(game.is_wrestler_piece(k.piece) for k in o.knocked_out)


def gripped_from_behind(game: Game) -> tuple[list[FirstPush], int]:
    """(the pushes that leave any wrestler touching the centre circle or end the game, pushes
    made) of the pushes from behind each wrestler: :data:`BEHIND_ENTRIES` x
    :data:`BEHIND_HEADINGS` x :data:`KINDS` at the hand's top speed, 18 a wrestler (a push the
    rules refuse, from a spot a piece hanging over the edge takes, is not made)."""
    fast = game.materials.sim.max_speed
    bad = []
    made = 0
    for s in game.seats:
        behind = _bearing(game, s.piece_id)[2]
        for d_entry in BEHIND_ENTRIES:
            for heading in BEHIND_HEADINGS:
                for kind in KINDS:
                    t = game.clone()
                    try:
                        t.push(kind, behind + d_entry, heading, fast, end_turn=False)
                    except IllegalMove:  # the platform's spot is taken (a piece hangs over the edge)
                        continue
                    made += 1
                    gripped = {q.piece_id for q in t.seats} & set(t.world.in_circle())
                    if gripped or t.is_over:
                        bad.append(FirstPush(s.piece_id, kind, behind + d_entry, heading, fast))
    return bad, made


def _across_grid(game: Game, seats: Iterable[Seat], entries: tuple[float, ...] = ACROSS_ENTRIES,
                 headings: tuple[float, ...] = ACROSS_HEADINGS, kinds: tuple[str, ...] = KINDS,
                 speeds: tuple[float, ...] = (1.0,)) -> Iterator[tuple[Seat, FirstPush, PushOutcome]]:
    """Each push of a grid round the point opposite each wrestler of ``seats`` (by default
    :func:`across_the_ring`'s; ``speeds`` as shares of the hand's top speed), previewed: (the seat
    aimed at, the push, its outcome); a push the rules refuse is left out."""
    fast = game.materials.sim.max_speed
    for s in seats:
        opposite = _bearing(game, s.piece_id)[2] + 180.0
        for d_entry in entries:
            for heading in headings:
                for kind in kinds:
                    for share in speeds:
                        speed = share * fast
                        try:
                            o = game.preview_push(kind, opposite + d_entry, heading, speed)
                        except IllegalMove:
                            continue
                        yield s, FirstPush(s.piece_id, kind, opposite + d_entry, heading, speed), o


def across_the_ring(game: Game) -> tuple[list[FirstPush], int]:
    """(the pushes that knock a wrestler out or end the game, pushes made) of the pushes from
    across the ring at each wrestler: :data:`ACROSS_ENTRIES` round the point of the edge opposite
    it, :data:`ACROSS_HEADINGS`, :data:`KINDS` at the hand's top speed, 126 a wrestler (a push the
    rules refuse is not made)."""
    bad = []
    made = 0
    for _, push, o in _across_grid(game, game.seats):
        made += 1
        if _harms_a_wrestler(game, o):
            bad.append(push)
    return bad, made


def left_exposed(game: Game, mm: float = EXPOSED_MM) -> tuple[list[FirstPush], int]:
    """(the pushes that leave the wrestler they aim at with its centre ``mm`` or less from the
    ring's edge, or off the ring, pushes made) of :func:`across_the_ring`'s grid at the wrestlers
    of the sides not moving: the first pushes that set up a knock-out by the mover's side's next
    push rather than making one."""
    radius = game.materials.ring.radius
    mover = game.current_side
    exposed = []
    made = 0
    for s, push, o in _across_grid(game, (s for s in game.seats if s.side != mover)):
        made += 1
        end = positions_of(o.physics.snapshot).get(s.piece_id)  # None: it fell
        if end is None or radius - math.hypot(end[1], end[2]) <= mm / 1000.0:
            exposed.append(push)
    return exposed, made


def opposite_window(game: Game) -> dict[str, tuple[list[FirstPush], int]]:
    """For each wrestler of a side that does not move, by its key: (the pushes that knock a
    wrestler out or end the game, pushes made) of the window grid round the point opposite it
    (:data:`WINDOW_ENTRIES` x :data:`WINDOW_HEADINGS` x :data:`WINDOW_KINDS` x
    :data:`WINDOW_SPEEDS`, 612 a wrestler; a push the rules refuse is not made)."""
    out: dict[str, tuple[list[FirstPush], int]] = {}
    mover = game.current_side
    for s, push, o in _across_grid(game, (s for s in game.seats if s.side != mover), WINDOW_ENTRIES,
                                   WINDOW_HEADINGS, WINDOW_KINDS, WINDOW_SPEEDS):
        bad, made = out.get(s.wrestler.key, ([], 0))
        if _harms_a_wrestler(game, o):
            bad.append(push)
        out[s.wrestler.key] = (bad, made + 1)
    return out


def flank_knockouts(game: Game, per_wrestler: int, rng: random.Random) -> tuple[list[FirstPush], int]:
    """(the pushes that knock a wrestler out or end the game, pushes made) of ``per_wrestler``
    seeded flank pushes at each wrestler: the platform :data:`FLANK_ROUND` degrees round from it
    on either side, the line passing one of :data:`FLANK_OFFSETS_MM` inside its centre, a small or
    a medium, a speed within :data:`FLANK_SPEEDS` of the hand's top. A draw steeper than its kind
    can be aimed is not made."""
    R = game.materials.ring.radius
    fast = game.materials.sim.max_speed
    bad = []
    made = 0
    for s in game.seats:
        x, y, bearing = _bearing(game, s.piece_id)
        for _ in range(per_wrestler):
            entry = bearing + rng.choice((-1, 1)) * rng.uniform(*FLANK_ROUND)
            kind = rng.choice(KINDS)
            heading = flank_heading(entry, (x, y), rng.choice(FLANK_OFFSETS_MM) / 1000.0, R)
            if abs(heading) > game.world.steepest_heading(kind):
                continue
            speed = rng.uniform(FLANK_SPEEDS[0] * fast, FLANK_SPEEDS[1] * fast)
            try:
                o = game.preview_push(kind, entry, heading, speed)
            except IllegalMove:
                continue
            made += 1
            if _harms_a_wrestler(game, o):
                bad.append(FirstPush(s.piece_id, kind, entry, heading, speed))
    return bad, made
