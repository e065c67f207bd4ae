"""Running a kabuto command in a real subprocess, interrupting it with a real SIGINT, and finding
any process it left behind (every process it started carries a marker in its environment)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path


class Run:
    """``kabuto ARGS`` (or ``python SCRIPT ARGS``) in a process of its own."""

    def __init__(self, *args: str, script: Path | None = None):
        self.mark = uuid.uuid4().hex
        env = {**os.environ, "KABUTO_TEST_MARK": self.mark, "PYTHONUNBUFFERED": "1"}
        command = [str(script)] if script else ["-m", "kabuto"]
        self.p = subprocess.Popen([sys.executable, *command, *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env)

    def wait_for_line(self, starts: str, timeout: float = 120) -> str:
        """Block on the command's stdout until a line starting with ``starts`` (bounded: the
        process is killed and the test fails if it never comes)."""
        import threading

        timer = threading.Timer(timeout, self.p.kill)
        timer.start()
        try:
            assert self.p.stdout is not None
            for line in self.p.stdout:
                if line.startswith(starts):
                    return line
        finally:
            timer.cancel()
        raise AssertionError(f"no line starting {starts!r}; stderr: {self.p.stderr.read() if self.p.stderr else ''}")

    def interrupt(self, sig: int = signal.SIGINT) -> None:
        """Ctrl-C (SIGINT), or another signal such as ``kill``'s SIGTERM, to the command alone."""
        self.p.send_signal(sig)

    def wait(self, timeout: float) -> tuple[int, str, float]:
        t0 = time.monotonic()
        try:
            rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            self.kill_leftovers()
            raise AssertionError(f"still running {timeout} s after Ctrl-C") from None
        err = self.p.stderr.read() if self.p.stderr else ""
        return rc, err, time.monotonic() - t0

    def leftovers(self) -> list[int]:
        """Processes still alive that this run started (found by the marker in their environment)."""
        found = []
        needle = f"KABUTO_TEST_MARK={self.mark}".encode()
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                if needle in (d / "environ").read_bytes().split(b"\0"):
                    stat = (d / "stat").read_text()
                    if stat.rsplit(")", 1)[1].split()[0] != "Z":  # a zombie is already dead
                        found.append(int(d.name))
            except OSError:
                continue
        return found

    def no_leftovers(self, within: float = 10.0) -> bool:
        """Whether every process of the run is gone (a worker may take a moment to be reaped by
        the system after its parent exited; waited for up to ``within`` seconds)."""
        deadline = time.monotonic() + within
        while self.leftovers():
            if time.monotonic() > deadline:
                self.kill_leftovers()
                return False
            time.sleep(0.05)
        return True

    def kill_leftovers(self) -> None:
        for pid in self.leftovers():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
