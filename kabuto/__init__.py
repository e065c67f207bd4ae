"""Kabuto Sumo: the rules of the game on top of the :mod:`physics` world."""
from __future__ import annotations

from typing import Any

# Exported lazily (PEP 562): `kabuto cards ...` imports this package and must not load pymunk.
_EXPORTS = {
    "Game": "kabuto.game",
    "GameSetup": "kabuto.game",
    "Seat": "kabuto.game",
    "IllegalMove": "kabuto.errors",
    "ReplayError": "kabuto.errors",
    "GameResult": "kabuto.outcomes",
    "PushOutcome": "kabuto.outcomes",
    "MoveOutcome": "kabuto.outcomes",
    "Knockout": "kabuto.outcomes",
    "TurnState": "kabuto.outcomes",
    "MoveOption": "kabuto.moves",
    "TargetSpec": "kabuto.moves",
}


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'kabuto' has no attribute {name!r}")


__all__ = sorted(_EXPORTS)
