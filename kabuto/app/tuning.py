"""Tuning profiles: the materials in force, changed by the app's sliders, saved and loaded as TOML.

A profile is a complete materials file in the format of ``assets/materials.toml`` (ring, simulation
and every piece kind), so ``physics.Materials.load(profile)`` and ``kabuto play --tuning profile``
both read it. The sliders go through :meth:`physics.Materials.with_overrides`, which validates every
value like the file does. No pyglet here.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kabuto_base.userdirs import user_config_dir
from physics import Materials


@dataclass(frozen=True)
class Knob:
    """One slider: a material field of a piece kind, and the range the slider covers."""

    field: str
    label: str
    lo: float
    hi: float
    #: Whether the range is relative to the kind's default (mass: 0.25x .. 4x of the file's value).
    relative: bool = False

    def key(self, kind: str) -> str:
        """The :meth:`Materials.with_overrides` key for this field of ``kind``."""
        return f"{self.field}.{kind}"

    def range_for(self, default: float) -> tuple[float, float]:
        return (self.lo * default, self.hi * default) if self.relative else (self.lo, self.hi)


#: The tuning panel's sliders, per piece kind (the issue: table friction, piece friction, mass,
#: restitution). Ranges cover plausible wood/card/felt values; the file's validation is wider.
KNOBS: tuple[Knob, ...] = (
    Knob("table_friction", "table friction", 0.0, 1.0),
    Knob("piece_friction", "piece friction", 0.0, 1.2),
    Knob("mass", "mass (g)", 0.25, 4.0, relative=True),
    Knob("restitution", "bounce (restitution)", 0.0, 1.0),
)


def default_profile_dir() -> Path:
    """Where profiles are saved unless ``--profiles`` says otherwise: ``tuning/`` in the per-user
    configuration folder (``$XDG_CONFIG_HOME/kabuto/tuning`` or ``~/.config/kabuto/tuning`` on
    Linux; a relative ``XDG_CONFIG_HOME`` is ignored, as the XDG spec says)."""
    return user_config_dir() / "tuning"


def list_profiles(folder: Path) -> list[Path]:
    """The ``.toml`` profiles in ``folder``, by name (an absent folder has none)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == ".toml" and p.is_file())


def next_profile_path(folder: Path) -> Path:
    """``profile-001.toml``, ``profile-002.toml``, ...: the first free name in ``folder``."""
    n = 1
    while (folder / f"profile-{n:03d}.toml").exists():
        n += 1
    return folder / f"profile-{n:03d}.toml"


def save_profile(materials: Materials, path: Path, note: str = "") -> Path:
    """Write ``materials`` as a TOML profile, atomically (see :meth:`physics.Materials.save`)."""
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M")
    header = [f"kabuto tuning profile, saved by the desktop app on {stamp}.",
              "A complete materials file: physics.Materials.load() and `kabuto play --tuning` read it."]
    return materials.save(path, header + ([note] if note else []))


def load_profile(path: Path, base: Materials | None = None) -> Materials:
    """Read a profile (ValueError names a bad key). Piece kinds the profile lacks but ``base`` has
    (e.g. wrestler pieces added after the profile was saved) are kept from ``base``."""
    loaded = Materials.load(path)
    if base is not None:
        missing = {k: v for k, v in base.kinds.items() if k not in loaded.kinds}
        if missing:
            loaded = loaded.with_kinds(missing)
    return loaded
