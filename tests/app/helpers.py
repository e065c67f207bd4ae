"""Helpers for the app tests (not fixtures)."""
from __future__ import annotations


def settle(win, scene, limit: int = 5000, dt: float = 0.1) -> None:
    """Run the table's ticks until nothing plays: pushes animate, AI seats think (in a thread) and
    push. Ticks of ``dt`` seconds of animation each, not waiting for the wall clock (big ticks
    draw fewer frames: the playback jumps ahead, it never re-simulates). Bounded by ``limit``."""
    import time

    for _ in range(limit):
        if scene.mode in ("aim", "over") and not scene.flights:
            return
        win.pump(dt)
        if scene.mode == "ai-thinking":
            time.sleep(0.002)  # let the AI's thread run; this waits, it times nothing
    raise AssertionError(f"the table did not settle (mode {scene.mode})")
