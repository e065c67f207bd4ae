"""Resuming a recorded game goes on exactly as the uninterrupted game would have."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from kabuto.cli import sim as sim_cli
from kabuto.replay import format as rp
from kabuto.replay.recorder import record
from kabuto.rules.errors import ReplayError
from physics import state_hash
from tests.replay.games import bot_push, new_game

ROOT = Path(__file__).resolve().parents[2]


def sim_steps(seed: int, pushes: int) -> list[dict]:
    """Pushes a seeded bot would make in a mike-vs-hank game (none ends the game)."""
    game = new_game(seed)
    rng = random.Random(seed)
    steps = []
    for _ in range(pushes):
        if game.is_over or not game.legal_pieces():
            break
        p = bot_push(game, rng)
        game.push(**p)
        steps.append({"piece": p["piece_or_kind"], "entry_deg": p["entry_deg"],
                      "heading_deg": p["heading_deg"], "speed": p["speed"]})
    return steps


def sim(capsys, tmp_path, name, steps, *extra) -> dict:
    f = tmp_path / f"{name}.json"
    f.write_text(json.dumps(steps))
    rc = sim_cli.main(["--seed", "21", "--wrestlers", "mike,hank", "--first-player", "0",
                       "--pushes", str(f), "--json", *map(str, extra)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


def test_sim_resume_in_a_new_process_gives_the_uninterrupted_game(capsys, tmp_path):
    steps = sim_steps(21, 6)
    assert len(steps) >= 5
    whole = sim(capsys, tmp_path, "all", steps, "--data-dir", tmp_path / "d1")

    # The first part stops with a turn left open (pushed, turn not ended) ...
    first = steps[:3]
    first[-1] = {**first[-1], "end_turn": False}
    part = sim(capsys, tmp_path, "first", first, "--data-dir", tmp_path / "d2")
    saved = Path(part["replay"])
    saved_bytes = saved.read_bytes()
    # ... and a new process goes on from the file.
    rest = tmp_path / "rest.json"
    rest.write_text(json.dumps([{"end_turn": True}] + steps[3:]))
    proc = subprocess.run([sys.executable, "-m", "kabuto", "sim", "--resume", str(saved),
                           "--pushes", str(rest), "--json", "--data-dir", str(tmp_path / "d3")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "KABUTO_DATA_DIR": str(tmp_path / "unused")})
    assert proc.returncode == 0, proc.stderr
    resumed = json.loads(proc.stdout)

    assert resumed["locations"] == whole["locations"]
    assert resumed["result"] == whole["result"]
    assert resumed["current_seat"] == whole["current_seat"]
    a, b = rp.load(whole["replay"]), rp.load(resumed["replay"])
    assert [x["hash"] for x in b.actions if "hash" in x] == [x["hash"] for x in a.actions if "hash" in x]
    assert rp.verify(b).ok                                 # the resumed file is the whole game
    assert saved.read_bytes() == saved_bytes               # the file resumed is never changed
    assert not (tmp_path / "unused").exists()


def test_resume_keeps_the_tuning_and_the_undo_and_goes_on_like_the_live_game(rich):
    resumed = rp.load_for_resume(rich.path)
    live = rich.game.clone()
    assert resumed.materials == live.materials               # the tuning in force at the end
    assert resumed.turn == live.turn and resumed.locations() == live.locations()
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(3):
        if live.is_over:
            break
        oa = live.push(**bot_push(live, rng_a))
        ob = resumed.push(**bot_push(resumed, rng_b))
        assert oa.state_hash == ob.state_hash
    assert state_hash(live.world.snapshot()) == state_hash(resumed.world.snapshot())


def test_a_resumed_game_is_recorded_as_the_whole_game_in_a_new_file(rich, data_dir):
    original = rich.path.read_bytes()
    game = rp.load_for_resume(rich.path)
    rec = record(game)
    game.push(**bot_push(game, random.Random(9)))
    rec.update(game)
    path = rec.close(game)
    assert path != rich.path and rich.path.read_bytes() == original
    before, after = rp.load(rich.path), rp.load(path)
    assert after.timeline[: len(before.timeline)] == before.timeline
    assert after.pushes == before.pushes + 1
    assert after.meta["resumed_from"] == before.meta["game_id"]
    assert after.meta["seats"] == ["human", "ai"]
    assert rp.verify(after).ok


def test_a_push_that_lands_elsewhere_goes_on_from_the_recorded_state(rich, tmp_path):
    path = rich.copy_to(tmp_path)
    original = json.loads(path.read_text())
    pushes = [k for k, a in enumerate(original["actions"]) if a["type"] == "push"]

    def slowed(i: int, factor: float):
        """The game resumed from the file with push ``i`` slower (still within the hand's limit),
        or None where that makes another piece fall (on the crammed ring a push's chain reaction
        can: that is refused, the next test)."""
        data = json.loads(json.dumps(original))
        data["actions"][i]["speed"] *= factor
        path.write_text(json.dumps(data))
        try:
            return data, rp.load_for_resume(path)
        except ReplayError:
            return None

    data, game = next(r for r in (slowed(i, f) for i in pushes[1:] for f in (0.8, 0.9, 0.97))
                      if r is not None)
    assert state_hash(game.world.snapshot()) == [a for a in data["actions"] if "hash" in a][-1]["hash"]
    notice = rp.resume_notice(game)
    assert notice is not None and notice.startswith("going on from the recorded positions: ")
    assert notice.endswith(" mm from them here")


def test_a_replay_where_a_piece_fell_only_in_the_recording_is_not_resumed(rich, tmp_path):
    path = rich.copy_to(tmp_path)
    data = json.loads(path.read_text())
    i = [k for k, a in enumerate(data["actions"]) if a["type"] == "push"][1]
    changes = data["actions"][i]["changes"]
    pid = sorted(changes["set"])[0]   # on the ring after push 2: the file says it fell
    del changes["set"][pid]
    changes["gone"] = sorted([*changes.get("gone", []), pid])
    data["actions"][i]["hash"] = "0" * 64
    path.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match=r"cannot resume: push 2 \(actions\[\d+\]"):
        rp.load_for_resume(path)


def test_a_resumed_game_left_at_once_writes_no_new_file(rich, data_dir):
    game = rp.load_for_resume(rich.path)
    rec = record(game)
    assert rec.close(game) is None
    assert not any((data_dir / "replays").iterdir())
