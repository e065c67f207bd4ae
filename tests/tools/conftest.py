"""Shared fixtures for the tuning-tool tests."""
from __future__ import annotations

import pytest

from physics import Materials


@pytest.fixture(scope="session")
def materials() -> Materials:
    """The shipped default materials (assets/materials.toml)."""
    return Materials.load()
