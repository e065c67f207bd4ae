"""``kabuto replay FILE --verify``: per-push results, the first divergence and what differs, and
replays that keep their own materials whatever the defaults are."""
from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest

import kabuto.rules.game
import kabuto_assets
from kabuto import Game
from kabuto.cli import replay as replay_cli
from kabuto.replay import format as rp
from kabuto.replay.recorder import record
from physics import Materials, state_hash
from tests.replay.games import long_game, new_game, tuned


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = replay_cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_verify_prints_every_push_and_exits_0_when_all_match(capsys, rich):
    rc, out, err = run(capsys, rich.path, "--verify")
    assert rc == 0, err
    replay = rp.load(rich.path)
    push_lines = [ln for ln in out.splitlines() if re.match(r"\s+push\s+\d+", ln)]
    assert len(push_lines) == replay.pushes            # undone pushes are checked too
    assert all(" ok " in ln for ln in push_lines)
    for ln, a in zip(push_lines, (a for a in replay.timeline if a["type"] == "push"), strict=True):
        assert a["hash"][:12] in ln
    assert "undo" in out and "move" in out
    assert "reach the recorded states" in out


#: A tampered push's speed is the recorded one times this.
SLOWER = 0.85


def _tamper_speed(path: Path, k: int) -> tuple[dict, int]:
    """Make the k-th push (0-based) a little slower, keeping its recorded hash (slower, so that it
    stays within the hand's speed limit and the file still loads)."""
    data = json.loads(path.read_text())
    idx = [i for i, a in enumerate(data["actions"]) if a["type"] == "push"][k]
    data["actions"][idx]["speed"] *= SLOWER
    path.write_text(json.dumps(data))
    return data, idx


def test_a_divergent_push_is_named_with_the_pieces_that_differ(capsys, tmp_path, data_dir):
    game = new_game(5)
    rec = record(game)
    long_game(4, 5, rec, move_every=0, game=game)
    path = rec.close(game)
    original = rp.load(path)
    data, idx = _tamper_speed(path, 2)

    rc, out, err = run(capsys, path, "--verify")
    assert rc == 1
    lines = [ln for ln in out.splitlines() if re.match(r"\s+push\s+\d+", ln)]
    assert [(" ok " in ln) for ln in lines] == [True, True, False]   # stops at the divergence
    assert "DIFFERS" in lines[2]
    assert err.count("\n") == 1 and "first divergence at push 3" in err and f"actions[{idx}]" in err

    # What differs, worked out here from the physics: the world after the original third push
    # against the world after the slower one, from the same state.
    live = original.actions
    before = Game.replay(original.setup, original.game_actions[:idx], verify=True)
    want = rp.pieces_of(Game.replay(original.setup, original.game_actions[: idx + 1], verify=True).world)
    a = live[idx]
    before.push(a["piece"], a["entry_deg"], a["heading_deg"], a["speed"] * SLOWER, a["spin_deg"],
                end_turn=False)
    got = rp.pieces_of(before.world)
    differing = {pid for pid in set(got) | set(want) if got.get(pid) != want.get(pid)}
    assert differing, "a slower push must move something differently"
    m = re.search(r"(\d+) pieces? differs?", err)
    assert m and int(m.group(1)) == len(differing)
    on_both = [p for p in differing if p in got and p in want]
    if on_both:
        far = max(on_both, key=lambda p: math.hypot(got[p].x - want[p].x, got[p].y - want[p].y))
        dist_mm = math.hypot(got[far].x - want[far].x, got[far].y - want[far].y) * 1000
        assert f"{far}: {dist_mm:.3f} mm off" in err or f"{far}: on the ring" in err or \
            f"{far}: knocked out" in err


def test_verify_quiet_prints_only_the_summary(capsys, rich):
    rc, out, _ = run(capsys, rich.path, "--verify", "--quiet")
    assert rc == 0 and len(out.strip().splitlines()) == 1


def test_usage_errors_exit_2_in_one_line(capsys):
    rc, _, err = run(capsys)
    assert rc == 2 and len(err.strip().splitlines()) == 1
    rc, _, err = run(capsys, "--bogus")
    assert rc == 2 and "--bogus" in err


def test_without_verify_the_file_goes_to_the_apps_viewer(capsys, rich, monkeypatch):
    """``kabuto replay FILE`` validates the file, then opens the app as ``kabuto play --replay``
    would, under its own name (so a missing display names ``kabuto replay FILE``)."""
    from kabuto.cli import play as app_cli

    calls = []
    monkeypatch.setattr(app_cli, "open_app", lambda argv, shown_as: calls.append((argv, shown_as)) or 0)
    rc, _, _ = run(capsys, rich.path)
    assert rc == 0 and calls == [(["--replay", str(rich.path)], f"kabuto replay {rich.path}")]


# ----- tuning travels ----------------------------------------------------------------------------
def test_a_tuned_replay_replays_with_its_own_materials_whatever_the_defaults(capsys, tmp_path,
                                                                              monkeypatch):
    game = new_game(7, materials=tuned(Materials.load(), 1.8))
    rec = record(game)
    long_game(4, 7, rec, move_every=0, game=game)
    path = rec.close(game)

    # Today's defaults change ...
    copy = tmp_path / "assets"
    shutil.copytree(kabuto_assets.folder(), copy)
    toml = copy / "materials.toml"
    toml.write_text(re.sub(r"(table_friction\s*=\s*)([0-9.]+)",
                           lambda m: f"{m.group(1)}{float(m.group(2)) * 0.5}", toml.read_text()))
    monkeypatch.setenv("KABUTO_ASSETS", str(copy))
    kabuto.rules.game._default_materials.cache_clear()
    try:
        defaults = Materials.load()
        assert defaults.kinds["small"].table_friction != game.materials.kinds["small"].table_friction
        # ... and the replay still verifies: it carries its own materials.
        rc, out, err = run(capsys, path, "--verify")
        assert rc == 0, err
        # Control: the same pushes under today's defaults end elsewhere, so the check had teeth.
        replay = rp.load(path)
        plain = Game.new(players=2, wrestlers=["mike", "hank"], seed=7, first_player=0)
        assert plain.materials.kinds["small"].table_friction == defaults.kinds["small"].table_friction
        for a in replay.actions:
            try:
                plain.apply(rp.action_of(a))
            except ValueError:
                break
        assert state_hash(plain.world.snapshot()) != state_hash(game.world.snapshot())
    finally:
        kabuto.rules.game._default_materials.cache_clear()


def test_a_mid_game_tuning_change_is_replayed_with_the_new_table(capsys, rich, tmp_path):
    rc, _, err = run(capsys, rich.path, "--verify")
    assert rc == 0, err
    # Control: send the pushes after the change back to the first table: they diverge.
    path = rich.copy_to(tmp_path)
    data = json.loads(path.read_text())
    first_tuned = next(i for i, a in enumerate(data["actions"])
                       if a.get("materials") == 1 and a["type"] == "push")
    for a in data["actions"]:
        if a.get("materials") == 1:
            a["materials"] = 0
    path.write_text(json.dumps(data))
    rc, _, err = run(capsys, path, "--verify")
    assert rc == 1 and f"actions[{first_tuned}]" in err


@pytest.mark.parametrize("recorded", [None, "previous", "next"])
def test_a_replay_recorded_under_another_physics_model_is_refused_not_re_simulated(
        capsys, tmp_path, rich, recorded):
    """A replay recorded before the physics model changed (no model written: model 1) would
    re-simulate to another game: it is refused with exit 2 naming both models."""
    from physics.versions import PHYSICS_MODEL

    data = json.loads(Path(rich.path).read_text())
    assert data["meta"]["physics_model"] == PHYSICS_MODEL      # what the recorder writes
    recorded = {"previous": PHYSICS_MODEL - 1, "next": PHYSICS_MODEL + 1}.get(recorded)
    if recorded is None:
        del data["meta"]["physics_model"]
    else:
        data["meta"]["physics_model"] = recorded
    old = tmp_path / "old.replay.json"
    old.write_text(json.dumps(data))
    rc, out, err = run(capsys, old, "--verify")
    assert rc == 2
    assert err.strip().endswith(f"recorded with physics model {recorded or 1}; this is "
                                f"{PHYSICS_MODEL}")
    assert err.count("\n") == 1 and "DIFFERS" not in out


@pytest.fixture
def boards_moved(monkeypatch):
    """The 2P board as a later design round might change it: the second player's wrestler 4 mm
    farther out than the shipped board has it."""
    from dataclasses import replace

    from kabuto.rules import boards

    real = boards.load_setups()
    two = real.boards[2]
    moved = replace(real, boards={**real.boards, 2: replace(two, second_outset=two.second_outset + 0.004)})
    monkeypatch.setattr(boards, "load_setups", lambda path=None: moved)


@pytest.mark.usefixtures("boards_moved")
def test_a_replay_recorded_on_another_starting_board_is_refused_not_re_simulated(capsys, tmp_path, rich):
    """The starting layout is not stored but follows from assets/setups.toml, which design rounds
    change (issue 16): a game saved before would start elsewhere and re-simulate into another
    game. The file's start_hash says so before anything is re-simulated: exit 2, one line."""
    rc, out, err = run(capsys, rich.path, "--verify")
    assert rc == 2 and "DIFFERS" not in out
    assert err.strip().endswith("recorded on another starting board than this kabuto's (its boards "
                                "changed since, or the file was altered); it cannot be replayed")
    assert err.count("\n") == 1
    with pytest.raises(rp.BadReplayFile, match="another starting board"):
        rp.resume_game(rp.load(rich.path))
    # A file from before start_hash was written: re-simulated, and the first push differs.
    data = json.loads(Path(rich.path).read_text())
    del data["meta"]["start_hash"]
    old = tmp_path / "old.replay.json"
    old.write_text(json.dumps(data))
    rc, out, err = run(capsys, old, "--verify")
    assert rc == 1 and "actions[0]" in err


def test_the_recorder_writes_the_hash_of_the_board_the_game_started_on(rich):
    replay = rp.load(rich.path)
    assert replay.meta["start_hash"] == rp.start_hash(Game.from_setup(replay.setup))
    assert replay.meta["start_hash"] != rp.start_hash(Game.new(players=3, seed=1))


@pytest.mark.parametrize("bad", ["abc", "G" * 64, 7, None])
def test_a_start_hash_that_is_not_a_hash_is_refused_by_name(tmp_path, rich, bad):
    data = json.loads(Path(rich.path).read_text())
    data["meta"]["start_hash"] = bad
    with pytest.raises(rp.BadReplayFile, match="meta.start_hash"):
        rp.loads(json.dumps(data))
