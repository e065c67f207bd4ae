"""Fixtures for the desktop app's tests: a real X display (Xvfb) and real windows.

If ``DISPLAY`` is unset and ``Xvfb`` is installed, the ``display`` fixture starts one private Xvfb
for the whole session (:mod:`kabuto.app.virtual_display`: Xvfb picks a free display number itself
and reports it once ready). Without either, the window tests are skipped with the reason.

pyglet opens the display when its GL layer is first imported, so test modules import the drawing
parts of ``kabuto.app`` inside fixtures and tests, never at the top.
"""
from __future__ import annotations

import pytest

from kabuto.app.virtual_display import NoDisplay, virtual_display


@pytest.fixture(scope="session")
def display():
    """The X display the app's windows open on (":N")."""
    try:
        with virtual_display() as name:
            yield name
    except NoDisplay as exc:
        pytest.skip(str(exc))


@pytest.fixture
def app_window(display):
    """A real 1280x720 app window; closed after the test."""
    from kabuto.app.window import AppWindow

    win = AppWindow(1280, 720)
    win.switch_to()
    yield win
    win.close()


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Games played in these tests are recorded into a temporary folder, not the user's."""
    folder = tmp_path / "kabuto-data"
    monkeypatch.setenv("KABUTO_DATA_DIR", str(folder))
    return folder
