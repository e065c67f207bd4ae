"""The card-table set-up offers each engine's variants - the Sumo Card Game with Jokers, and SUMO
with colour read as suit (as in the published game) - and a real X click starts them."""
from __future__ import annotations

import os
import shutil

import pytest

pytestmark = [pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed"),
              pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="no X display")]


@pytest.mark.parametrize("mode,check", [
    ("sumo-card-game-jokers", lambda g: g.jokers is True),
    ("sumo-suits", lambda g: g.colours == "suits"),
])
def test_a_variant_is_chosen_and_started_with_real_clicks(mode, check):
    from cards.table.config import table_data
    from cards.table.scene import CardTableScene, SetupScene, open_window
    from tests.app.xinput import click, map_window, pump_until

    assert mode in [m.key for m in table_data().modes]
    win = open_window(1280, 720)
    try:
        map_window(win)
        scene = win.set_scene(SetupScene(win))
        for target in (f"mode:{mode}", "ui:start"):
            b = win.scene.model.display().button(target)
            assert b is not None, target
            x, y = win.scene.renderer.to_window(b.rect.x + b.rect.w / 2, b.rect.y + b.rect.h / 2)
            click(win, x, y)
            assert pump_until(win, lambda t=target: (scene.model.mode == mode) if t.startswith("mode")
                              else isinstance(win.scene, CardTableScene))
        game = win.scene.model.match.game
        assert win.scene.model.match.mode.key == mode
        assert check(game)
    finally:
        win.close()
