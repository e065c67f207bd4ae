"""``kabuto sim``: a game played headless from a file of pushes."""
from __future__ import annotations

import json

import pytest

from kabuto import Game
from kabuto.cli import main as kabuto_main
from kabuto.cli.sim import main
from tests.kabuto.scenarios import free_entry


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    """`kabuto sim` records every game as a replay: keep them in the test's folder."""
    monkeypatch.setenv("KABUTO_DATA_DIR", str(tmp_path / "data"))


def _file(tmp_path, steps) -> str:
    path = tmp_path / "pushes.json"
    path.write_text(json.dumps(steps))
    return str(path)


BASE = ["--players", "2", "--seed", "3", "--wrestlers", "mike,hank", "--first-player", "0"]


def test_plays_the_pushes_and_prints_each_turn(tmp_path, capsys):
    f = _file(tmp_path, [{"piece": "small", "entry_deg": 180, "speed": 0.4},
                         {"piece": "medium", "entry_deg": 90, "heading_deg": 10, "speed": 0.45}])
    assert main([*BASE, "--pushes", f]) == 0
    out = capsys.readouterr().out
    assert "turn   1  seat 0 (Mighty Jaw Mike): pushed" in out
    assert "turn   2  seat 1 (Hercules Hank): pushed" in out
    assert "Turn 3: seat 0 (Mighty Jaw Mike) to play." in out


def test_json_output_matches_the_engine(tmp_path, capsys):
    steps = [{"piece": "small", "entry_deg": 180, "speed": 0.4, "end_turn": False},
             {"end_turn": True},
             {"move": "Horn Toss"},                 # replaces Hank's turn
             {"piece": "small", "entry_deg": 90, "speed": 0.3},
             {"piece": "hank:bar1", "entry_deg": 150, "speed": 0.45, "spin_deg": 90}]
    assert main([*BASE, "--pushes", _file(tmp_path, steps), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [s["type"] for s in doc["steps"]] == ["push", "end_turn", "move", "push", "push"]
    g = Game.new(players=2, seed=3, wrestlers=["mike", "hank"], first_player=0)
    g.push("small", 180, 0.0, 0.4)
    g.use_move(1, "Horn Toss")
    g.push("small", 90, 0.0, 0.3)
    last = g.push("hank:bar1", 150, 0.0, 0.45, 90)
    assert doc["steps"][-1]["state_hash"] == last.state_hash
    assert doc["locations"] == g.locations()


def test_a_bad_push_names_the_turn_and_exits_2(tmp_path, capsys):
    f = _file(tmp_path, [{"piece": "small", "entry_deg": 180, "speed": 0.4},
                         {"piece": "large", "entry_deg": 0}])
    assert main([*BASE, "--pushes", f]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kabuto sim: turn 2 (seat 1 (Hercules Hank)), step 2")
    assert "no large disc in your inventory" in err and "Traceback" not in err


def test_pushes_after_the_end_are_refused(tmp_path, capsys):
    g = Game.new(players=2, seed=3, wrestlers=["mike", "hank"], first_player=0)
    steps = []
    while not g.is_over:
        kind = g.legal_kinds()[0]
        entry = free_entry(g, kind, 47.0 * len(steps))
        step = {"piece": kind, "entry_deg": entry, "speed": 0.3}
        g.push(step["piece"], step["entry_deg"], 0.0, step["speed"])
        steps.append(step)
    steps.append({"piece": "small", "entry_deg": 0})
    assert main([*BASE, "--pushes", _file(tmp_path, steps)]) == 2
    err = capsys.readouterr().err
    assert f"step {len(steps)} of" in err and "the game is over" in err
    assert main([*BASE, "--pushes", _file(tmp_path, steps[:-1])]) == 0
    assert f"Game over: {g.result.text}." in capsys.readouterr().out


def test_bad_files_and_arguments_exit_2(tmp_path, capsys):
    assert main([*BASE, "--pushes", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main([*BASE, "--pushes", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["--players", "2", "--wrestlers", "mike,nobody", "--pushes", _file(tmp_path, [])]) == 2
    assert "unknown wrestler 'nobody'" in capsys.readouterr().err
    assert main([*BASE, "--pushes", _file(tmp_path, [{"piece": "small"}])]) == 2
    assert "entry_deg: missing" in capsys.readouterr().err


def test_save_writes_a_loadable_game(tmp_path, capsys):
    out = tmp_path / "game.json"
    f = _file(tmp_path, [{"piece": "small", "entry_deg": 180, "speed": 0.4}])
    assert kabuto_main(["sim", *BASE, "--pushes", f, "--save", str(out)]) == 0
    g = Game.from_json(json.loads(out.read_text()))
    assert g.current_seat == 1 and len(g.history) == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".kabuto-")] == []
