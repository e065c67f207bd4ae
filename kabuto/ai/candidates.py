"""Candidate pushes: broad sampling over the whole platform range, and refinement around the best.

Broad sampling mixes two families, both drawn from one seeded ``random.Random``:

* **aimed** pushes: a target (an opposing wrestler, or a standard disc reaching near the edge that is
  worth knocking out) is picked, the platform is set somewhere on the far side of the ring from it
  (within ``aim_spread_deg`` of straight behind it), and the heading is the one whose line passes
  the target's centre at one of ``aim_offsets_mm`` to the side. Aims beyond the platform's heading
  limit are drawn again;
* **flank** pushes (a share ``flank_share`` of those aimed at wrestlers): the platform stands near
  the target, ``flank_min_deg``..``flank_max_deg`` round the ring from its bearing, and the line
  passes the target's *inner* side (:func:`flank_heading`), so the piece strikes it from the inside
  and drives it towards the edge. Measured on a starting board with the wrestlers 78 mm out (issue
  16), a push from 60 degrees or more round the ring moved a wrestler out by at most 4 mm (the crowd
  takes it), one from 20-60 degrees beside it by up to 21 mm;
* **inward** pushes (a share ``grip_share`` of those aimed at wrestlers, for a side with Vice Grip
  only): the platform behind the target, the line through it, driving it in towards the centre
  circle (:func:`inward`; the look-ahead also answers with them on behalf of such a side);
* **even** pushes: entries spread evenly all round the ring (one per slot, jittered inside it),
  headings uniform across the platform's range.

Kinds go round-robin over every kind the side may push, speeds come from ``speed_fractions`` of the
hand's limit (:func:`speed_options`), and pieces that are not round are also turned on the platform
(``spins_deg``).

Refinement draws neighbours of a candidate: entry and heading moved by up to a step, speed scaled by
up to a fraction. Everything is rounded (0.01 degree, 1 mm/s) so histories read well; rounding is
deterministic, so it changes nothing else.
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from kabuto.ai import scoring
from kabuto.ai.levels import SearchSettings
from kabuto.ai.pool import Candidate
from kabuto.rules.inventory import STANDARD_KINDS
from kabuto_base.numbers import wrap_deg
from physics.materials import SimSettings
from physics.shapes import Circle, extent_from_origin

if TYPE_CHECKING:
    from kabuto.rules.game import Game


def speed_options(fractions: tuple[float, ...], sim: SimSettings) -> list[float]:
    """Hand speeds (m/s) for ``fractions`` of the hand's limit ``sim.max_speed``, held within
    ``sim.min_speed``..``sim.max_speed`` and rounded to 1 mm/s like every candidate; duplicates (two
    fractions below the minimum, say) are dropped so no preview is spent twice on one speed.

        >>> from physics.materials import SimSettings
        >>> speed_options((0.01, 0.02, 0.5, 1.0), SimSettings(min_speed=0.02, max_speed=0.5))
        [0.02, 0.25, 0.5]
    """
    out: list[float] = []
    for f in fractions:
        s = round(min(sim.max_speed, max(sim.min_speed, f * sim.max_speed)), 3)
        if s not in out:
            out.append(s)
    return out


def rounded(pi: int, kind: str, entry: float, heading: float, speed: float, spin: float) -> Candidate:
    return (pi, kind, round(wrap_deg(entry), 2), round(heading, 2), round(speed, 3), round(spin, 2))


def aim_heading(entry_deg: float, target: tuple[float, float], offset: float, R: float) -> float:
    """Heading (degrees from the inward normal at ``entry_deg``) of the line from the entry point that
    passes ``offset`` metres to the left of ``target`` (negative: to the right)."""
    e = math.radians(entry_deg)
    ex, ey = R * math.cos(e), R * math.sin(e)
    dx, dy = target[0] - ex, target[1] - ey
    d = math.hypot(dx, dy) or 1e-9
    # Shift the aim point sideways, perpendicular to the line of sight.
    tx, ty = target[0] - dy / d * offset, target[1] + dx / d * offset
    direction = math.degrees(math.atan2(ty - ey, tx - ex))
    return wrap_deg(direction - (entry_deg + 180.0))


def flank_heading(entry_deg: float, target: tuple[float, float], offset: float, R: float) -> float:
    """Heading of the line from the platform at ``entry_deg`` that passes ``offset`` metres from
    ``target``'s centre on the side nearer the ring's centre (where a hit drives the target out).

        >>> round(flank_heading(30.0, (0.07, 0.0), 0.005, 0.1), 2) == round(aim_heading(30.0, (0.07, 0.0), -0.005, 0.1), 2)
        True
    """
    e = math.radians(entry_deg)
    ex, ey = R * math.cos(e), R * math.sin(e)
    dx, dy = target[0] - ex, target[1] - ey
    d = math.hypot(dx, dy) or 1e-9
    left = (target[0] - dy / d * offset, target[1] + dx / d * offset)
    right = (target[0] + dy / d * offset, target[1] - dx / d * offset)
    inner = offset if math.hypot(*left) <= math.hypot(*right) else -offset
    return aim_heading(entry_deg, target, inner, R)


def targets(game: Game, search: SearchSettings) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """(opposing wrestlers' positions, edge discs' positions) for the side to move."""
    side = game.current_side
    world = game.world
    wrestlers = []
    for s in game.seats:
        if game.side_of(s.index) != side and s.piece_id in world:
            p = world.piece(s.piece_id)
            wrestlers.append((p.x, p.y))
    R = world.ring.radius
    kinds = world.materials.kinds
    edge = []
    for p in world.pieces:
        if p.kind in STANDARD_KINDS and p.base is None:
            reach = extent_from_origin(kinds[p.kind].shape, p.x, p.y, p.angle)[1] / R
            if reach >= search.edge_disc_reach:
                edge.append((-reach, p.id, (p.x, p.y)))
    edge.sort()
    return wrestlers, [xy for _, _, xy in edge[:search.edge_disc_targets]]


def _spins(game: Game, kind: str, search: SearchSettings) -> tuple[float, ...]:
    return (0.0,) if isinstance(game.materials.kinds[kind].shape, Circle) else search.spins_deg


def broad(game: Game, pi: int, n: int, rng: random.Random, search: SearchSettings) -> list[Candidate]:
    """``n`` candidates for the side to move in ``game`` (tagged with prefix index ``pi``)."""
    kinds = game.legal_kinds()
    if not kinds or n <= 0:
        return []
    sim = game.materials.sim
    R = game.materials.ring.radius
    speeds = speed_options(search.speed_fractions, sim)
    lock = game.locked_platform()
    out: list[Candidate] = []
    k0 = rng.randrange(len(kinds))
    if lock is not None:  # a second push: the platform stays, only the piece and the speed change
        kinds = [k for k in kinds if game.world.steepest_heading(k) >= abs(lock[1])]
        if not kinds:
            return []
        for i in range(n):
            kind = kinds[(k0 + i) % len(kinds)]
            out.append(rounded(pi, kind, lock[0], lock[1], rng.choice(speeds),
                               rng.choice(_spins(game, kind, search))))
        return out
    wrestlers, discs = targets(game, search)
    n_aimed = round(n * search.aimed_share) if (wrestlers or discs) else 0
    n_wrestler = round(n_aimed * search.wrestler_share) if (wrestlers and discs) else (n_aimed if wrestlers else 0)
    n_flank = round(n_wrestler * search.flank_share)
    # A side with Vice Grip also drives opposing wrestlers in, towards the circle (grip_share).
    n_inward = n_flank + (round(n_wrestler * search.grip_share) if scoring.grips(game, game.seats[game.current_seat]) else 0)
    for i in range(n_aimed):
        pool = wrestlers if i < n_wrestler else discs
        tx, ty = pool[i % len(pool)]
        kind = kinds[(k0 + i) % len(kinds)]
        limit = game.world.steepest_heading(kind)  # steeper, this piece could never get in
        bearing = math.degrees(math.atan2(ty, tx)) if (tx or ty) else rng.uniform(-180.0, 180.0)
        entry = heading = 0.0
        for _ in range(8):
            if n_flank <= i < min(n_inward, n_wrestler):
                entry, heading = inward_aim((tx, ty), rng, search, R)
            elif i < n_flank:
                side = 1.0 if rng.random() < 0.5 else -1.0
                entry = bearing + side * rng.uniform(search.flank_min_deg, search.flank_max_deg)
                heading = flank_heading(entry, (tx, ty), rng.choice(search.flank_offsets_mm) / 1000.0, R)
            else:
                entry = bearing + 180.0 + rng.uniform(-search.aim_spread_deg, search.aim_spread_deg)
                heading = aim_heading(entry, (tx, ty), rng.choice(search.aim_offsets_mm) / 1000.0, R)
            if abs(heading) <= limit:
                break
        heading = max(-limit, min(limit, heading))
        out.append(rounded(pi, kind, entry, heading, rng.choice(speeds),
                           rng.choice(_spins(game, kind, search))))
    m = n - n_aimed
    for j in range(m):
        kind = kinds[(k0 + n_aimed + j) % len(kinds)]
        limit = game.world.steepest_heading(kind)
        entry = -180.0 + 360.0 * (j + rng.random()) / m
        heading = rng.uniform(-limit, limit)
        out.append(rounded(pi, kind, entry, heading, rng.choice(speeds),
                           rng.choice(_spins(game, kind, search))))
    return out


def inward_aim(target: tuple[float, float], rng: random.Random, search: SearchSettings,
               R: float) -> tuple[float, float]:
    """(entry, heading) of a push from behind ``target`` (the platform within ``grip_spread_deg``
    of its bearing) whose line passes one of ``aim_offsets_mm`` off its centre: it drives the
    target in, towards the centre circle."""
    entry = math.degrees(math.atan2(target[1], target[0])) + rng.uniform(-search.grip_spread_deg,
                                                                        search.grip_spread_deg)
    return entry, aim_heading(entry, target, rng.choice(search.aim_offsets_mm) / 1000.0, R)


def inward(game: Game, pi: int, n: int, rng: random.Random, search: SearchSettings) -> list[Candidate]:
    """``n`` pushes for the side to move that drive the opposing wrestlers in towards the centre
    circle (:func:`inward_aim`), kinds in turn: the replies the look-ahead adds when the next side
    has Vice Grip, which the broad sample (aimed from across the ring or the flank, driving a
    wrestler out) hardly ever draws. None on a second push (the platform stays put)."""
    kinds = game.legal_kinds()
    wrestlers = targets(game, search)[0]
    if not kinds or not wrestlers or n <= 0 or game.locked_platform() is not None:
        return []
    R = game.materials.ring.radius
    speeds = speed_options(search.speed_fractions, game.materials.sim)
    out = []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        limit = game.world.steepest_heading(kind)
        entry, heading = inward_aim(wrestlers[i % len(wrestlers)], rng, search, R)
        out.append(rounded(pi, kind, entry, max(-limit, min(limit, heading)), rng.choice(speeds),
                           rng.choice(_spins(game, kind, search))))
    return out


def neighbours(game: Game, c: Candidate, n: int, scale: float, rng: random.Random,
               search: SearchSettings) -> list[Candidate]:
    """``n`` variations of ``c``: entry and heading within ``scale`` times the refinement steps,
    speed within ``scale`` times the speed fraction (the platform stays put on a locked second push)."""
    sim = game.materials.sim
    pi, kind, entry, heading, speed, spin = c
    limit = game.world.steepest_heading(kind)
    locked = game.locked_platform() is not None
    out = []
    for _ in range(n):
        de = rng.uniform(-1.0, 1.0) * search.refine_entry_deg * scale
        dh = rng.uniform(-1.0, 1.0) * search.refine_heading_deg * scale
        ds = 1.0 + rng.uniform(-1.0, 1.0) * search.refine_speed_frac * scale
        e, h = (entry, heading) if locked else (entry + de, max(-limit, min(limit, heading + dh)))
        s = max(sim.min_speed, min(sim.max_speed, speed * ds))
        out.append(rounded(pi, kind, e, h, s, spin))
    return out
