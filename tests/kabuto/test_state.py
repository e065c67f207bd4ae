"""The game as data: saving and loading, replays, clones, previews, and refused actions."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kabuto import Game, IllegalMove, ReplayError
from kabuto.rules.inventory import BOARD, SUPPLY
from physics import Materials
from tests.kabuto.scenarios import EDGE, OVERHANG, arena, beside, free_entry, give, line_up, put, shove

ROOT = Path(__file__).resolve().parents[2]


def snap(g: Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def _knocking_entry(g: Game, kind: str, heading: float, speed: float) -> float:
    """The first entry (every 5 degrees) from which a push of ``kind`` previews a knock-out: the
    boards change with the ring's design."""
    for entry in range(0, 360, 5):
        try:
            if g.preview_push(kind, float(entry), heading, speed).knocked_out:
                return float(entry)
        except IllegalMove:
            continue
    raise AssertionError(f"no push of a {kind} knocks anything out")


def played(players: int = 2) -> Game:
    """A game a few turns in, with pushes, a move and a knock-out behind it (all legal)."""
    g = Game.new(players=players, wrestlers=["mike", "hank", "annie", "rita"][:players], seed=4,
                 first_player=0)
    g.push("small", free_entry(g, "small", 180.0, 0.0, 0.3, step=5.0), 0.0, 0.3)   # seat 0
    g.use_move(1, "Horn Toss")                       # seat 1 (Hank) takes his Horn Bar (his turn)
    top = g.materials.sim.max_speed
    entry = _knocking_entry(g, "medium", 40.0, top)
    knock = g.push("medium", entry, 40.0, top)       # the next seat clips a disc off the board
    assert knock.knocked_out, "the fixture should have a knock-out behind it"
    g.push("small", free_entry(g, "small", 250.0, 20.0, 0.4, step=5.0), 20.0, 0.4)
    return g


def test_saved_game_loads_to_the_same_state_and_continues_bit_identically():
    g = played()
    loaded = Game.from_json(json.loads(json.dumps(g.to_json())))
    assert snap(loaded) == snap(g)
    kind = g.legal_kinds()[0]
    entry = free_entry(g, kind, 100.0, 5.0, 0.45, step=5.0)
    a = g.push(kind, entry, 5.0, 0.45)
    b = loaded.push(kind, entry, 5.0, 0.45)
    assert a.state_hash == b.state_hash and snap(loaded) == snap(g)


def test_saved_game_continues_identically_in_a_new_process(tmp_path):
    g = played(3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.to_json()))
    kind = g.legal_kinds()[0]
    entry = free_entry(g, kind, 0.0, -10.0, 0.45, step=15.0)
    here = g.push(kind, float(entry), -10.0, 0.45).state_hash
    code = ("import json, sys; from kabuto import Game; "
            f"g = Game.from_json(json.load(open({str(path)!r}))); "
            f"print(g.push({kind!r}, {float(entry)!r}, -10.0, 0.45).state_hash)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=env, check=True)
    assert out.stdout.strip() == here


def test_replay_of_the_history_reaches_the_same_game():
    g = arena(2, ["gus", "hank"])             # edits, then pushes and a turn-replacing move
    give(g, "seat:0", "small", 1)
    x, y = beside(g, "hank:wrestler", "large", 90.0)
    put(g, "L1", x, y)
    g.use_move(0, "Body Slam", piece="L1")
    g.push("small", 10.0, 0.0, 0.4)
    g.push("small", 190.0, 0.0, 0.4, end_turn=False)
    g.end_turn()
    again = Game.replay(g.setup, g.history)
    assert snap(again) == snap(g)
    kinds = [a["type"] for a in g.history]
    assert {"edit", "move", "push", "end_turn"} <= set(kinds)


def test_replay_names_the_action_that_diverges():
    g = played()
    history = g.history
    i = next(i for i, a in enumerate(history) if a["type"] == "push" and i > 0)
    bad = [dict(a) for a in history]
    bad[i]["hash"] = "0" * 64
    with pytest.raises(ReplayError, match=f"action {i}: .*differs"):
        Game.replay(g.setup, bad)
    bad = [dict(a) for a in history]
    bad[i]["piece"] = "L5"
    with pytest.raises(ReplayError, match=f"action {i}"):
        Game.replay(g.setup, bad)


def test_history_records_every_push_parameter_and_the_state_hash():
    g = Game.new(players=2, seed=0, first_player=0)
    o = g.push("medium", 33.0, -12.5, 0.45, spin_deg=30.0)
    push, end = g.history
    assert push == {"type": "push", "seat": 0, "piece": o.piece, "kind": "medium", "entry_deg": 33.0,
                    "heading_deg": -12.5, "speed": 0.45, "spin_deg": 30.0, "hash": o.state_hash}
    assert end == {"type": "end_turn", "seat": 0}


def test_setup_restarts_the_same_game():
    g = Game.new(players=4, seed=11)
    assert snap(Game.from_setup(json.loads(json.dumps(g.setup.to_json())))) == snap(Game.new(players=4, seed=11))
    assert g.setup.wrestlers and g.setup.first_player == g.current_seat


def test_clone_is_independent_and_equivalent():
    g = played()
    c = g.clone()
    before = snap(g)
    kind = c.legal_kinds()[0]
    entry = free_entry(c, kind, 45.0, 0.0, 0.4, step=5.0)
    a = c.push(kind, entry, 0.0, 0.4)
    assert snap(g) == before
    b = g.push(kind, entry, 0.0, 0.4)
    assert a.state_hash == b.state_hash and snap(c) == snap(g)


def test_preview_push_predicts_the_push_and_changes_nothing():
    g = arena(2)
    put(g, "hank:wrestler", EDGE, 0.0)
    line_up(g, "hank:wrestler")
    before = snap(g)
    p = g.preview_push("medium", 180.0, 0.0, g.materials.sim.max_speed)
    assert snap(g) == before and not p.committed
    assert p.winner == 0 and "hank:wrestler" in [k.piece for k in p.knocked_out]
    real = shove(g)
    assert real.state_hash == p.state_hash and [k.to_json() for k in real.knocked_out] == \
        [k.to_json() for k in p.knocked_out]
    assert real.result == p.result


def test_refused_actions_change_nothing():
    g = arena(2, ["mike", "hank"])
    put(g, "M01", OVERHANG, 0.0)                 # hangs over the edge at 0 degrees
    before = snap(g)
    attempts = [
        lambda: g.push("small", 0.0, 0.0, 0.3),                    # platform spot blocked
        lambda: g.push("small", 90.0, 75.0, 0.3),                  # beyond the platform's range
        lambda: g.push("small", 90.0, 0.0, 0.0),                   # no speed
        lambda: g.push("small", float("nan"), 0.0, 0.3),
        lambda: g.push("nonsense", 90.0),
        lambda: g.push(g.inventory(1)[0], 90.0),                   # the opponent's piece
        lambda: g.end_turn(),                                      # nothing pushed yet
        lambda: g.use_move(0, "Mandible Claw"),                    # cannot pay
        lambda: g.edit("M02", BOARD, OVERHANG, 0.0),                 # overlaps M01
        lambda: g.edit("M02", "seat:7"),
    ]
    for attempt in attempts:
        with pytest.raises(IllegalMove):
            attempt()
        assert snap(g) == before


def test_blocked_platform_message_names_the_blocker():
    g = arena(2)
    put(g, "M01", OVERHANG, 0.0)
    with pytest.raises(IllegalMove, match="blocked by piece 'M01'"):
        g.push("small", 0.0)


def test_loading_rejects_inconsistent_data():
    data = played().to_json()
    broken = json.loads(json.dumps(data))
    del broken["pieces"]["S01"]
    with pytest.raises(ValueError, match="pieces"):
        Game.from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["pieces"]["L5"]["place"] = "seat:9"
    with pytest.raises(ValueError, match="L5"):
        Game.from_json(broken)
    broken = json.loads(json.dumps(data))
    on_board = next(p for p, d in broken["pieces"].items() if d["place"] == BOARD)
    broken["pieces"][on_board]["place"] = SUPPLY
    with pytest.raises(ValueError, match="board and world disagree"):
        Game.from_json(broken)
    with pytest.raises(ValueError, match="format"):
        Game.from_json({"nothing": 1})


def test_tuned_materials_are_kept_and_wrestler_kinds_added():
    tuned = Materials.load().with_overrides({"table_friction": 0.5})
    g = Game.new(players=2, wrestlers=["dora", "hank"], materials=tuned)
    kinds = g.setup.materials["kinds"]
    assert kinds["small"]["table_friction"] == 0.5
    assert {"dora_wrestler", "dora_ball", "hank_wrestler", "hank_bar"} <= set(kinds)
    assert "mike_wrestler" not in kinds
    assert not kinds["dora_wrestler"]["stackable"]


def test_bad_setup_arguments_are_refused_with_their_name():
    for kw, name in (({"players": 5}, "players"), ({"seed": "x"}, "seed"),
                     ({"wrestlers": ["mike"]}, "wrestlers"), ({"wrestlers": ["mike", "zed"]}, "zed"),
                     ({"junior": True, "wrestlers": ["mike", "hank"]}, "Junior League"),
                     ({"first_player": -1}, "first_player"), ({"materials": 3}, "materials")):
        with pytest.raises(ValueError, match=name):
            Game.new(**kw)

