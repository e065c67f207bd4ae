"""The game log: every push and move in a player's words, each shown once its animation has ended;
a click on an entry opens that seat's wrestler card; the replay viewer keeps the same log and steps
it back. Real mouse events on a real window under Xvfb."""
from __future__ import annotations

import re

import pytest

from tests.app import xinput

pytestmark = pytest.mark.skipif(xinput.XDOTOOL is None, reason="xdotool is not installed")


def _game(app, size=(1280, 720)):
    from kabuto.app.game_config import GameConfig

    if size != (app.window.width, app.window.height):
        xinput.resize_mapped(app.window, *size)
    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus"), seed=7,
                                              first_player=0))
    return app.window.scene


def _drag_push(app, scene) -> None:
    """Press on the ring's left edge (the platform goes there) and drag in towards the centre."""
    R = scene.session.materials.ring.radius
    t = scene.ring.transform
    xinput.drag(app.window, t.to_screen(-R, 0.0), t.to_screen(-0.2 * R, 0.05 * R))
    assert xinput.pump_until(app.window, lambda: scene.pushes == 1), "the release did not push"


def test_a_push_is_logged_in_words_once_it_has_played(app):
    scene = _game(app)
    scene.pace = "slow"
    assert scene.game_log.entries == []
    _drag_push(app, scene)
    # While it plays: not yet in the log, and the line over the ring does not tell the result.
    assert scene.mode == "playing"
    assert scene.game_log.entries == [] and scene.game_log.pending is not None
    assert "fell" not in scene.event_label.text and "knocked" not in scene.event_label.text
    assert xinput.pump_until(app.window, lambda: scene.mode == "aim")
    (entry,) = scene.game_log.entries
    assert entry.seat == 0 and entry.text.startswith("Red pushed a medium disc: ")
    assert "pushed a" in entry.text and ("nothing fell" in entry.text or "knocked out" in entry.text)
    assert not re.search(r"\d\.\d|_", entry.text)          # no raw numbers, no keys
    assert entry.text == scene.event_label.text          # now the line over the ring says it


def test_a_click_on_an_entry_opens_that_seats_wrestler_card(app):
    from kabuto_ui.overlay import TextPage

    scene = _game(app)
    _drag_push(app, scene)
    assert xinput.pump_until(app.window, lambda: scene.mode == "aim")
    (row, seat), = scene.log_panel._rows
    xinput.click(app.window, row.cx, row.cy)
    assert xinput.pump_until(app.window, lambda: isinstance(app.window.overlay, TextPage))
    assert app.window.overlay.title == "Red: Mighty Jaw Mike"


@pytest.mark.parametrize("size", [(960, 600), (1920, 1080)])
def test_the_log_fits_in_the_ring_area_beside_the_ring(app, size):
    import math

    scene = _game(app, size)
    box, area = scene.log_panel.rect, scene.ring_area
    assert area.x <= box.x and box.right <= area.right and area.y <= box.y and box.top <= area.top
    # It hides nothing on the ring: its inner corner is off the ring (the ring is round).
    R = scene.session.materials.ring.radius
    cx, cy = scene.ring.transform.to_screen(0.0, 0.0)
    r_px = scene.ring.transform.length(R)
    corner = (box.right, box.top)
    assert math.hypot(corner[0] - cx, corner[1] - cy) > r_px
    assert box.w >= 230 and box.h >= 70             # room for a few lines


def test_the_replay_viewer_logs_each_step_and_steps_it_back(app, tmp_path):
    from kabuto.app.scene.replay_view import ReplayScene
    from tests.app.helpers import settle

    scene = _game(app)
    _drag_push(app, scene)
    settle(app.window, scene)
    scene._save_and_leave()
    (path,) = sorted((tmp_path / "data" / "replays").glob("*.json*"))
    app.window.set_scene(ReplayScene.open(app, path))
    view = app.window.scene
    steps = 0
    while view.model.pos < view.model.steps:
        view.step_forward()
        settle(app.window, view)
        steps += 1
    (entry,) = view.game_log.entries
    assert entry.seat == 0 and entry.text.startswith("Red pushed a medium disc: ")
    view.seek(0)
    assert view.game_log.entries == []


def test_a_click_on_the_title_opens_the_whole_log_and_closes_it(app):
    scene = _game(app, (960, 600))
    for _ in range(4):
        scene.game_log.started("Red pushed a small disc: knocked out a medium disc to Red's inventory")
    scene.game_log.landed()
    scene.rebuild()
    small = scene.log_panel.rect
    assert len(scene.log_panel._rows) < 4                 # the corner shows the newest only
    title = scene.log_panel._title
    xinput.click(app.window, title.cx, title.cy)
    assert xinput.pump_until(app.window, lambda: scene.log_panel.expanded)
    assert scene.log_panel.rect.h > 2 * small.h and len(scene.log_panel._rows) == 4
    assert scene.log_panel.rect.right <= scene.ring_area.right
    xinput.click(app.window, scene.log_panel._title.cx, scene.log_panel._title.cy)
    assert xinput.pump_until(app.window, lambda: not scene.log_panel.expanded)
    assert scene.log_panel.rect == small


@pytest.mark.parametrize("size", [(960, 600), (1920, 1080)])
def test_a_click_on_a_seats_name_beside_the_ring_opens_its_wrestler_card(app, size):
    """Before anyone has pushed (nothing in the log yet), the opponent's card opens from its name."""
    from kabuto_ui.overlay import TextPage

    scene = _game(app, size)
    x, y, w, h = scene.side.layout.seat_name[1]
    xinput.click(app.window, x + 30, y + h / 2)
    assert xinput.pump_until(app.window, lambda: isinstance(app.window.overlay, TextPage))
    assert app.window.overlay.title == "Blue: Goliath Gus"
    assert scene.game_log.entries == [] and scene.pushes == 0      # the click pushed nothing
