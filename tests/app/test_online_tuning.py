"""In an online room the tuning panel opens read-only and says why: the room's materials are the
server's, the same for every player. Its sliders do not move, Defaults and the profiles are off,
and the materials stay as they were. Real keys and a real drag on a real window under Xvfb,
against a real server."""
from __future__ import annotations

import shutil

import pytest

from tests.app import xinput
from tests.app.test_online import _app, click, until
from tests.app.test_online_rooms import _lobby

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def test_online_tuning_is_read_only_and_says_the_rooms_materials_are_fixed(window, tmp_path, server):
    from kabuto.app.scene.online import OnlineTableScene
    from kabuto_ui.widgets import Slider

    lobby = _lobby(window, _app(window, tmp_path / "app-data", server.url))
    click(window, lobby, "host:kabuto-2")
    until(window, lambda: lobby.state.room is not None, "the room")
    click(window, lobby, "online:fill")
    until(window, lambda: isinstance(window.scene, OnlineTableScene), "the game to start")
    table = window.scene
    before = table.session.materials
    xinput.key(window, "t")
    until(window, lambda: table.tuning_open, "the tuning panel")
    words = " ".join(getattr(it, "text", "") for it in table.tuning.items)
    assert "read only" in words and "fixed by the server" in words
    sliders = [w for w in table.widgets.items if isinstance(w, Slider) and w.name.startswith("slider:")]
    assert sliders and not any(s.enabled for s in sliders)
    assert not table.widgets.find("tuning:defaults").enabled
    s = sliders[0]
    value = s.value
    xinput.drag(window, (s.rect.x + 4, s.rect.y + s.rect.h * 0.3), (s.rect.right - 4, s.rect.y + s.rect.h * 0.3))
    for _ in range(5):
        window.pump()
    assert s.value == value and table.session.materials is before


def test_the_tuning_panel_says_what_mass_changes_and_stays_movable_at_home(app):
    from kabuto.app.game_config import GameConfig
    from kabuto_ui.widgets import Slider

    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus")))
    table = app.window.scene
    xinput.key(app.window, "t")
    assert xinput.pump_until(app.window, lambda: table.tuning_open)
    words = " ".join(getattr(it, "text", "") for it in table.tuning.items)
    assert "Mass alone changes little" in words and "collisions" in words and "read only" not in words
    sliders = [w for w in table.widgets.items if isinstance(w, Slider) and w.name.startswith("slider:")]
    assert sliders and all(s.enabled for s in sliders)
