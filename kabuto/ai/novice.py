"""A model of a new player, for measuring the AI levels against people (tools/bench_ladder.py).

It does what a first-time player does: takes its biggest disc, puts the platform straight across
the ring from the opposing wrestler, shoves at full speed straight at it, with a little aim error,
and never uses a signature move. Seeded: the same game and seed give the same turn.
"""
from __future__ import annotations

import math
import random
from typing import Any

from kabuto.ai.candidates import aim_heading, wrap_deg

#: The new player's aim error: standard deviations of the platform's place and of the heading (deg).
ENTRY_ERROR_DEG = 3.0
HEADING_ERROR_DEG = 4.0


def _target(game: Any, seat: int) -> tuple[float, float] | None:
    """The nearest-to-the-edge opposing wrestler on the ring (where a new player aims)."""
    mine = game.side_of(seat)
    spots = []
    for s in game.seats:
        if game.side_of(s.index) == mine:
            continue
        pid = s.piece_id
        for p in game.world.pieces:
            if p.id == pid:
                spots.append((p.x, p.y))
    return max(spots, key=lambda xy: math.hypot(*xy)) if spots else None


def play_novice_turn(game: Any, rng: random.Random) -> int:
    """Play the current seat's whole turn as a new player would; the pushes made."""
    seat = game.current_seat
    R = game.materials.ring.radius
    top = game.materials.sim.max_speed
    pushes = 0
    while not game.is_over and game.current_seat == seat and game.can_push:
        kinds = sorted(game.legal_kinds(), key=lambda k: -game.materials.kinds[k].size)
        target = _target(game, seat) or (0.0, 0.0)
        straight = math.degrees(math.atan2(target[1], target[0])) + 180.0 if target != (0.0, 0.0) \
            else rng.uniform(-180.0, 180.0)
        done = False
        for kind in kinds:
            for tries in range(6):
                entry = wrap_deg(straight + rng.gauss(0.0, ENTRY_ERROR_DEG) + 15.0 * tries * (-1) ** tries)
                heading = aim_heading(entry, target, 0.0, R) + rng.gauss(0.0, HEADING_ERROR_DEG)
                try:
                    game.push(kind, entry, heading, top, end_turn=False)
                except ValueError:
                    continue
                done = True
                break
            if done:
                break
        if not done:
            break
        pushes += 1
    if not game.is_over and game.current_seat == seat and game.can_end_turn:
        game.end_turn()
    return pushes
