"""What a player's hand may do with the pieces: the rulebook's limits on pushing and stacking.

Physics simulates any forward push and holds up any stack whose top piece's centre is over its base;
the game allows less. These two rules are applied by :class:`kabuto.Game` (pushes, signature moves,
edits), which turns a refusal into :class:`~kabuto.rules.errors.IllegalMove`.

**How fast.** "No changing direction or flicking allowed!": a push is slow and steady. The hand's
speed range is data, ``simulation.min_speed`` .. ``max_speed`` in ``assets/materials.toml``
(0.02 .. 0.45 m/s), tunable like the rest of the materials and recorded with them in every replay:

    >>> from physics import SimSettings
    >>> sim = SimSettings(min_speed=0.02, max_speed=0.45)
    >>> push_speed_refusal(0.3, sim) is None
    True
    >>> push_speed_refusal(1.2, sim)
    'hand speed 1.2 m/s is a flick, not a push: push at 0.02 to 0.45 m/s'

**What on what.** "Pieces can only be stacked on pieces of the same size or larger", and never on a
wrestler piece (such kinds are marked ``stackable = false`` in their data):

    >>> from physics import Materials
    >>> kinds = Materials.load().kinds
    >>> stack_refusal(kinds["small"], kinds["large"]) is None
    True
    >>> stack_refusal(kinds["large"], kinds["small"])
    'pieces stack only on pieces of the same size or larger'
"""
from __future__ import annotations

from physics import PieceType, SimSettings


def push_speed_refusal(speed: float, sim: SimSettings) -> str | None:
    """Why the hand may not push at ``speed`` (m/s), or None if it may."""
    allowed = f"push at {sim.min_speed:g} to {sim.max_speed:g} m/s"
    if speed > sim.max_speed:
        return f"hand speed {speed:g} m/s is a flick, not a push: {allowed}"
    if speed < sim.min_speed:
        return f"hand speed {speed:g} m/s is too slow to be a push: {allowed}"
    return None


def stack_refusal(piece: PieceType, base: PieceType) -> str | None:
    """Why a ``piece`` may not be stacked on a ``base``, or None if it may."""
    if not base.stackable:
        return "nothing may be stacked on a wrestler piece"
    if not base.carries(piece):  # physics' own test: a rider that drops lands only so
        return "pieces stack only on pieces of the same size or larger"
    return None
