"""The card-table tests need an X display for their window tests. When DISPLAY is unset and Xvfb is
installed, start one Xvfb for this test session on a free display number (Xvfb picks it and reports
it through ``-displayfd``, so nothing waits on a timer) and stop it at the end.

This runs when pytest loads this conftest, before the test modules here import pyglet's window
module (which connects to the display on import).
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

_xvfb: subprocess.Popen | None = None
_set_display = False


def _start_xvfb() -> None:
    global _xvfb
    exe = shutil.which("Xvfb")
    if exe is None:
        return
    read_fd, write_fd = os.pipe()
    try:
        proc = subprocess.Popen(
            [exe, "-displayfd", str(write_fd), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    finally:
        os.close(write_fd)
    with os.fdopen(read_fd) as f:
        number = f.readline().strip()  # written once the server is ready; "" if it died
    if not number.isdigit():
        proc.kill()
        proc.wait()
        return
    global _set_display
    _xvfb = proc
    _set_display = True
    os.environ["DISPLAY"] = f":{number}"


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("DISPLAY"):
        _start_xvfb()


def pytest_unconfigure(config: pytest.Config) -> None:
    global _xvfb, _set_display
    if _set_display:
        os.environ.pop("DISPLAY", None)
        _set_display = False
    if _xvfb is not None:
        _xvfb.terminate()
        try:
            _xvfb.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _xvfb.kill()
        _xvfb = None

