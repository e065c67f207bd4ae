"""Settings shared by every test: a private data folder, and one virtual X display for the run."""
from __future__ import annotations

import contextlib

import pytest

from kabuto.ui.virtual_display import NoDisplay, virtual_display

_display = contextlib.ExitStack()


def pytest_configure(config: pytest.Config) -> None:
    # Before any test module imports pyglet (which connects to the display on import): with no
    # DISPLAY, start one Xvfb for the whole run. Without Xvfb the window tests skip with the reason.
    with contextlib.suppress(NoDisplay):
        _display.enter_context(virtual_display("1600x1000x24"))


def pytest_unconfigure(config: pytest.Config) -> None:
    _display.close()


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Every game records itself; keep the tests' recordings out of the user's data folder."""
    monkeypatch.setenv("KABUTO_DATA_DIR", str(tmp_path_factory.mktemp("kabuto-data")))
