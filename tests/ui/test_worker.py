"""The worker thread scenes use for slow jobs (a search bot thinking): the window's thread never
waits, a result arrives once with the token it was asked under, a job's error surfaces on the
window's thread, and a forgotten job's answer never arrives. Events, not sleeps, order the threads."""
from __future__ import annotations

import threading

import pytest

from kabuto_ui.worker import Worker


@pytest.fixture
def worker():
    w = Worker("test-worker")
    yield w
    w.close()


def test_the_result_arrives_once_with_its_token_and_polling_never_blocks(worker):
    go = threading.Event()
    worker.submit(lambda: go.wait(10) and "played 3H", token=("match", 7))
    assert worker.busy and worker.poll() is None  # still thinking: poll returns at once
    go.set()
    worker.wait(timeout=10)
    done = worker.poll()
    assert done is not None and (done.token, done.value) == (("match", 7), "played 3H")
    assert not worker.busy and worker.poll() is None


def test_an_error_in_the_job_is_raised_on_the_polling_thread(worker):
    def broken():
        raise RuntimeError("the bot crashed")

    worker.submit(broken, token=1)
    worker.wait(timeout=10)
    with pytest.raises(RuntimeError, match="the bot crashed"):
        worker.poll()
    assert not worker.busy


def test_a_cancelled_or_replaced_job_never_answers(worker):
    go = threading.Event()
    worker.submit(lambda: go.wait(10) and "stale", token="old")
    worker.submit(lambda: "fresh", token="new")  # the table moved on: ask again
    go.set()
    worker.wait(timeout=10)
    done = worker.poll()
    assert done is not None and (done.token, done.value) == ("new", "fresh")
    worker.submit(lambda: "never seen", token="gone")
    worker.cancel()
    assert not worker.busy and worker.poll() is None


def test_a_closed_worker_starts_again_on_the_next_job(worker):
    worker.close()
    worker.submit(lambda: 42, token=None)
    worker.wait(timeout=10)
    done = worker.poll()
    assert done is not None and done.value == 42
