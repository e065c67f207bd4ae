"""The data files kabuto ships (materials, boards, wrestlers, AI levels, scenarios, card faces).

Installed as the package ``kabuto_assets`` (the repository keeps them in the top-level ``assets/``
folder), so every part of the project finds them through :mod:`importlib.resources` whether it runs
from a checkout, an editable install or a wheel. Developers may point ``KABUTO_ASSETS`` at another
folder of the same layout.

>>> path("materials.toml").name
'materials.toml'
"""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

__all__ = ["folder", "path"]


def folder() -> Path:
    """The folder that holds the data files (``KABUTO_ASSETS`` overrides it)."""
    env = os.environ.get("KABUTO_ASSETS")
    if env:
        return Path(env)
    # A wheel installs the files as plain files, so the Traversable is a real folder on disk.
    return Path(str(resources.files(__name__)))


def path(*parts: str) -> Path:
    """The data file at ``parts`` below :func:`folder`, for example ``path("cards", "faces.toml")``."""
    return folder().joinpath(*parts)
