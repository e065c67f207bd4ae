"""The physics package loads pymunk only when the world is used."""
from __future__ import annotations

import subprocess
import sys


def test_the_base_layer_and_numeric_helpers_load_without_pymunk():
    """The card table reads its data files with kabuto_base and must not load pymunk."""
    code = ("import sys, kabuto_base.fileio, kabuto_base.numbers, physics.numeric; "
            "print('pymunk' in sys.modules); from physics import World; print('pymunk' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]
