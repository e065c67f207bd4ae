"""The shipped app runs without pyglet's OpenGL error checks (tests keep them): release_mode()
turns them off before pyglet loads, and the environment can keep them on."""
from __future__ import annotations

import os
import subprocess
import sys

CODE = ("from kabuto_ui.gl_checks import release_mode; off = release_mode(); import pyglet; "
        "print(off, pyglet.options['debug_gl'])")


def _run(env_value):
    env = {k: v for k, v in os.environ.items() if k != "PYGLET_DEBUG_GL"}
    if env_value is not None:
        env["PYGLET_DEBUG_GL"] = env_value
    out = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True,
                         timeout=60, check=True)
    return out.stdout.split()


def test_release_mode_turns_the_checks_off_before_pyglet_loads():
    assert _run(None) == ["True", "False"]


def test_the_environment_keeps_the_checks_on():
    assert _run("1") == ["False", "True"]


def test_too_late_once_pyglet_is_loaded_and_it_says_so():
    code = ("import pyglet; from kabuto_ui.gl_checks import release_mode; "
            "print(release_mode(), pyglet.options['debug_gl'])")
    env = {k: v for k, v in os.environ.items() if k != "PYGLET_DEBUG_GL"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60, check=True)
    assert out.stdout.split() == ["False", "True"]
