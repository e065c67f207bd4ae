"""Ctrl-C (or ``kill``) on ``kabuto balance``: it stops at once, keeps every finished game, leaves no worker
behind, and ``--resume`` then writes exactly the report of an uninterrupted run."""
from __future__ import annotations

import signal

import pytest

from kabuto.cli.balance import main
from tests.interrupt.helpers import Run

ARGS = ["--games", "1", "--wrestlers", "mike,hank,gus", "--sample-games", "1", "--level", "easy",
        "--max-turns", "6", "--seed", "4", "--no-progress", "--no-estimate"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_ctrl_c_keeps_finished_games_and_resume_writes_the_same_report(tmp_path, sig):
    whole = tmp_path / "whole"
    assert main([*ARGS, "--workers", "1", "--out", str(whole), "--games-dir", str(whole / "games")]) == 0
    out = tmp_path / "cut"
    run = Run("balance", *ARGS, "--workers", "2", "--out", str(out), "--games-dir", str(out / "games"))
    run.wait_for_line("finished 1 of")
    run.interrupt(sig)
    rc, err, took = run.wait(timeout=10)
    assert rc == 130 and took < 2.0, (rc, took, err)
    assert "interrupted" in err and "--resume" in err and "Traceback" not in err, err
    assert run.no_leftovers()
    kept = (out / "games" / "games.jsonl").read_text().splitlines()
    assert 1 <= len(kept) < 9
    assert not (out / "balance.json").exists()
    assert main([*ARGS, "--workers", "2", "--out", str(out), "--games-dir", str(out / "games"),
                 "--resume"]) == 0
    assert (out / "balance.json").read_bytes() == (whole / "balance.json").read_bytes()
    assert (out / "balance.md").read_bytes() == (whole / "balance.md").read_bytes()
