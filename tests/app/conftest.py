"""Fixtures for the desktop app's tests: a real X display (Xvfb) and real windows.

The whole test run shares one private Xvfb, started by ``tests/conftest.py`` when ``DISPLAY`` is
unset (:mod:`kabuto_ui.virtual_display`). Without one, the window tests are skipped with the reason.

pyglet opens the display when its GL layer is first imported, so test modules import the drawing
parts of ``kabuto.app`` inside fixtures and tests, never at the top.
"""
from __future__ import annotations

import pytest

#: The seed the test servers deal their rooms from (see ``server``).
SERVER_SEED = 1


@pytest.fixture(scope="session")
def display():
    """The X display the app's windows open on (":N")."""
    import os

    if not os.environ.get("DISPLAY"):
        pytest.skip("no DISPLAY and no Xvfb (install the xvfb package; tools/setup.sh does)")
    return os.environ["DISPLAY"]


@pytest.fixture
def app_window(display):
    """A real 1280x720 app window; closed after the test."""
    from kabuto_ui.window import Window

    win = Window(1280, 720)
    win.switch_to()
    yield win
    win.close()


@pytest.fixture
def app(display, tmp_path):
    """The whole desktop app at 1280x720, mapped, with its own data and profiles folders and no
    AI delay; closed after the test unless the test closed it."""
    from kabuto.app.main import App, Options
    from tests.app.xinput import map_window

    a = App(Options(size=(1280, 720), ai_delay=0.0, data_dir=tmp_path / "data", ai_workers=1,
                    profiles=tmp_path / "profiles"))
    map_window(a.window)
    yield a
    if a.window._window is not None:  # pyglet's xlib window drops its X window once closed
        a.window.close()


@pytest.fixture
def window(app_window):
    """The app window, under the name the online tests use."""
    return app_window


@pytest.fixture
def server(tmp_path):
    """A real ``kabuto serve`` on a free loopback port, with its own data folder; killed after. Its
    rooms are dealt from a fixed seed, so a test plays the same wrestlers and bots every run (with an
    unpredictable one, a bot whose first reply happened to knock out the test's wrestler ended the
    game before the test could go on)."""
    from tests.net.helpers import ServerProcess

    proc = ServerProcess(tmp_path / "server-data", seed=SERVER_SEED)
    yield proc
    if proc.proc.poll() is None:
        proc.kill()


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """This test's own data folder (tests/conftest.py keeps every test's recordings private)."""
    folder = tmp_path / "kabuto-data"
    monkeypatch.setenv("KABUTO_DATA_DIR", str(folder))
    return folder
