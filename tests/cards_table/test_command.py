"""``python -m cards.table`` on a machine without a screen: --help works, a bad flag is one clear
line (exit 2) found before any window is opened, and the missing display is one line too (exit 3)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYGLET_HEADLESS")}
    return subprocess.run([sys.executable, "-m", "cards.table", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=60)


def test_help_lists_the_games_and_needs_no_display():
    r = _run("--help")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "--size" in r.stdout and "modes: sumo-card-game" in r.stdout


@pytest.mark.parametrize("args, word", [
    (("--size", "10x10"), "--size"),
    (("--size", "wide"), "--size"),
    (("--mode", "poker"), "poker"),
    (("--mode", "sumo", "--seats", "human,robot"), "robot"),
    (("--seats", "human,bot"), "--mode"),
])
def test_a_bad_flag_is_one_line_before_any_window(args, word):
    r = _run(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and word in lines[0]


def test_without_a_display_it_says_so_and_suggests_xvfb():
    r = _run("--mode", "sumo")
    assert r.returncode == 3 and "Traceback" not in r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert "no display" in line and "xvfb-run -a python -m cards.table --mode sumo" in line
