"""One job at a time off the window's thread, for work too slow for a frame (a bot thinking).

The window's thread must never wait: a scene submits the job, goes on drawing, and polls the
worker from ``update()``. Each job carries a *token* saying what it was for (say, the game and the
move number it was asked about); when the result arrives the scene compares it with where the
table is now and drops a stale answer (the player left, or a rematch started)::

    worker = Worker("card-bot")
    worker.submit(bot.act, game.clone(), token=(id(match), match.moves))
    ...
    done = worker.poll()          # in update(): None while the job runs
    if done is not None and done.token == (id(match), match.moves):
        match.apply(done.value)

The job gets copies, never the live game: nothing is shared between the threads but the result.
An exception in the job is raised again by :meth:`poll`, on the window's thread. Standard library only.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Done:
    """A finished job: the token it was submitted with and what it returned."""

    token: Hashable
    value: Any


class Worker:
    """A single background thread (started on the first job) running one job at a time.

    >>> w = Worker("doctest")
    >>> w.submit(sum, [1, 2, 3], token="sum")
    >>> w.wait(); done = w.poll()
    >>> (done.token, done.value, w.busy)
    ('sum', 6, False)
    >>> w.close()
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._executor: ThreadPoolExecutor | None = None
        self._future: Future[Any] | None = None
        self._token: Hashable = None

    @property
    def busy(self) -> bool:
        """True from :meth:`submit` until :meth:`poll` hands the result over (or :meth:`cancel`)."""
        return self._future is not None

    @property
    def token(self) -> Hashable:
        """The token of the job submitted last (what a failed job was for, when :meth:`poll`
        raises its exception)."""
        return self._token

    def submit(self, fn: Callable[..., Any], *args: Any, token: Hashable = None) -> None:
        """Run ``fn(*args)`` in the background. Any job not yet collected is forgotten first."""
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
        self.cancel()
        self._future = self._executor.submit(fn, *args)
        self._token = token

    def poll(self) -> Done | None:
        """The finished job (once), or None while it runs or when there is none."""
        future = self._future
        if future is None or not future.done():
            return None
        self._future = None
        return Done(self._token, future.result())

    def wait(self, timeout: float | None = None) -> None:
        """Block until the current job has finished (tests and tools that must not race);
        TimeoutError after ``timeout`` seconds. The job's own exception is raised by :meth:`poll`."""
        if self._future is not None:
            self._future.exception(timeout)

    def cancel(self) -> None:
        """Forget the current job: a running one finishes in the background, its result dropped."""
        if self._future is not None:
            self._future.cancel()
            self._future = None

    def close(self) -> None:
        """Stop the thread once the running job (if any) ends; queued jobs never start."""
        self.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
