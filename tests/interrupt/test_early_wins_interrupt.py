"""``kill`` (or Ctrl-C) on the early-wins search (tools/early_wins.py): it stops within seconds,
leaves no worker behind, and its resume file holds only whole units, each once, so the next
run goes on where this one stopped."""
from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from tests.interrupt.helpers import Run

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "early_wins.py"
ARGS = ["--pairs", "mike:hank,hank:mike", "--pushes", "12", "--chunk", "1", "--workers", "2",
        "--edge-share", "0", "--no-progress"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_a_stopped_search_keeps_whole_units_and_says_how_to_go_on(tmp_path, sig):
    log = tmp_path / "early.jsonl"
    run = Run(*ARGS, "--resume", str(log), script=SCRIPT)
    deadline = time.monotonic() + 120
    while not (log.exists() and log.read_text().count("\n") >= 1):
        assert run.p.poll() is None, "the search ended before it was stopped"
        assert time.monotonic() < deadline, "no unit finished"
        time.sleep(0.02)
    run.interrupt(sig)
    rc, err, took = run.wait(timeout=10)
    assert rc == 130 and took < 3.0, (rc, took, err)
    assert "interrupted" in err and str(log) in err and "Traceback" not in err, err
    assert run.no_leftovers()
    text = log.read_text()
    assert text.endswith("\n")
    tasks = [tuple(json.loads(line)["task"]) for line in text.splitlines()]
    assert 1 <= len(tasks) < 24 and len(set(tasks)) == len(tasks)
