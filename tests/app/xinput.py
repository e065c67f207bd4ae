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


def click(win, x: float, y: float) -> None:
    """Move the X pointer to (x, y) (window coords) and click the left button there."""
    wid = str(window_id(win))
    subprocess.run([XDOTOOL, "mousemove", "--window", wid, *map(str, to_x11(win, x, y)), "click", "1"],
                   check=True, timeout=20)


def key(win, name: str) -> None:
    """Press and release a key (an X keysym name: "Escape", "space") in the window."""
    subprocess.run([XDOTOOL, "key", "--window", str(window_id(win)), name], check=True, timeout=20)


def resize(win, width: int, height: int) -> bool:
    """Resize the window through the X server (as a user dragging its corner would), and handle
    events until the window has its new size. False if it never came."""
    subprocess.run([XDOTOOL, "windowsize", "--sync", str(window_id(win)), str(width), str(height)],
                   check=True, timeout=20)
    return pump_until(win, lambda: (win.width, win.height) == (width, height), limit_s=10)


def resize_mapped(win, width: int, height: int) -> None:
    """Map the window, resize it through the X server (failing the test if the size never
    comes), and make its context current for drawing."""
    map_window(win)
    assert resize(win, width, height)
    win.switch_to()


def shown(win) -> tuple[int, bytes]:
    """What the X server shows in the window now (XGetImage): (bytes per row, BGRX bytes, top row
    first). The back buffer (``Window.pixels``) is what was drawn; this is what reached the screen."""
    import ctypes

    class XImage(ctypes.Structure):
        _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                    ("format", ctypes.c_int), ("data", ctypes.POINTER(ctypes.c_ubyte)),
                    ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                    ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                    ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
                    ("bits_per_pixel", ctypes.c_int)]

    x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XGetImage.restype = ctypes.POINTER(XImage)
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                              ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    display = x11.XOpenDisplay(None)
    try:
        img = x11.XGetImage(display, window_id(win), 0, 0, win.width, win.height, 0xFFFFFFFF,
                            2).contents  # 2: ZPixmap
        return img.bytes_per_line, ctypes.string_at(img.data, img.bytes_per_line * win.height)
    finally:
        x11.XCloseDisplay(ctypes.c_void_p(display))


def screen_matches_drawing(win, step: int = 23, tolerance: int = 8) -> float:
    """The share of sample points (every ``step`` pixels) where what the screen shows matches the
    frame the window draws now: 1.0 when the picture reached the screen where it was drawn."""
    w, h, drawn = win.pixels()  # draws a whole frame and shows it
    stride, screen = shown(win)
    same = total = 0
    for y in range(0, h, step):
        for x in range(0, w, step):
            i = ((h - 1 - y) * w + x) * 4  # the back buffer's rows are bottom first
            j = y * stride + x * 4
            total += 1
            same += all(abs(drawn[i + c] - screen[j + 2 - c]) <= tolerance for c in range(3))
    return same / total
