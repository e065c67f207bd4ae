"""A replay recorded where pushes end a rounding error away (another CPython, processor or build).

The recording game's physics is nudged as another platform's would be: every at-rest state a push
or move leaves is moved by a few units in the last place (or, for the "diverged" case, by a few
micrometres) before the game records it. Re-simulated here, each push lands where this platform
puts it, a rounding error from the file, so ``--verify`` must say "identical within rounding"
(exit 0, one line), resume and the viewer must go on from the recorded states and say so, and a
real drift must still be a divergence (exit 1).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from kabuto.app.replay_model import open_recording
from kabuto.cli import replay as replay_cli
from kabuto.replay import drift
from kabuto.replay import format as rp
from kabuto.replay.recorder import record
from physics import state_hash
from tests.kabuto.scenarios import free_entry
from tests.replay.games import ELSEWHERE_PUSHES, long_game, new_game, record_elsewhere


@pytest.fixture
def here(tmp_path) -> Path:
    game = new_game(7)
    rec = record(game, tmp_path / "here")
    long_game(ELSEWHERE_PUSHES, 7, rec, move_every=2, game=game)
    path = rec.close(game)
    assert path is not None
    return path


@pytest.fixture
def rounded(monkeypatch, tmp_path) -> Path:
    return record_elsewhere(monkeypatch, tmp_path / "rounded", None)


def verify_cli(capsys, path: Path) -> tuple[int, list[str], str]:
    rc = replay_cli.main([str(path), "--verify", "--quiet"])
    out, err = capsys.readouterr()
    return rc, out.splitlines(), err


def test_the_three_verdicts(capsys, monkeypatch, tmp_path, here, rounded):
    rc, out, err = verify_cli(capsys, here)
    assert rc == 0 and len(out) == 1 and out[0].startswith("bit-identical: "), (out, err)

    rc, out, err = verify_cli(capsys, rounded)
    assert rc == 0, err
    assert len(out) == 1 and out[0].startswith("identical within rounding: "), out
    assert "mm" in out[0] and "degrees" in out[0]
    result = rp.verify(rp.load(rounded))
    assert result.ok and not result.bit_identical
    pushes = sum(1 for s in result.steps if s.action["type"] == "push")
    assert len(result.rounded) >= pushes  # every push landed a rounding error away
    mm, deg = result.drift
    assert 0 < mm <= drift.ROUNDING_MM and deg <= drift.ROUNDING_DEG

    # 2 micrometres and 2 microradians: no rounding error, a divergence at the first push.
    far = record_elsewhere(monkeypatch, tmp_path / "far", 2e-6)
    rc, out, err = verify_cli(capsys, far)
    assert rc == 1
    assert "first divergence at push 1" in err and "mm off" in err


def test_resume_goes_on_from_the_recorded_state_and_says_so(rounded, tmp_path):
    game = rp.load_for_resume(rounded)
    replay = rp.load(rounded)
    last = [a for a in replay.timeline if "hash" in a][-1]
    assert state_hash(game.world.snapshot()) == last["hash"]  # exactly where the file says
    notice = rp.resume_notice(game)
    assert notice is not None and "\n" not in notice
    assert notice.startswith("going on from the recorded positions") and "within rounding" in notice

    # The resumed game goes on, is recorded, and its file verifies here.
    rec = record(game, tmp_path / "resumed")
    long_game(2, 8, rec, move_every=0, game=game)
    path = rec.close(game)
    assert path is not None
    result = rp.verify(rp.load(path))
    assert result.ok and result.rounded and result.steps[-1].ok


def test_a_replay_from_here_resumes_without_a_notice(here):
    assert rp.resume_notice(rp.load_for_resume(here)) is None


def test_the_viewer_shows_the_recorded_states_and_says_so(rounded):
    model = open_recording(rounded)
    assert model.notice is None
    model.seek(model.steps)  # every step, none refused
    assert model.notice is not None and "recorded positions" in model.notice
    data = json.loads(rounded.read_text())
    last = [a for a in data["actions"] if "hash" in a][-1]
    assert state_hash(model.game.world.snapshot()) == last["hash"]
    model.seek(0)
    model.seek(model.steps)
    assert state_hash(model.game.world.snapshot()) == last["hash"]


def test_within_rounding_needs_the_same_pieces_kinds_and_stacks(here):
    pieces = {p.id: p for p in rp.load_for_resume(here).world.pieces}
    pid = sorted(pieces)[0]
    p = pieces[pid]
    from dataclasses import replace

    assert drift.within_rounding(pieces, dict(pieces))
    assert not drift.within_rounding(pieces, {k: v for k, v in pieces.items() if k != pid})
    assert not drift.within_rounding(pieces, {**pieces, pid: replace(p, base="elsewhere")})
    turned = {**pieces, pid: replace(p, angle=p.angle + math.radians(2e-6))}
    assert not drift.within_rounding(pieces, turned)
    moved = {**pieces, pid: replace(p, x=p.x + 0.5e-9)}  # half a micrometre in mm: 5e-7 mm
    assert drift.within_rounding(pieces, moved)


def test_kabuto_sim_resume_says_it_goes_on_from_the_recorded_state(capsys, rounded, tmp_path):
    from kabuto.cli import sim as sim_cli

    pushes = tmp_path / "pushes.json"
    game = rp.load_for_resume(rounded)
    kind = game.legal_kinds()[0]
    entry = free_entry(game, kind, 30.0)
    pushes.write_text(json.dumps([{"piece": kind, "entry_deg": float(entry), "speed": 0.3}]))
    rc = sim_cli.main(["--resume", str(rounded), "--pushes", str(pushes),
                       "--data-dir", str(tmp_path / "data")])
    out, err = capsys.readouterr()
    assert rc == 0, err
    said = [ln for ln in out.splitlines() if ln.startswith("going on from the recorded positions")]
    assert len(said) == 1 and "within rounding" in said[0]
