"""The pymunk world of Kabuto Sumo: a round ring seen from above, pieces, pushes and falls.

No game rules live here (turns, inventories, what may be stacked, how fast a hand may push: those
are :mod:`kabuto.rules`'). Physics refuses only what is physically impossible. Units are SI:
metres, kilograms, seconds.

The names below load on first use (PEP 562), so ``physics.numeric`` can be used without loading
pymunk.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ below loads them
    from physics.materials import Materials as Materials
    from physics.materials import PieceType as PieceType
    from physics.materials import Ring as Ring
    from physics.materials import SimSettings as SimSettings
    from physics.shapes import Circle as Circle
    from physics.shapes import Polygons as Polygons
    from physics.state import Fall as Fall
    from physics.state import PieceState as PieceState
    from physics.state import Push as Push
    from physics.state import PushResult as PushResult
    from physics.state import Trajectory as Trajectory
    from physics.world import PushRefused as PushRefused
    from physics.world import World as World
    from physics.world import state_hash as state_hash

_EXPORTS = {
    "Materials": "physics.materials", "PieceType": "physics.materials", "Ring": "physics.materials",
    "SimSettings": "physics.materials",
    "Circle": "physics.shapes", "Polygons": "physics.shapes",
    "Fall": "physics.state", "PieceState": "physics.state", "Push": "physics.state",
    "PushResult": "physics.state", "Trajectory": "physics.state",
    "World": "physics.world", "PushRefused": "physics.world", "state_hash": "physics.world",
}


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'physics' has no attribute {name!r}")


__all__ = sorted(_EXPORTS)
