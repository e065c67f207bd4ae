"""Which physics engine and physics model a result was computed with.

Chipmunk promises bit-identical results for the same operations on the same build and platform,
not across versions or processors, so a replay records these and ``kabuto replay --verify`` warns
when they differ from the running ones (a difference is a reason to expect drift, not a failure).

>>> sorted(engine())
['chipmunk', 'platform', 'pymunk']
"""
from __future__ import annotations

import platform
import sys

import pymunk

#: The physics model: what the simulator computes, beyond the engine's own numbers. A replay
#: records it, and one recorded under another model is refused rather than re-simulated into a
#: silently different game (``kabuto replay`` exits 2 naming both).
#:
#: 1. Before issue 15 (replays with no ``physics_model`` in their meta).
#: 2. Stacks judged by their centres of mass, sliding and spinning friction coupled, bodies in
#:    an order of positions (not ids), and "at rest" only once overlaps are pushed out.
#: 3. Resting bodies sleep (Chipmunk leaves them out of the solver until something touches
#:    them), which changes the solver's order; nothing else. With sleeping off
#:    (``physics.sim.SLEEP = False``) the numbers are model 2's, bit for bit.
#: 4. A rider dropping off its base lands only on a piece that carries it
#:    (:meth:`physics.materials.PieceType.carries`: not a wrestler piece, none smaller than
#:    itself), else drops on down; under model 3 it could land on either, a state the rules refuse
#:    to load. Every other push is model 3's, bit for bit.
#: 5. The hand never carries its piece back out: a line so steep it only grazes the edge (a
#:    kind's steepest heading) is let go where it passes nearest the ring's centre, instead of
#:    being driven on along the whole chord, off the ring, for ``max_drive_time``. Every push that
#:    gets its piece wholly in before that point is model 4's, bit for bit.
#: 6. The same numbers on every CPython: sums of floats are ``math.fsum`` (the built-in ``sum``
#:    is compensated since CPython 3.12, which moved the area and moment of a piece of three or
#:    more parts, and so every push of a game with Mike or Annie), and no numpy reduction, dot
#:    product or vector sin/cos feeds a push (their rounding depends on the numpy build and the
#:    CPU). The numbers differ from model 5's in the last bits.
#: 7. The hand stops with its piece (issue 42): once the piece is wholly on the ring the hand
#:    slows at ``simulation.hand_stop`` and lets go of it at rest, instead of letting it glide on
#:    at the push's speed; and the ring, the small discs and the starting boards changed (a
#:    crammed 170 mm ring), so a game recorded before starts from another board.
PHYSICS_MODEL = 7


def engine() -> dict[str, str]:
    """The running pymunk and Chipmunk versions and the platform (OS and processor)."""
    return {
        "pymunk": pymunk.version,
        # pymunk reports "2.0.1-<git hash>"; the hash names the exact Chipmunk sources it built.
        "chipmunk": pymunk.chipmunk_version,
        "platform": f"{sys.platform}-{platform.machine()}",
    }


def model_mismatch(recorded: int) -> str | None:
    """The one-line refusal for a result recorded under another physics model, else None.

    >>> model_mismatch(2)
    'recorded with physics model 2; this is 7'
    """
    if recorded == PHYSICS_MODEL:
        return None
    return f"recorded with physics model {recorded}; this is {PHYSICS_MODEL}"


def describe(info: dict[str, str]) -> str:
    """``pymunk 7.3.1 (Chipmunk 2.0.1) on linux-x86_64``, for messages."""
    chip = str(info.get("chipmunk", "?")).split("-")[0]
    return f"pymunk {info.get('pymunk', '?')} (Chipmunk {chip}) on {info.get('platform', '?')}"
