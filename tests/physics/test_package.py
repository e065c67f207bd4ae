"""The physics package loads pymunk only when the world is used."""
from __future__ import annotations

import subprocess
import sys


def test_the_file_reader_and_number_checks_load_without_pymunk():
    """The card table reads its data files with physics.fileio and must not load pymunk."""
    code = ("import sys, physics.fileio, physics.checks, physics.numeric; "
            "print('pymunk' in sys.modules); from physics import World; print('pymunk' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]
