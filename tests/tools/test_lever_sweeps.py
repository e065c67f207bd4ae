"""tools/lever_sweeps.py: the 2P turn-1 sweeps at the hand's own limit, so a faster hand is swept
with the pushes it allows."""
from __future__ import annotations

import pytest

from physics import Materials
from tests.tools.conftest import load_tool


@pytest.fixture(scope="module")
def lever_sweeps():
    return load_tool("lever_sweeps")


def test_at_the_shipped_limit_the_sweeps_push_as_early_wins_does(lever_sweeps):
    import inspect

    import early_wins

    def default(f, name):
        return inspect.signature(f).parameters[name].default

    assert lever_sweeps.scaled(lever_sweeps.GRID_SPEEDS, 0.5) == default(early_wins.edge_sweep, "speeds")
    assert lever_sweeps.scaled(lever_sweeps.RIDGE_SPEEDS, 0.5) == default(early_wins.steepest_ridge,
                                                                         "speeds")


def test_a_faster_hand_is_swept_up_to_its_own_limit(lever_sweeps, monkeypatch):
    """Every push the sweeps make under a 0.7 m/s hand is within it, and the fastest is at it (the
    pushes are noted, not simulated: what is swept, not what it finds)."""
    import early_wins

    made = []

    def note(game, sample):
        made.append(sample.speed)
        return None  # "could not be made": the sweep goes on to the next

    monkeypatch.setattr(early_wins, "_push", note)
    fast = Materials.load().with_overrides({"simulation.max_speed": 0.7})
    out = lever_sweeps.sweep_2p(materials=fast)
    assert out["max_speed"] == 0.7 and out["ridge_speeds"] == (0.63, 0.7)
    assert len(made) == 1248 + 1936  # every push of both sweeps, each seat moving first
    assert max(made) == pytest.approx(0.7) and min(made) == pytest.approx(0.4 * 0.7 / 0.5)
