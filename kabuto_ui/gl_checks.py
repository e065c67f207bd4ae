"""OpenGL error checks: on while developing and testing, off in the shipped app.

pyglet asks OpenGL for errors after every call it makes (``glGetError``), unless its option
``debug_gl`` is off. That is worth having in tests (a wrong call fails loudly) but costs a frame
about a twentieth of its work while a push plays (``tools/bench_frames.py``: some 140 calls a
frame). The app's entry points (``kabuto play``, ``python -m cards.table``) call
:func:`release_mode` before pyglet is first imported; ``PYGLET_DEBUG_GL=1`` in the environment
keeps the checks on. Standard library only (no pyglet: it must run before pyglet loads).
"""
from __future__ import annotations

import os
import sys


def release_mode() -> bool:
    """Turn pyglet's OpenGL error checks off, unless the environment says otherwise. True if they
    will be off; False when pyglet was already imported (too late: its option is read on import)
    or ``PYGLET_DEBUG_GL`` asks for them."""
    if "pyglet" in sys.modules:
        return not sys.modules["pyglet"].options["debug_gl"]
    os.environ.setdefault("PYGLET_DEBUG_GL", "0")
    return os.environ["PYGLET_DEBUG_GL"] not in ("true", "TRUE", "True", "1")
