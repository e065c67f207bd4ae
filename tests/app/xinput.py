"""Real input for app tests: xdotool moves the X pointer and presses buttons on the Xvfb display,
and the window reads the events from the X server like any user's."""
from __future__ import annotations

import shutil
import subprocess
import time

XDOTOOL = shutil.which("xdotool")


def window_id(win) -> int:
    """The X window id of a pyglet window (the xlib backend keeps it in ``_window``)."""
    return int(win._window)


def to_x11(win, x: float, y: float) -> tuple[int, int]:
    """pyglet window coordinates (origin bottom-left) -> X11 window coordinates (top-left)."""
    return int(round(x)), int(round(win.height - y))


def drag(win, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
    """Press the left button at ``start``, move in ``steps`` to ``end``, release (window coords)."""
    wid = str(window_id(win))
    args = [XDOTOOL, "mousemove", "--window", wid, *map(str, to_x11(win, *start)), "mousedown", "1"]
    for i in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * i / steps
        y = start[1] + (end[1] - start[1]) * i / steps
        args += ["mousemove", "--window", wid, *map(str, to_x11(win, x, y))]
    args += ["mouseup", "1"]
    subprocess.run(args, check=True, timeout=20)


def pump_until(win, done, limit_s: float = 20.0) -> bool:
    """Handle window events until ``done()`` is true (events from the X server arrive when they
    arrive; this waits for them, it does not time anything). False if they never came."""
    deadline = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > deadline:
            return False
        win.pump()
        time.sleep(0.002)
    return True


def map_window(win) -> None:
    """Wait until the window is mapped and drawn (no window manager under Xvfb)."""
    subprocess.run([XDOTOOL, "windowmap", "--sync", str(window_id(win))], check=True, timeout=20)
    for _ in range(3):
        win.pump()
