"""Stopping a process pool at once on Ctrl-C, without orphans and without hanging.

Ctrl-C reaches every process of the terminal's process group, workers included. A worker that
raised KeyboardInterrupt mid-run would print a traceback of its own and leave the pool broken, so
workers ignore SIGINT (:func:`ignore_sigint`, as their initializer) and the parent alone decides:
:func:`terminate_now` sends SIGTERM to every worker (runs in flight are dropped, never awaited) and
reaps them. A second Ctrl-C meanwhile kills whatever is left and exits with status 130 at once.

``kill`` (SIGTERM) stops a run as Ctrl-C does once :func:`sigterm_as_ctrl_c` is installed: a run
left in the background (``nohup``, ``setsid``) ignores SIGINT, and SIGTERM is how it is stopped.

Used by ``kabuto tune sweep`` / ``calibrate`` (:mod:`kabuto.tuning.sweep`) and ``kabuto
tournament``.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import signal
import threading
from typing import Any


def ignore_sigint() -> None:
    """A pool worker's initializer: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _kill_children_and_exit(_signum: int, _frame: Any) -> None:
    for child in multiprocessing.active_children():
        child.kill()
    os._exit(130)


def terminate_now(pool: multiprocessing.pool.Pool) -> None:
    """Terminate ``pool``'s workers and reap them; a second Ctrl-C meanwhile kills and exits."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, _kill_children_and_exit) if main_thread else None
    try:
        pool.terminate()
        pool.join()
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def sigterm_as_ctrl_c() -> None:
    """From now on SIGTERM to this process raises KeyboardInterrupt, as Ctrl-C does, so a long run
    stopped by ``kill`` keeps what it finished and says how to resume.

    A worker forked from this process inherits the handler; there SIGTERM keeps its usual meaning
    (the worker dies at once), since :func:`terminate_now` stops workers that way. Does nothing
    outside the main thread, where Python cannot install signal handlers."""
    if threading.current_thread() is not threading.main_thread():
        return
    owner = os.getpid()

    def on_sigterm(_signum: int, _frame: Any) -> None:
        if os.getpid() != owner:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)
