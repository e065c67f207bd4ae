"""The app's fallback sampling bot (used when kabuto.ai is not installed) plays within the rules."""
from __future__ import annotations

import pytest

from kabuto import Game
from kabuto.app.bot import SamplingBot
from physics import Materials


@pytest.mark.parametrize("limit", [None, 2.0])
def test_the_sampling_bot_pushes_within_the_hands_limit(limit):
    """Its speeds follow the game's materials: never faster than the hand allows, and a game with a
    faster hand lets it push faster."""
    mats = Materials.load()
    if limit is not None:
        mats = mats.with_overrides({"simulation.max_speed": limit})
    g = Game.new(players=2, wrestlers=["mike", "hank"], seed=3, first_player=0, materials=mats)
    sim = g.materials.sim
    speeds = [SamplingBot(samples=4).choose(g, 0, seed).speed for seed in range(6)]
    assert all(max(sim.min_speed, 0.4 * sim.max_speed) <= s <= sim.max_speed for s in speeds)
    plan = SamplingBot(samples=4).choose(g, 0, 0)
    g.push(plan.kind, plan.entry_deg, plan.heading_deg, plan.speed)   # the rules accept it
    assert g.current_seat == 1
