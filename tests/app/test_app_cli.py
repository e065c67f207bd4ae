"""``kabuto play`` on a machine without a screen, and with bad flags: one clear line, no traceback."""
from __future__ import annotations

import subprocess
import sys


def _run(args, env_extra=None, drop_display=True):
    import os

    env = dict(os.environ)
    if drop_display:
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("PYGLET_HEADLESS", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "kabuto", "play", *args], capture_output=True,
                          text=True, env=env, timeout=60)


def test_without_a_display_it_says_so_and_suggests_xvfb():
    r = _run(["--players", "2"])
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    assert "no display" in lines[0] and "xvfb-run -a kabuto play --players 2" in lines[0]


def test_a_bad_flag_is_one_line_and_exit_2():
    r = _run(["--seats", "human,robot"], {"PYGLET_HEADLESS": "1"})
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "robot" in r.stderr and "Traceback" not in r.stderr


def test_the_rules_and_the_apps_logic_load_without_pyglet():
    code = ("import sys, kabuto.rules.game, kabuto.app.game_session, kabuto.app.aim, kabuto.app.animation, "
            "kabuto.app.tuning, kabuto.app.replay_model, kabuto.app.game_config, kabuto.cli.play, "
            "kabuto_ui.theme, kabuto_ui.geometry, kabuto_ui.modes, kabuto_ui.worker, kabuto_ui.virtual_display; "
            "print('pyglet' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
