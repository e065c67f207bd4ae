"""Pushes play at a human pace: slow motion by default (no push is over in a blink, none drags on),
Space or a click skips to the end, and the pace is a setting kept between sessions. Real X events
on a real window under Xvfb."""
from __future__ import annotations

import json
import shutil

import pytest

from kabuto.app.settings import PACES, playback_speed
from tests.app.xinput import click, key, pump_until

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")


def _push(app):
    from kabuto.app.aim import Aim
    from kabuto.app.game_config import GameConfig

    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus"), seed=4))
    table = app.window.scene
    table.choice_key = "medium"
    table.aim = Aim(entry_deg=205.0, heading_deg=12.0, speed=0.8)
    assert table.push_now()
    return table


def test_every_push_is_shown_between_the_shortest_and_longest_the_pace_allows():
    for pace, (factor, shortest, longest) in PACES.items():
        for real in (0.05, 0.2, 1.0, 5.0, 30.0):
            shown = real / playback_speed(real, pace)
            assert min(shortest, real * 1e9) - 1e-9 <= shown <= longest + 1e-9
            assert shown == pytest.approx(min(max(real * factor, shortest), longest))


def test_by_default_a_push_plays_in_slow_motion(app):
    table = _push(app)
    real = table.playback.duration
    ticks = 0
    while table.playback is not None:
        app.window.pump(1 / 60)
        ticks += 1
    shown = ticks / 60
    assert shown >= min(max(4 * real, 1.2), 6.0) - 2 / 60  # a 0.2 s push is watched for 1.2 s
    assert shown > real


def test_space_skips_a_push_to_its_end(app):
    from kabuto.app.table_flow import Phase

    table = _push(app)
    app.window.pump(1 / 60)
    assert table.mode is Phase.PLAYING and table.playback is not None
    key(app.window, "space")
    assert pump_until(app.window, lambda: table.mode is not Phase.PLAYING, limit_s=5)
    assert table.pushes == 1


def test_a_click_on_the_ring_skips_a_push_to_its_end(app):
    from kabuto.app.table_flow import Phase

    table = _push(app)
    app.window.pump(1 / 60)
    a = table.ring_area
    click(app.window, a.cx, a.cy)
    assert pump_until(app.window, lambda: table.mode is not Phase.PLAYING, limit_s=5)


def test_the_pace_is_a_setting_in_the_pause_menu_and_is_kept(app, tmp_path):
    win = app.window
    from kabuto.app.game_config import GameConfig

    app.start(app.modes["kabuto"], GameConfig(2, ("human", "human"), ("mike", "gus")))
    key(win, "Escape")
    assert pump_until(win, lambda: win.overlay is not None)
    w = win.overlay.widgets.find("pause:pace")
    assert w.caption.text == "Pushes: slow motion"
    click(win, w.rect.cx, w.rect.cy)
    assert pump_until(win, lambda: win.overlay is not None
                      and win.overlay.widgets.find("pause:pace").caption.text == "Pushes: real time")
    assert win.scene.pace == "normal"
    saved = json.loads((tmp_path / "data" / "settings.json").read_text())
    assert saved["pace"] == "normal"
