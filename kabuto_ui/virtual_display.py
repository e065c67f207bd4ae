"""Whether a window can open here (:func:`display_problem`), and a private virtual X display
(Xvfb) for tests and tools that open real windows with no screen.

    with virtual_display() as name:   # ":N", and DISPLAY is set to it inside the block
        ...

Xvfb's ``-displayfd`` option makes it choose a free display number itself and write it once it
accepts connections, so nothing guesses numbers or waits on timers. If ``DISPLAY`` is already set,
nothing is started. Importing this module does not import pyglet (pyglet must be imported
only after DISPLAY is set).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator


def display_problem() -> str | None:
    """Why no window can open here, or None. Call it before pyglet is imported elsewhere: pyglet
    opens the display as soon as its GL layer is imported, and without one that is a traceback."""
    if os.environ.get("PYGLET_HEADLESS"):
        return None
    if not os.environ.get("DISPLAY"):
        return "no display available (DISPLAY is not set)"
    try:
        import pyglet.gl  # noqa: F401  (opens the display and a GL context)
    except Exception as exc:  # NoSuchDisplayException, or no usable OpenGL
        return f"cannot open the display {os.environ.get('DISPLAY')!r} ({exc})"
    return None


class NoDisplay(RuntimeError):
    """Neither a DISPLAY nor Xvfb to make one."""


@contextlib.contextmanager
def virtual_display(size: str = "1600x900x24") -> Iterator[str]:
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise NoDisplay("no DISPLAY and no Xvfb (install the xvfb package; tools/setup.sh does)")
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(write_fd), "-screen", "0", size, "-nolisten",
                             "tcp", "-noreset"], pass_fds=(write_fd,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(write_fd)
    with os.fdopen(read_fd) as fh:
        number = fh.readline().strip()
    if not number:
        proc.kill()
        proc.wait()
        raise NoDisplay("Xvfb did not start")
    os.environ["DISPLAY"] = f":{number}"
    try:
        yield os.environ["DISPLAY"]
    finally:
        os.environ.pop("DISPLAY", None)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
