"""Settings shared by every test."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Every game records itself; keep the tests' recordings out of the user's data folder."""
    monkeypatch.setenv("KABUTO_DATA_DIR", str(tmp_path_factory.mktemp("kabuto-data")))
