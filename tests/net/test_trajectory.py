"""A push's trajectory over the wire: what a client rebuilds from the server's message is the
trajectory the physics made (to the wire's rounding), pieces that never moved included."""
from __future__ import annotations

import numpy as np
import pytest

from kabuto.net.tables import trajectory_from_json, trajectory_json
from kabuto.rules.game import Game


@pytest.mark.parametrize("push", [("medium", -160.0, 5.0, 0.35), ("medium", 90.0, -20.0, 0.45),
                                  ("small", 10.0, 30.0, 0.45)])
def test_the_rebuilt_trajectory_is_the_physics_one(push):
    game = Game.new(players=2, wrestlers=["hank", "gus"], seed=5, first_player=0)
    before = game.world.copy()
    out = game.push(*push)
    made = out.physics.trajectory
    sent = trajectory_json(out)
    assert len(sent["pieces"]) < len(made.ids), "pieces that never moved are left out of the message"
    got = trajectory_from_json(sent, before)
    assert got.rate == made.rate and got.poses.shape == made.poses.shape
    for i, pid in enumerate(made.ids):
        a, b = made.poses[:, i], got.poses[:, got.ids.index(pid)]
        assert np.array_equal(np.isnan(a[:, 0]), np.isnan(b[:, 0])), f"{pid} falls at another time"
        on = ~np.isnan(a[:, 0])
        assert np.allclose(a[on, :2], b[on, :2], atol=1e-5) and np.allclose(a[on, 2], b[on, 2], atol=1e-4)
        assert np.array_equal(a[on, 3], b[on, 3]), f"{pid}: stack levels differ"


@pytest.mark.parametrize("bad", [{}, {"rate": 60, "frames": 2, "pieces": {"X": [[0, 0, 0, 0]]}},
                                 {"rate": -1, "frames": 1, "pieces": {}}, {"rate": 60, "frames": 1, "pieces": []}])
def test_a_malformed_trajectory_is_refused_in_one_line(bad):
    game = Game.new(players=2, seed=1)
    with pytest.raises(ValueError):
        trajectory_from_json(bad, game.world)
