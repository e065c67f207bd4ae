"""Ctrl-C on ``kabuto tune sweep``: every finished run is kept in the sweep's journal as it
finishes, it stops within 2 s leaving no worker behind, a second Ctrl-C never hangs, and
``--resume`` runs only the rest, giving the very CSV an uninterrupted sweep writes."""
from __future__ import annotations

import time

from kabuto.cli.tune import main
from tests.interrupt.helpers import Run

GRID = ["--scenario", "free-slide", "--param", "table_friction=0.2:0.5:40", "--param",
        "push.speed=0.2,0.3", "--no-plots", "--quiet"]


def _wait_for_runs(journal, n: int, run: Run, timeout: float = 120) -> None:
    """Block until the journal holds ``n`` finished runs (bounded; fails if the sweep ends)."""
    deadline = time.monotonic() + timeout
    while not (journal.exists() and len(journal.read_text().splitlines()) >= n):
        assert run.p.poll() is None, "the sweep ended before it was interrupted"
        assert time.monotonic() < deadline, "no finished run"
        time.sleep(0.02)


def test_ctrl_c_keeps_finished_runs_and_resume_runs_the_rest(tmp_path):
    whole = tmp_path / "whole"
    assert main(["sweep", *GRID, "--out", str(whole), "--workers", "1"]) == 0
    out = tmp_path / "cut"
    journal = out / "free-slide.runs.jsonl"
    run = Run("tune", "sweep", *GRID, "--out", str(out), "--workers", "2")
    _wait_for_runs(journal, 2, run)
    run.interrupt()
    rc, err, took = run.wait(timeout=10)
    assert rc == 130 and took < 2.0, (rc, took, err)
    assert "interrupted" in err and "--resume" in err and "Traceback" not in err, err
    assert run.no_leftovers()
    kept = len(journal.read_text().splitlines())
    assert 2 <= kept < 80
    assert not (out / "free-slide.csv").exists()
    assert main(["sweep", *GRID, "--out", str(out), "--workers", "2", "--resume"]) == 0
    assert (out / "free-slide.csv").read_bytes() == (whole / "free-slide.csv").read_bytes()
    # resumed, not redone: the journal gained exactly the missing runs
    assert len(journal.read_text().splitlines()) == 80


def test_a_second_ctrl_c_never_hangs(tmp_path):
    out = tmp_path / "cut"
    run = Run("tune", "sweep", *GRID, "--out", str(out), "--workers", "2")
    _wait_for_runs(out / "free-slide.runs.jsonl", 1, run)
    run.interrupt()
    run.interrupt()
    rc, err, took = run.wait(timeout=10)
    assert rc == 130 and took < 2.0, (rc, took, err)
    assert run.no_leftovers()
