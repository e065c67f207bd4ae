"""Keys at the Kabuto table that must work whenever they are pressed: E during a push's animation
ends the turn when the push lands, and F12 saves a screenshot into the data folder and says where.
Real X key presses on a real window under Xvfb."""
from __future__ import annotations

import shutil

import pytest

from tests.app.test_pace import _push
from tests.app.xinput import key, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _pushing(app):
    from kabuto.app.table_flow import Phase

    table = _push(app)
    app.window.pump(1 / 60)
    assert table.mode is Phase.PLAYING
    return table


def test_e_pressed_while_the_push_plays_ends_the_turn_when_it_lands(app):
    from kabuto.app.table_flow import Phase

    table = _pushing(app)
    pusher = table.session.current_seat()
    key(app.window, "e")
    assert pump_until(app.window, lambda: table.mode is not Phase.PLAYING, limit_s=10)
    assert pump_until(app.window, lambda: table.session.current_seat() != pusher, limit_s=10)
    assert table.pushes == 1


def test_f12_saves_the_screenshot_in_the_data_folder_and_shows_its_whole_path(app, tmp_path,
                                                                              monkeypatch):
    from kabuto.app.game_config import GameConfig

    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus")))
    table = app.window.scene
    key(app.window, "F12")
    folder = app.data_dir / "screenshots"
    assert pump_until(app.window, lambda: folder.is_dir() and any(folder.glob("*.png")))
    [shot] = folder.glob("*.png")
    assert str(shot) in table.message and str(shot) in table.event_label.text
    assert not any(elsewhere.iterdir())


def test_at_960x600_the_aim_readout_is_whole_and_h_shows_how_to_push(display):
    """A four-player table in a 960 x 600 window: the aim readout drops whole parts (never "spe…"),
    the seat names are not cut, and where the side panel has no room for the help, the aim bar
    says H shows it - and H does."""
    from kabuto.app.game_config import GameConfig
    from kabuto.app.main import App, Options
    from kabuto.app.panels import HELP_HINT
    from kabuto_ui.overlay import TextPage
    from tests.app.xinput import map_window

    app = App(Options(size=(960, 600), ai_delay=0.0, record=False, ai_workers=1))
    try:
        map_window(app.window)
        app.start(app.modes["kabuto"], GameConfig(4, ("human",) * 4, ("gus", "dora", "mike", "bea")))
        table = app.window.scene
        readout = table.bar.readout.text
        assert "\u2026" not in readout and readout.startswith("medium  ·  platform at")
        texts = [getattr(it, "text", "") for it in table.side.items + table.bar.items]
        assert not any(t.endswith("\u2026") for t in texts if " - " in t), texts  # seat names whole
        assert HELP_HINT in texts or "How to push" in texts
        key(app.window, "h")
        assert pump_until(app.window, lambda: isinstance(app.window.overlay, TextPage))
        assert app.window.overlay.title == "How to push" and "Shift-drag" in app.window.overlay.text
    finally:
        app.window.close()
