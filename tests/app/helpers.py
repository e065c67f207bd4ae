"""Helpers for the app tests (not fixtures)."""
from __future__ import annotations

import math
import re

#: A bare piece id or kind key (M10, L2, S01, gus:wrestler, hank_bar1, gus_wrestler).
_BARE_ID = re.compile(r"\b(?:[LMS]\d{1,2}|[a-z]+:[a-z]+\d*|[a-z]+_[a-z]+\d*)\b")
#: A number with more digits than a player reads.
_LONG_FLOAT = re.compile(r"(-?\d+)\.(\d{3,})")


def leaks(text: str) -> list[str]:
    """What in ``text`` a player should never read: piece ids, kind keys, numbers to three or
    more decimals. [] when it is all player's words.

    >>> leaks("Red pushes the small disc 12.5 mm")
    []
    >>> leaks("piece 'M03' would overlap piece 'L2' at 0.01234 m")
    ['M03', 'L2', '0.01234']
    """
    found = [m.group(0) for m in _BARE_ID.finditer(text)]
    found += [m.group(0) for m in _LONG_FLOAT.finditer(text)]
    return found


def settle(win, scene, limit: int = 5000, dt: float = 0.1) -> None:
    """Run the table's ticks until nothing plays: pushes animate, AI seats think (in a thread) and
    push. Ticks of ``dt`` seconds of animation each, not waiting for the wall clock (big ticks
    draw fewer frames: the playback jumps ahead, it never re-simulates). Bounded by ``limit``."""
    import time

    for _ in range(limit):
        if scene.mode in ("aim", "over") and not scene.flights:
            return
        win.pump(dt)
        if scene.mode == "ai-thinking":
            time.sleep(0.002)  # let the AI's thread run; this waits, it times nothing
    raise AssertionError(f"the table did not settle (mode {scene.mode})")


#: How far inside the ring's edge :func:`wrestler_on_the_edge` sits the wrestler's centre (m): near
#: enough that a push within the platform's range (``simulation.heading_limit_deg``, 45 degrees) and
#: the hand's top speed (``simulation.max_speed``, 0.45 m/s) knocks it out. (8 mm served while the
#: platform turned 60 degrees and the hand pushed at 0.5 m/s.)
EDGE_INSET = 0.004


def wrestler_on_the_edge(game, seat: int = 1) -> None:
    """Clear the top of the ring and sit ``seat``'s wrestler (seat 1's unless told) 4 mm inside the
    edge, 25 degrees round from the top: a push from the top (entry 90) turned as far clockwise as
    the platform allows, as fast as the hand may push, runs along the edge into it and knocks it
    out."""
    rival = game.seats[seat].piece_id
    R = game.materials.ring.radius
    for p in list(game.world.pieces):
        if p.y > -0.03 and p.id != rival:
            game.edit(p.id, "supply")
    a = math.radians(115.0)
    game.edit(rival, "board", (R - EDGE_INSET) * math.cos(a), (R - EDGE_INSET) * math.sin(a))
