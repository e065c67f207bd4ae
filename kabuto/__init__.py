"""Kabuto Sumo: the rules of the game on top of the :mod:`physics` world."""
from __future__ import annotations

from typing import Any

# Exported lazily (PEP 562): `kabuto cards ...` imports this package and must not load pymunk.
_EXPORTS = {
    "Game": "kabuto.rules.game",
    "GameSetup": "kabuto.rules.game",
    "Seat": "kabuto.rules.game",
    "IllegalMove": "kabuto.rules.errors",
    "ReplayError": "kabuto.rules.errors",
    "GameResult": "kabuto.rules.outcomes",
    "PushOutcome": "kabuto.rules.outcomes",
    "MoveOutcome": "kabuto.rules.outcomes",
    "Knockout": "kabuto.rules.outcomes",
    "TurnState": "kabuto.rules.outcomes",
    "MoveOption": "kabuto.rules.moves",
    "TargetSpec": "kabuto.rules.moves",
}


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'kabuto' has no attribute {name!r}")


__all__ = sorted(_EXPORTS)
