"""Atomic writes leave no litter: temporary files left by a process killed mid-write are removed
by the next write to the folder - only our own ``.<name>.<random>.tmp`` files, and only once they
are a minute old (a younger one may be another process's write in progress)."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from kabuto_base.fileio import STALE_TEMP_SECONDS, write_atomic

KILLED_MID_WRITE = """
import os, sys
from kabuto_base import fileio
def write(tmp):
    open(tmp, "w").write("half")
    os.kill(os.getpid(), 9)          # killed between writing and renaming
fileio.write_atomic_with(sys.argv[1], write)
"""


def test_a_write_removes_stale_leftovers_and_nothing_else(tmp_path):
    target = tmp_path / "game.replay.json"
    p = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(target)], timeout=60,
                       env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert p.returncode == -9
    (left,) = [f for f in tmp_path.iterdir()]
    assert left.name.startswith(".game.replay.json.") and left.name.endswith(".tmp")
    assert not target.exists()
    young = tmp_path / ".other.replay.json.abcd1234.tmp"         # another write in progress
    young.write_text("in progress")
    theirs = [tmp_path / ".notes.tmp", tmp_path / "data.abcd1234.tmp", tmp_path / ".x.abc.tmp"]
    for f in theirs:                                             # not our pattern
        f.write_text("keep")
    old = time.time() - 2 * STALE_TEMP_SECONDS
    for f in (left, *theirs):
        os.utime(f, (old, old))
    write_atomic(tmp_path / "another.json", "{}")                # any write to the folder
    assert not left.exists()
    assert young.exists() and all(f.exists() for f in theirs)
    assert (tmp_path / "another.json").read_text() == "{}"


@pytest.mark.parametrize("step", ["close", "chmod", "fsync", "replace"])
def test_a_ctrl_c_at_any_step_of_a_write_leaves_the_old_file_and_no_litter(tmp_path, monkeypatch, step):
    """An interrupt between creating the temporary file and renaming it (a Ctrl-C while a
    tournament saves a game) leaves the folder exactly as it was."""
    target = tmp_path / "game.replay.json"
    target.write_text("old")
    real = getattr(os, step)
    seen = []

    def interrupted(*args, **kwargs):
        real(*args, **kwargs)       # the step itself happens, then the Ctrl-C lands
        seen.append(step)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, step, interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new")
    monkeypatch.undo()
    assert seen == [step]
    if step == "replace":           # the rename happened: the new file, whole
        assert target.read_text() == "new"
    else:
        assert target.read_text() == "old"
    assert [f.name for f in tmp_path.iterdir()] == ["game.replay.json"]
