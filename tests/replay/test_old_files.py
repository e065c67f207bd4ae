"""Files made before physics model 6 (issue 47): a replay and a saved game recorded by the kabuto
of physics model 5, kept in tests/replay/corpus/old/.

The replay still loads (listed, described), and every reader that would re-simulate it (verify,
resume, the viewer) refuses it with the one-line model message, exit status 2. The saved game
holds its own at-rest state, so it loads and plays on whatever the model.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kabuto import Game
from kabuto.app.replay_model import open_recording
from kabuto.cli import replay as replay_cli
from kabuto.replay import format as rp
from kabuto.rules.errors import ReplayError
from physics import state_hash
from physics.versions import PHYSICS_MODEL

OLD = Path(__file__).parent / "corpus" / "old"
REPLAY = OLD / "model5-annie-mike.replay.json"
SAVED = OLD / "model5-annie-mike.game.json"
REFUSAL = f"recorded with physics model 5; this is {PHYSICS_MODEL}"


def test_an_old_replay_still_loads():
    replay = rp.load(REPLAY)
    assert replay.pushes == 4 and replay.meta["physics_model"] == 5
    assert replay.describe().startswith("2P Atlas Annie vs Mighty Jaw Mike")


def test_an_old_replay_is_refused_in_one_line_by_verify(capsys):
    assert PHYSICS_MODEL != 5
    rc = replay_cli.main([str(REPLAY), "--verify"])
    out, err = capsys.readouterr()
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(REFUSAL)


def test_an_old_replay_is_refused_by_resume_and_the_viewer():
    with pytest.raises(ReplayError, match=REFUSAL):
        rp.load_for_resume(REPLAY)
    with pytest.raises(ReplayError, match=REFUSAL):
        open_recording(REPLAY)


def test_an_old_saved_game_loads_where_it_was_and_plays_on():
    data = json.loads(SAVED.read_text())
    game = Game.from_json(data)
    assert state_hash(game.world.snapshot()) == state_hash(data["world"])
    assert not game.is_over
    before = game.turn.number
    piece = game.legal_kinds()[0]
    game.push(piece, 45.0, 0.0, 0.3, 0.0)
    assert game.turn.number == before + 1
