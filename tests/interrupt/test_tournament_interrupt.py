"""Ctrl-C on ``kabuto tournament``: it stops within 2 s, keeps every finished game on disk, leaves
no worker behind, never hangs on a second Ctrl-C, and ``--resume`` then gives exactly the files
of an uninterrupted run (issue 17, point 4)."""
from __future__ import annotations

import json

import pytest

from kabuto.cli.tournament import main
from tests.interrupt.helpers import Run

ARGS = ["--games", "2", "--wrestlers", "mike,hank,gus", "--level", "easy", "--max-turns", "6",
        "--seed", "5", "--no-progress"]


def _files(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != "summary.json"}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "out"
    assert main([*ARGS, "--workers", "1", "--out", str(out)]) == 0
    return out


def test_ctrl_c_keeps_finished_games_and_resume_completes_them(uninterrupted, tmp_path):
    out = tmp_path / "out"
    run = Run("tournament", *ARGS, "--workers", "2", "--out", str(out))
    run.wait_for_line("finished 1 of")
    run.interrupt()
    rc, err, took = run.wait(timeout=10)
    assert rc == 130 and took < 2.0, (rc, took, err)
    assert "interrupted" in err and "--resume" in err and "Traceback" not in err, err
    assert run.no_leftovers()
    kept = [json.loads(row)["spec"]["index"] for row in (out / "replays" / "games.jsonl").read_text().splitlines()]
    assert 1 <= len(kept) < 6
    for index in kept:   # every kept game is whole: its replay and AI plans are there too
        stem = f"game-{index:04d}"
        assert (out / "replays" / f"{stem}.replay.json").is_file()
        assert (out / "replays" / f"{stem}.ai.json").is_file()
    assert main([*ARGS, "--workers", "2", "--out", str(out), "--resume"]) == 0
    assert _files(out) == _files(uninterrupted)


def test_a_second_ctrl_c_never_hangs(tmp_path):
    run = Run("tournament", *ARGS, "--workers", "2", "--out", str(tmp_path / "out"))
    run.wait_for_line("finished 1 of")
    run.interrupt()
    run.interrupt()
    rc, err, took = run.wait(timeout=10)
    assert rc == 130 and took < 2.0, (rc, took, err)
    assert run.no_leftovers()


def test_resume_refuses_a_folder_of_another_tournament(uninterrupted, tmp_path, capsys):
    import shutil

    out = tmp_path / "out"
    shutil.copytree(uninterrupted, out)
    assert main([*ARGS[:-3], "--seed", "6", "--no-progress", "--out", str(out), "--resume"]) == 2
    assert "another tournament" in capsys.readouterr().err
