"""Shared fixtures for the tools' tests."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from physics import Materials


@pytest.fixture(scope="session")
def materials() -> Materials:
    """The shipped default materials (assets/materials.toml)."""
    return Materials.load()


TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load_tool(name: str) -> ModuleType:
    """The script ``tools/<name>.py`` as a module (tools/ is not a package), registered under its
    name so that tools importing each other (``import early_wins``) find it."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
