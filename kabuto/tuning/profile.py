"""Tuning profiles: a whole :class:`physics.Materials` written as TOML in the layout of
``assets/materials.toml`` (sections ``ring``, ``simulation``, ``kinds.NAME``), so that
``physics.Materials.load(path)`` - and with it the app and replays - reads it back exactly.

Masses are written as ``mass`` (kg), never ``density``: a fit decides masses. Floats are written
with ``repr``, which round-trips every bit, so loading a profile gives exactly the materials that
were saved; :func:`write_profile` checks that before it replaces the file.
"""
from __future__ import annotations

from pathlib import Path

from kabuto.tuning.errors import TuneError
from physics import Materials


def write_profile(path: str | Path, materials: Materials, header: list[str] | None = None) -> Path:
    """Write a tuning profile atomically, after checking that it loads back as ``materials``."""
    try:
        return materials.save(path, header or [])
    except ValueError as exc:
        raise TuneError(str(exc)) from None
