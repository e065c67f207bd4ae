"""Every screen at every size from 960 x 600 up: the window is resized through the X server (as a
user dragging its corner would), what reaches the screen is the picture drawn (not shifted, no
stale strip), and real X clicks on widgets land on what they show.

The screens: the start menu, the Kabuto table, the replay browser, and the card table's set-up.
"""
from __future__ import annotations

import shutil

import pytest

from tests.app.xinput import click, pump_until, resize, screen_matches_drawing

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")

SIZES = [(960, 600), (1280, 720), (1920, 1080)]


def _centre(widget) -> tuple[float, float]:
    r = widget.rect
    return r.x + r.w / 2, r.y + r.h / 2


def _click_widget(win, scene, name: str, done) -> None:
    w = scene.widgets.find(name)
    assert w is not None, f"no widget {name!r} on {type(scene).__name__}"
    r = w.rect
    assert 0 <= r.x and r.right <= win.width and 0 <= r.y and r.top <= win.height, (
        f"{name!r} at {r} lies outside the {win.width}x{win.height} window")
    click(win, *_centre(w))
    assert pump_until(win, done), f"a real click on {name!r} did nothing"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_menu_resized_shows_what_it_draws_and_takes_clicks(app, size):
    win = app.window
    app.open_menu()
    assert resize(win, 960, 600)  # via the smallest first
    assert resize(win, *size)
    assert screen_matches_drawing(win) > 0.97
    menu = win.scene
    _click_widget(win, menu, "players:3", lambda: menu.config.players == 3)
    _click_widget(win, menu, "seat:2", lambda: menu.config.seats[2] == "human")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_resized_reflows_and_its_buttons_take_real_clicks(app, size):
    from kabuto.app.game_config import GameConfig

    win = app.window
    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus")))
    table = win.scene
    assert resize(win, 960, 600)
    assert resize(win, *size)
    assert screen_matches_drawing(win) > 0.97
    # The layout follows the window: the side panel reaches the right edge, the ring fits its area.
    assert table.panel_rect.right == size[0] and table.panel_rect.top == size[1] - 40
    _click_widget(win, table, "tuning", lambda: table.tuning_open)
    _click_widget(win, table, "choice:small", lambda: table.choice_key == "small")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_card_table_set_up_resized_takes_real_clicks(display, size):
    from cards.table.scene import SetupScene, open_window
    from tests.app.xinput import map_window

    win = open_window(1280, 720)
    try:
        map_window(win)
        scene = win.set_scene(SetupScene(win))
        assert resize(win, *size)
        assert screen_matches_drawing(win) > 0.97
        before = scene.model.mode
        target = next(b for b in scene.model.display().buttons()
                      if b.target and b.target.startswith("mode:") and not b.selected)
        r = target.rect
        x, y = scene.renderer.to_window(r.x + r.w / 2, r.y + r.h / 2)
        click(win, x, y)
        assert pump_until(win, lambda: scene.model.mode != before)
        assert scene.model.mode == target.target.split(":", 1)[1]
    finally:
        win.close()
