"""The one way the project starts worker processes: every pool (the AI's previews, tournaments and
the balance report, tuning sweeps, card-bot matches) takes its context from :func:`context`.

Workers are started by a *fork server* where the platform has one, else spawned - never forked from
the calling process itself. A fork copies whatever the caller holds at that moment: a lock held by
another thread (tqdm's monitor, the app's worker, asyncio's executor) stays locked forever in the
child. A fork server is a clean process started once, which has imported the modules named in
``preload``; each worker is forked from it, so start-up stays cheap without that risk.

    >>> context().get_start_method() in ("forkserver", "spawn")
    True
"""
from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from multiprocessing.context import BaseContext


def start_method() -> str:
    """``"forkserver"`` where the platform has it (Linux, macOS), else ``"spawn"`` (Windows)."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def context(preload: Sequence[str] = ()) -> BaseContext:
    """The multiprocessing context every pool uses. ``preload``: modules the fork server imports
    before it forks the first worker (the first pool to start the server decides; later ones only
    pay an import in each worker for what it did not preload)."""
    method = start_method()
    ctx = multiprocessing.get_context(method)
    if method == "forkserver" and preload:
        ctx.set_forkserver_preload(list(preload))
    return ctx
