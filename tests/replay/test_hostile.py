"""The corpus of hostile files (tests/replay/hostile.py): each is refused with exit status 2 and
one line naming the field, never an abort or a traceback, and costs less than verifying the normal
file it was made from (so a bad file is always cheap, however it was built)."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from kabuto.cli import replay as replay_cli
from kabuto.lab import parse_inputs
from kabuto.replay import format as rp
from tests.replay import hostile


def _verify(capsys, path: Path) -> tuple[int, str, str, float]:
    t0 = time.perf_counter()
    rc = replay_cli.main([str(path), "--verify"])
    dt = time.perf_counter() - t0
    out, err = capsys.readouterr()
    return rc, out, err, dt


@pytest.fixture(scope="module")
def normal_cost(rich) -> float:
    """Seconds to verify the normal file (best of three: the first run warms the caches)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        rp.verify(rp.load(rich.path))
        best = min(best, time.perf_counter() - t0)
    return best


def test_every_hostile_file_gets_exit_2_and_one_line_cheaply(capsys, rich, tmp_path, normal_cost):
    """The time bound: refusing a hostile file costs at most three times what verifying the normal game
    plus parsing a well-formed file of the hostile one's size costs."""
    normal = rich.path.read_bytes()
    files = hostile.corpus(normal)
    assert len(files) >= 25
    worst = 0.0
    for name, raw, words in files:
        path = tmp_path / "hostile.replay.json"
        path.write_bytes(raw)
        rc, out, err, dt = _verify(capsys, path)
        for _ in range(2):  # the best of three: the machine is shared, and the bound is relative
            dt = min(dt, _verify(capsys, path)[3])
        assert rc == 2, (name, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in err, (name, err)
        assert all(c.isprintable() for c in lines[0]), (name, lines[0])
        for w in words:
            assert w in lines[0], (name, w, lines[0])
        reference = normal_cost + parse_inputs.parse_cost(parse_inputs.normal_of_size(normal, len(raw)))
        worst = max(worst, dt / reference)
    # A hang or a quadratic path costs orders of magnitude more; 3x leaves room for a shared machine.
    assert worst < 3.0, worst


@pytest.mark.parametrize("name", ["vertices at 1e300", "circle of radius 1e-300"])
def test_what_used_to_abort_or_trace_is_one_line_in_a_real_process(rich, tmp_path, name):
    """Chipmunk aborted the process (exit 134) on vertices at 1e300; a radius of 1e-300 gave an
    AssertionError traceback. A separate process shows the exit status a user sees."""
    raw = next(r for n, r, _ in hostile.corpus(rich.path.read_bytes()) if n == name)
    path = tmp_path / "bad.replay.json"
    path.write_bytes(raw)
    pushes = tmp_path / "pushes.json"
    pushes.write_text("[]")
    for args in (["replay", str(path), "--verify"], ["sim", "--resume", str(path), "--pushes", str(pushes)]):
        p = subprocess.run([sys.executable, "-m", "kabuto", *args], capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr, p.stderr
        assert "between" in p.stderr or "no area" in p.stderr, p.stderr


def test_the_list_shows_text_from_files_escaped(rich, tmp_path):
    """A lone surrogate in meta.result crashed 'kabuto replay --list' (UnicodeEncodeError); escape
    sequences and newlines in it reached the terminal raw. Now each is shown escaped, one line."""
    import json

    data = json.loads(rich.path.read_text())
    data["meta"]["result"] = "Mike wins \ud800 \x1b[2J\x1b]0;owned\x07\nforged line \u202e"
    folder = tmp_path / "data" / "replays"
    folder.mkdir(parents=True)
    (folder / "evil.replay.json").write_text(json.dumps(data))   # json escapes the surrogate
    (folder / "evil\x1b[31m.replay.json").write_text("{")       # a hostile name, unusable
    p = subprocess.run([sys.executable, "-m", "kabuto", "replay", "--list", "--data-dir",
                        str(tmp_path / "data")], capture_output=True, timeout=60,
                       env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode("utf-8")
    assert "\x1b" not in out and "\ud800" not in out and "\u202e" not in out
    assert "Mike wins \\ud800 \\x1b[2J\\x1b]0;owned\\x07\\nforged line \\u202e" in out
    assert "evil\\x1b[31m.replay.json" in out and "unusable" in out
    assert not any(line.startswith("forged") for line in out.splitlines())
