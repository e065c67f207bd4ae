"""Every game is recorded: saved after each turn, atomically, into the per-user data folder."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kabuto.cli import sim as sim_cli
from kabuto.replay import format as rp
from kabuto.replay.recorder import RecordingError, record
from kabuto.replay.userdata import UserDataError, data_dir, ensure_dir, replays_dir
from tests.replay.games import bot_push, long_game, new_game

ROOT = Path(__file__).resolve().parents[2]


def hashes(replay: rp.Replay) -> list[str]:
    return [a["hash"] for a in replay.actions if "hash" in a]


def game_hashes(game) -> list[str]:
    return [h["hash"] for h in game.history if "hash" in h]


# ----- the data folder ---------------------------------------------------------------------------
def test_the_data_folder_follows_option_then_env_then_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KABUTO_DATA_DIR", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "kabuto"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/ignored")
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "kabuto"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "kabuto"
    monkeypatch.setenv("KABUTO_DATA_DIR", str(tmp_path / "env"))
    assert data_dir() == tmp_path / "env"
    assert replays_dir(tmp_path / "opt") == tmp_path / "opt" / "replays"
    assert not (tmp_path / "env").exists()          # asking never creates anything


def test_a_data_folder_that_is_a_file_is_refused(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(UserDataError, match="not a folder"):
        ensure_dir(f)


# ----- saving after each turn ----------------------------------------------------------------------
def test_the_file_on_disk_always_holds_every_finished_turn(data_dir):
    """After each turn the file has everything; during a turn it lacks at most that turn."""
    game = new_game(11)
    rec = record(game)
    rng = __import__("random").Random(11)
    for turn in range(4):
        game.push(**bot_push(game, rng), end_turn=False)
        rec.update(game)
        if turn:   # the push of the turn in flight is not on disk yet; the turns before are
            on_disk = rp.load(rec.path)
            assert hashes(on_disk) == game_hashes(game)[:-1]
        game.end_turn()
        rec.update(game)
        assert hashes(rp.load(rec.path)) == game_hashes(game)
    assert rec.path.parent == data_dir / "replays"
    assert [p.name for p in rec.path.parent.iterdir()] == [rec.path.name]   # no stray temp files


def test_close_saves_a_turn_left_open_and_nothing_for_an_empty_game(data_dir):
    game = new_game(12)
    rec = record(game)
    assert rec.close(game) is None and not any((data_dir / "replays").iterdir())
    game.push(**bot_push(game, __import__("random").Random(1)), end_turn=False)
    path = rec.close(game)
    assert hashes(rp.load(path)) == game_hashes(game)


def test_a_failed_write_leaves_the_old_file_intact(data_dir, monkeypatch):
    game = new_game(13)
    rec = record(game)
    long_game(2, 13, rec, move_every=0, game=game)
    good = rec.path.read_bytes()
    turns_before = hashes(rp.load(rec.path))

    written = []

    def crash(fd):  # the new text is in the temp file when the "disk" fails
        written.append(os.fstat(fd).st_size)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", crash)
    game.push(**bot_push(game, __import__("random").Random(2)))
    with pytest.raises(RecordingError, match="No space left"):
        rec.update(game)
    assert written and written[0] > len(good) // 2
    assert rec.path.read_bytes() == good                     # the good file is untouched
    assert hashes(rp.load(rec.path)) == turns_before
    assert [p.name for p in rec.path.parent.iterdir()] == [rec.path.name]  # temp file removed
    monkeypatch.undo()
    rec.update(game)                                         # the next save catches up
    assert hashes(rp.load(rec.path)) == game_hashes(game)


def test_a_process_killed_mid_write_leaves_a_complete_replay(data_dir):
    """The recorder is SIGKILLed after writing the new file but before renaming it over the old."""
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        from tests.replay.games import long_game, new_game
        from kabuto.replay.recorder import record
        game = new_game(14)
        rec = record(game)
        long_game(2, 14, rec, move_every=0, game=game)
        print(rec.path, flush=True)
        os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)
        long_game(1, 99, rec, move_every=0, game=game)
        print("not killed", flush=True)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "KABUTO_DATA_DIR": str(data_dir)}, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    path = Path(proc.stdout.split()[0])
    replay = rp.load(path)                                    # complete and valid
    assert replay.pushes == 2
    assert rp.verify(replay).ok
    strays = [p for p in path.parent.iterdir() if p != path]
    assert strays and all(p.name.startswith(".") and p.name.endswith(".tmp") for p in strays)
    # The listing ignores the stray temp file.
    from kabuto.cli import replay as replay_cli
    assert replay_cli.main(["--list"]) == 0


# ----- kabuto sim records every game ----------------------------------------------------------------
@pytest.fixture
def pushes_file(tmp_path) -> Path:
    p = tmp_path / "pushes.json"
    p.write_text(json.dumps([{"piece": "small", "entry_deg": 180, "speed": 0.4},
                             {"piece": "small", "entry_deg": 100, "heading_deg": 10, "speed": 0.45}]))
    return p


def test_sim_records_into_the_data_dir_option(capsys, tmp_path, pushes_file, data_dir):
    target = tmp_path / "elsewhere"
    rc = sim_cli.main(["--wrestlers", "mike,hank", "--first-player", "0", "--pushes",
                       str(pushes_file), "--data-dir", str(target)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    files = list((target / "replays").glob("*.replay.json"))
    assert len(files) == 1 and f"recorded: {files[0]}" in out
    assert not data_dir.exists()                               # the option beats the env variable
    replay = rp.load(files[0])
    assert replay.pushes == 2 and rp.verify(replay).ok


def test_sim_records_into_the_env_folder_and_names_it_in_json(capsys, pushes_file, data_dir):
    rc = sim_cli.main(["--wrestlers", "mike,hank", "--pushes", str(pushes_file), "--json"])
    out, _ = capsys.readouterr()
    assert rc == 0
    path = Path(json.loads(out)["replay"])
    assert path.parent == data_dir / "replays" and rp.load(path).pushes == 2


def test_sim_with_an_unusable_data_dir_exits_2_before_playing(capsys, tmp_path, pushes_file):
    f = tmp_path / "a-file"
    f.write_text("")
    rc = sim_cli.main(["--pushes", str(pushes_file), "--data-dir", str(f)])
    out, err = capsys.readouterr()
    assert rc == 2 and "not a folder" in err and "pushed" not in out


def test_a_refused_step_still_saves_the_turns_played(capsys, tmp_path, data_dir):
    p = tmp_path / "pushes.json"
    p.write_text(json.dumps([{"piece": "small", "entry_deg": 180, "speed": 0.4},
                             {"piece": "anvil", "entry_deg": 0}]))
    rc = sim_cli.main(["--wrestlers", "mike,hank", "--pushes", str(p)])
    assert rc == 2
    (path,) = (data_dir / "replays").glob("*.replay.json")
    assert rp.load(path).pushes == 1


def test_a_game_resumed_from_a_saved_game_json_is_recorded_too(data_dir):
    from kabuto import Game

    game = new_game(15)
    long_game(2, 15, None, move_every=0, game=game)
    saved = Game.from_json(json.loads(json.dumps(game.to_json())))
    rec = record(saved)
    long_game(1, 16, rec, move_every=0, game=saved)
    replay = rp.load(rec.close(saved))
    assert hashes(replay) == game_hashes(saved)
    assert rp.verify(replay).ok and "saved game" in replay.meta["note"]


def test_a_rules_engine_that_logs_tuning_changes_in_its_history_is_recorded_right(data_dir,
                                                                                  monkeypatch):
    """Forward compatibility: if Game.set_materials logs the change in the history (as the app
    expects it may), the tuning entry switches the table where it sits, even when the recorder
    is told only after several actions, and the replay still verifies and resumes."""
    from kabuto import Game
    from physics import World
    from tests.replay.games import tuned

    class Tuning:  # a history entry of a kind the game does not have yet
        def __init__(self, materials):
            self.data = {"type": "materials", "materials": materials.to_dict()}

        def to_json(self):
            return self.data

    def set_materials(self, materials):
        self._world = World(materials, self.world.pieces)
        self._history.append(Tuning(materials))

    monkeypatch.setattr(Game, "set_materials", set_materials, raising=False)
    game = new_game(16)
    rec = record(game)
    rng = __import__("random").Random(16)
    game.push(**bot_push(game, rng))
    rp.use_materials(game, tuned(game.materials))
    game.push(**bot_push(game, rng))          # the recorder hears of both pushes at once
    rec.update(game)
    replay = rp.load(rec.close(game))
    assert [a["materials"] for a in replay.actions if a["type"] == "push"] == [0, 1]
    assert rp.verify(replay).ok
    resumed = rp.resume_game(replay)
    assert resumed.materials == game.materials
