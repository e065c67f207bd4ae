"""Settings shared by every test: a private data folder, and a virtual X display of its own for
each test process."""
from __future__ import annotations

import contextlib
import os
import shutil

import pytest

import kabuto_assets
from kabuto_ui.virtual_display import NoDisplay, virtual_display

_display = contextlib.ExitStack()

#: Not a test module: the names vulture is told are used (tests/test_dead_code.py reads it).
collect_ignore = ["vulture_whitelist.py"]


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("KABUTO_SOUND", "0")  # tests are silent (kabuto_ui.sound)
    # Before any test module imports pyglet (which connects to the display on import): with no
    # DISPLAY, start one Xvfb for this process. Without Xvfb the window tests skip with the reason.
    # Under pytest-xdist the controller only hands out tests, and each worker starts its own Xvfb:
    # real X input (xdotool clicks at screen positions) must never land in another worker's window.
    if getattr(config.option, "numprocesses", None) and not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    with contextlib.suppress(NoDisplay):
        _display.enter_context(virtual_display("2000x1200x24"))  # room for a 1920 x 1080 window


def pytest_unconfigure(config: pytest.Config) -> None:
    _display.close()


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Every game records itself; keep the tests' recordings out of the user's data folder."""
    monkeypatch.setenv("KABUTO_DATA_DIR", str(tmp_path_factory.mktemp("kabuto-data")))


#: The shipped Vice Grip: one piece Mike picks, never a wrestler (docs/rules-notes.md).
SHIPPED_GRIP = 'effect = { type = "centre_knockout", pick = "one", wrestlers = false }'


def grip_assets(tmp_path, monkeypatch, effect: str) -> None:
    """Point the game at a copy of the assets whose Vice Grip has ``effect`` instead."""
    folder = tmp_path / "grip-assets"
    shutil.copytree(kabuto_assets.folder(), folder)
    cards = folder / "wrestlers.toml"
    text = cards.read_text(encoding="utf-8")
    assert text.count(SHIPPED_GRIP) == 1
    cards.write_text(text.replace(SHIPPED_GRIP, effect), encoding="utf-8")
    monkeypatch.setenv("KABUTO_ASSETS", str(folder))


@pytest.fixture
def grip_takes_wrestlers(tmp_path, monkeypatch):
    """Vice Grip read as before issue 42's change: a wrestler in the centre circle can be gripped
    (and the AI's push-in-and-grip play comes alive), the card's one-piece pick kept."""
    grip_assets(tmp_path, monkeypatch, 'effect = { type = "centre_knockout", pick = "one", wrestlers = true }')
