"""Sound: the app's own synthesised sounds, played at a push, a knock, a fall, a win and a card;
volume and mute are settings; and it is silent and safe where there is no sound (tests, Xvfb)."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import wave
from pathlib import Path

import pytest

import kabuto_assets
from kabuto_ui.sound import NAMES, Sounds

ROOT = Path(__file__).resolve().parents[2]


def test_every_sound_is_shipped_short_and_remade_the_same_by_the_tool(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "make_sounds.py"), str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    for name in NAMES:
        shipped = kabuto_assets.path("sounds", f"{name}.wav")
        with wave.open(str(shipped)) as w:
            assert w.getnchannels() == 1 and 0.05 < w.getnframes() / w.getframerate() < 1.0
        made = (tmp_path / f"{name}.wav").read_bytes()
        assert hashlib.sha256(made).digest() == hashlib.sha256(shipped.read_bytes()).digest()


def test_sounds_stay_silent_and_safe_with_no_device_or_file(display, tmp_path):
    s = Sounds(tmp_path, enabled=True)  # a folder with no sounds in it
    for name in (*NAMES, "no-such-sound"):
        s.play(name)
    assert s.played == [*NAMES, "no-such-sound"]
    quiet = Sounds(kabuto_assets.path("sounds"))  # the tests set KABUTO_SOUND=0: never plays
    assert not quiet.enabled
    quiet.play("push")


def test_the_levels_step_down_to_off_and_round_again():
    told = []
    s = Sounds(None, volume=1.0, on_change=lambda v, m: told.append((v, m)), enabled=False)
    seen = [s.describe()]
    for _ in range(4):
        s.next_level()
        seen.append(s.describe())
    assert seen == ["Sound: 100%", "Sound: 70%", "Sound: 40%", "Sound: off", "Sound: 100%"]
    assert told[2] == (0.4, True)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_a_push_that_knocks_out_plays_push_clack_fall_and_win_and_the_level_is_kept(display, tmp_path):
    from kabuto.app.aim import Aim
    from kabuto.app.game_session import GameSession
    from kabuto.app.main import App, Options
    from kabuto.rules.game import Game
    from tests.app.helpers import settle, wrestler_on_the_edge
    from tests.app.xinput import click, key, map_window, pump_until

    app = App(Options(size=(1280, 720), ai_delay=0.0, data_dir=tmp_path / "data", record=False))
    win = app.window
    try:
        map_window(win)
        game = Game.new(players=2, wrestlers=["mike", "hank"], seed=5, first_player=0)
        wrestler_on_the_edge(game)
        table = win.set_scene(app.table(GameSession(game, ("human", "human"), record=False)))
        table.choice_key = "medium"
        table.aim = Aim(90.0, -game.materials.sim.heading_limit_deg, game.materials.sim.max_speed)
        assert table.push_now()
        settle(win, table)
        heard = win.sounds.played
        assert heard[0] == "push" and "fall" in heard
        if table.mode == "over":
            assert heard[-1] == "win"
        # The level is a setting of the pause menu, kept in settings.json.
        key(win, "Escape")
        assert pump_until(win, lambda: win.overlay is not None)
        b = win.overlay.widgets.find("pause:sound")
        click(win, b.rect.cx, b.rect.cy)
        assert pump_until(win, lambda: win.overlay is not None
                          and win.overlay.widgets.find("pause:sound").caption.text == "Sound: 40%")
        saved = json.loads((tmp_path / "data" / "settings.json").read_text())
        assert saved["volume"] == 0.4 and saved["mute"] is False
    finally:
        win.close()
