"""Tuning profiles: a whole :class:`physics.Materials` written as TOML in the layout of
``assets/materials.toml`` (sections ``ring``, ``simulation``, ``kinds.NAME``), so that
``physics.Materials.load(path)`` - and with it the app and replays - reads it back exactly.

Masses are written as ``mass`` (kg), never ``density``: a fit decides masses. Floats are written
with ``repr``, which round-trips every bit, so loading a profile gives exactly the materials that
were saved; :func:`write_profile` checks that before it replaces the file.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from physics import Materials

from kabuto.tuning.errors import TuneError
from physics.fileio import write_atomic_with


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise TuneError(f"cannot write {v!r} to a profile")
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    raise TuneError(f"cannot write {type(v).__name__} to a profile")


def materials_to_toml(materials: Materials, header: list[str] | None = None) -> str:
    """The TOML text of a tuning profile, with ``header`` lines as comments at the top."""
    data = materials.to_dict()
    lines = [f"# {h}" if h else "#" for h in (header or [])]
    if lines:
        lines.append("")
    lines.append("[ring]")
    lines += [f"{k} = {_value(v)}" for k, v in data["ring"].items()]
    lines += ["", "[simulation]"]
    lines += [f"{k} = {_value(v)}" for k, v in data["simulation"].items()]
    for name, kind in data["kinds"].items():
        lines += ["", f'[kinds."{name}"]']
        lines += [f"{k} = {_value(v)}" for k, v in kind.items()]
    return "\n".join(lines) + "\n"


def write_profile(path: str | Path, materials: Materials, header: list[str] | None = None) -> Path:
    """Write a tuning profile atomically, after checking that it loads back as ``materials``."""
    path = Path(path)
    text = materials_to_toml(materials, header)

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        back = Materials.load(tmp)
        if back.to_dict() != materials.to_dict():
            raise TuneError(f"{path}: the written profile does not load back as the same materials")

    write_atomic_with(path, write)
    return path
